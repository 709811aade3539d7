"""The house rules of issue #26 that the tree itself can be asked about (pure: it reads source
files only): modules and functions stay short, memory-upserter's root holds no concept
prefixes, every node is a leaf (rag-gate mounts nothing of fast-brain), and persona visibility
in SQL is written once (``services/core/memory_store/visibility.py``)."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

SERVICES = Path(__file__).parents[1] / "services"
NODES = (
    "pulse_decay",
    "graph_hydrator",
    "rag_gate",
    "envelope_validator",
    "memory_upserter",
    "reflection_writer",
)
MAX_LONG_FUNCTIONS = 3  # functions over 60 lines in services/ (issue #26: 21 at its review)
LONG = 60
MAX_MODULE_LINES = 300  # STYLE.md: modules under 300 lines
# Persona visibility: a row is the person's (scope global) or this persona's own.
_VISIBILITY = re.compile(r"scope\s*=\s*'global'\s+OR\s+[\w.{}]*agent_id\s*=", re.IGNORECASE)


def _modules() -> list[Path]:
    return sorted(SERVICES.rglob("*.py"))


def _functions(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    return [
        (node.name, (node.end_lineno or node.lineno) - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]


def test_at_most_three_functions_in_services_run_over_sixty_lines() -> None:
    long = [
        f"{path.relative_to(SERVICES)}:{name} ({lines})"
        for path in _modules()
        for name, lines in _functions(path)
        if lines > LONG
    ]
    assert len(long) <= MAX_LONG_FUNCTIONS, long


def test_every_module_in_services_is_under_three_hundred_lines() -> None:
    long = [
        f"{path.relative_to(SERVICES)} ({lines})"
        for path in _modules()
        if (lines := len(path.read_text().splitlines())) >= MAX_MODULE_LINES
    ]
    assert not long, long


def test_memory_upserters_root_holds_no_concept_prefix() -> None:
    """``forget_*``, ``rules_*``, ``turn_*`` were packages in all but name: two root modules
    sharing the word before an underscore is a folder asking to be made."""
    root = SERVICES / "memory_upserter"
    names = [p.stem for p in root.glob("*.py") if not p.stem.startswith("__")]
    prefixes = Counter(name.split("_")[0] for name in names if "_" in name)
    assert [p for p, n in prefixes.items() if n > 1] == []


def _imports(package: Path) -> set[str]:
    """Every module the package's files import, at any depth (a function's lazy import too)."""
    imported = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    return imported


def test_rag_gate_imports_nothing_of_fast_brain() -> None:
    """``/v1/turn`` is composed at the entry point (``services/nodes.py``), not in a node."""
    assert [m for m in _imports(SERVICES / "rag_gate") if m.startswith("services.fast_brain")] == []


def test_no_node_imports_another_node_or_the_composed_turn() -> None:
    """Every node is a leaf: only the entry point (``services/nodes.py``, ``services/cli.py``)
    and the turn composed above them (``services/fast_brain``, ``services/playground``) import
    nodes."""
    crossing = {}
    for name in NODES:
        others = {f"services.{n}" for n in (*NODES, "fast_brain") if n != name}
        found = [m for m in _imports(SERVICES / name) if ".".join(m.split(".")[:2]) in others]
        crossing[name] = sorted(found)
    assert {name: found for name, found in crossing.items() if found} == {}


def test_persona_visibility_in_sql_is_written_once() -> None:
    written = [
        str(path.relative_to(SERVICES))
        for path in _modules()
        if _VISIBILITY.search(path.read_text())
    ]
    assert written == ["core/memory_store/visibility.py"]
