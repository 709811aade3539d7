"""The docs a new user reads stay true: every design citation in the code resolves in
docs/design.md, and what the README says the tests touch is what the tests touch."""

from __future__ import annotations

import re
from pathlib import Path

from services.playground.terminal import HELP

REPO = Path(__file__).parents[2]
DESIGN = REPO / "docs" / "design.md"
README = REPO / "README.md"
CITED_IN = ("services", "contracts", "n8n-workflows", "bench", "tests")
SUFFIXES = {".py", ".sql", ".json", ".md", ".yaml"}

# "003 §6.2", "003 §2.1, §3", "003 §4.1–4.2", "003 §6.3-6.4", "003 §6.1, §10"; a bare "§8" in
# a module that cites 003 elsewhere is 003's too (003 is the only document with sections).
_SECTIONS = re.compile(
    r"(?:\b003 )?§(\d+(?:\.\d+)?)(?:\s*[–-]\s*(\d+(?:\.\d+)?))?"
    r"((?:,\s*§\d+(?:\.\d+)?)*)"
)
_NAMED = re.compile(r"\b000 ([A-Z][a-z]+[A-Z][A-Za-z]+)\b")  # 000 SummarySpine, 000 UserSeed
_DOCUMENT = re.compile(r"\b(00[0-4])(?:'s|/00[0-4])?\b(?=[\s:,;)'.]|$)")
_HEADING = re.compile(r"^### (\d{3}) (§[\d.]+|Appendix A|[A-Z][A-Za-z]+)\b", re.MULTILINE)


def _code_files() -> list[Path]:
    files = []
    for top in CITED_IN:
        for path in (REPO / top).rglob("*"):
            if (
                path.suffix in SUFFIXES
                and path.is_file()
                and "assets" not in path.parts
                and "fixtures" not in path.parts  # recorded prompts and answers, not code
                and path != Path(__file__)
            ):
                files.append(path)
    return files


def citations(text: str) -> set[str]:
    """The design sections ``text`` cites, as ``003 §6.2`` / ``000 SummarySpine``."""
    found: set[str] = set()
    for match in _SECTIONS.finditer(text):
        first, last, more = match.group(1), match.group(2), match.group(3)
        found.add(f"003 §{first}")
        if last:  # "4.1–4.2": both ends; "6.3-6.4" likewise
            found.add(f"003 §{last}")
        found |= {f"003 §{n}" for n in re.findall(r"§(\d+(?:\.\d+)?)", more or "")}
    found |= {f"000 {name}" for name in _NAMED.findall(text)}
    if "003 Appendix A" in text or "003 App. A" in text:
        found.add("003 Appendix A")
    return found


def design_sections() -> set[str]:
    return {f"{number} {name}" for number, name in _HEADING.findall(DESIGN.read_text())}


def test_the_citation_parser_reads_every_form_the_code_uses() -> None:
    assert citations("003 §2.1, §3 and 003 §4.1–4.2, 003 §6.3-6.4; as §8 says") == {
        "003 §2.1",
        "003 §3",
        "003 §4.1",
        "003 §4.2",
        "003 §6.3",
        "003 §6.4",
        "003 §8",
    }
    assert citations("the spine (000 SummarySpine), 003 App. A") == {
        "000 SummarySpine",
        "003 Appendix A",
    }
    assert citations('f"{hit.doc_id} § {hit.section}"') == set()


def test_every_design_citation_in_the_code_has_its_section_in_docs_design() -> None:
    sections = design_sections()
    missing: dict[str, list[str]] = {}
    cited = 0
    for path in _code_files():
        for citation in citations(path.read_text(errors="replace")):
            cited += 1
            if citation not in sections:
                missing.setdefault(citation, []).append(str(path.relative_to(REPO)))
    assert cited > 50  # the code does cite its design; the parser found the citations
    assert missing == {}


def test_every_source_document_the_code_names_has_a_part_in_docs_design() -> None:
    named = set()
    for path in _code_files():
        named |= set(_DOCUMENT.findall(path.read_text(errors="replace")))
    parts = set(re.findall(r"^## (00[0-4]) ", DESIGN.read_text(), re.MULTILINE))
    assert named >= {"000", "001", "002", "003", "004"}
    assert named <= parts


def test_the_readme_points_at_docs_that_exist() -> None:
    readme = README.read_text()
    for target in re.findall(r"\]\((docs/[^)]+)\)", readme):
        assert (REPO / target).exists(), target
    assert "docs/design.md" in readme and "docs/architecture.md" in readme
    assert "```mermaid" in (REPO / "docs" / "architecture.md").read_text()


def test_the_readme_names_the_redis_db_and_databases_the_tests_use() -> None:
    readme = README.read_text()
    fixtures = (REPO / "tests" / "conftest.py").read_text()
    unit_db = _default_db(fixtures, "TWIN_TEST_REDIS_URL")
    assert f"self.redis_url = redis.url({unit_db})" in fixtures  # the embedded one: same db
    e2e = (REPO / "tests" / "e2e" / "conftest.py").read_text()
    assert 'os.environ.get("TWIN_TEST_E2E_REDIS_URL", test_stores.redis_url)' in e2e
    assert f"**Redis**: db {unit_db} only (the E2E stack too" in readme
    for prefix in ("twin_test_", "twin_cli_", "twin_mig_", "twin_e2e_"):
        assert prefix in readme
        assert any(f'f"{prefix}' in path.read_text() for path in (REPO / "tests").rglob("*.py"))
    assert "throwaway Postgres and Redis servers" in readme
    assert "stops and restarts them" not in readme  # read as if it stopped the user's servers


def test_the_readme_says_where_the_first_run_puts_node_and_n8n() -> None:
    readme = README.read_text()
    install = (REPO / "tools" / "n8n" / "install.sh").read_text()
    assert 'CACHE_ROOT="${TWIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/twin-core}"' in install
    assert "`~/.cache/twin-core/n8n-<version>-node<version>`" in readme
    assert 'HOME_DIR="$CACHE_ROOT/n8n-$N8N_VERSION-node$NODE_VERSION"' in install


def _default_db(source: str, variable: str) -> str:
    """The Redis db of ``os.environ.get(variable, "redis://…/N")`` in a fixtures module."""
    match = re.search(rf'"{variable}",\s*"redis://[^"]+/(\d+)"', source)
    assert match, f"no default for {variable}"
    return match.group(1)


def test_the_readme_documents_every_playground_command_and_the_shared_offset() -> None:
    readme = README.read_text()
    playground = readme[readme.index("## The playground") : readme.index("## The nodes")]
    commands = re.findall(r"/[a-z]+", HELP)
    assert "/new" in commands
    for command in commands:
        assert f"| `{command}` |" in playground, command
    assert "same `TWIN_PORT_OFFSET` as `twin up`" in playground
