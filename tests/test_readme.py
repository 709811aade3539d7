"""What the README tells a new user to type, and the numbers it quotes, are true of the code
(issue 32: a README that is true on a bare machine). Pure: it reads files and parsers only."""

from __future__ import annotations

import re
from pathlib import Path

from contracts.common import TEXT_MAX
from services.cli import build_parser
from services.core.settings import Settings, env_table
from services.playground import commands
from services.playground.terminal import COMMANDS

README = (Path(__file__).parents[1] / "README.md").read_text()
_TWIN = re.compile(r"\buv run twin ([a-z-]+)((?: +(?:--?[a-z-]+|[A-Za-z0-9_.:-]+))*)")


def _subcommands() -> dict[str, set[str]]:
    """``twin``'s subcommands and the options each takes, read from its own parser."""
    parser = build_parser()
    (sub,) = [a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction"]
    return {
        name: {opt for action in p._actions for opt in action.option_strings}
        for name, p in sub.choices.items()  # type: ignore[attr-defined]
    }


def test_every_twin_command_the_readme_shows_exists_with_its_options() -> None:
    known = _subcommands()
    shown = _TWIN.findall(README)
    assert len(shown) >= 8  # the two commands, the playground, the commands block
    for name, rest in shown:
        assert name in known, f"README runs `twin {name}`, which twin does not have"
        for option in re.findall(r"--[a-z-]+", rest):
            assert option in known[name], f"README passes {option} to `twin {name}`"


def test_every_playground_command_in_the_readme_is_one_twin_chat_knows() -> None:
    table = re.findall(r"^\| `(/[a-z]+)` \|", README, re.MULTILINE)
    assert len(table) >= 7
    answered = {*COMMANDS, "/quit", "/exit"} | set(re.findall(r"/[a-z]+", commands.HELP))
    assert set(table) <= answered


def test_the_configuration_table_lists_every_setting_and_only_them() -> None:
    section = README.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"`((?:TWIN|OPENAI|QDRANT|DATABASE|REDIS)_[A-Z_]+)`", section))
    assert listed == {var for var, _, _ in env_table()}


def test_the_limits_the_readme_names_are_the_contracts_limits() -> None:
    limits = README.split("### Limits", 1)[1].split("\n## ", 1)[0]
    assert "| 20,000 characters |" in limits and TEXT_MAX == 20_000
    assert Settings().max_body_bytes == 1024 * 1024 and "1 MiB" in limits
    assert "| `agent_id` | 64 characters" in limits


def test_every_file_and_folder_the_readme_names_exists() -> None:
    repo = Path(__file__).parents[1]
    named = set(re.findall(r"`((?:services|tests|tools|contracts|bench|docs)/[\w./-]*\w)", README))
    assert len(named) >= 15
    missing = sorted(p for p in named if "<" not in p and not (repo / p).exists())
    assert missing == []
