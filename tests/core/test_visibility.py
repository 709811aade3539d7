"""Persona visibility in SQL (``services/core/memory_store/visibility.py``): the fragment, and
what it selects on the real Postgres."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from services.core.deps import Clients
from services.core.memory_store.visibility import visible

ROWS = """
SELECT name FROM (VALUES
    ('shared', 'global', NULL),
    ('shared-by-deanna', 'global', 'deanna'),
    ('deannas-own', 'agent', 'deanna'),
    ('anaketas-own', 'agent', 'anaketa')
) AS e(name, scope, agent_id)
WHERE {condition}
ORDER BY name
"""


def test_the_fragment_names_the_alias_and_the_placeholder() -> None:
    assert visible("e", "$2") == "(e.scope = 'global' OR e.agent_id = $2)"
    assert visible("r", "$13") == "(r.scope = 'global' OR r.agent_id = $13)"


@pytest.mark.parametrize(
    ("alias", "agent"),
    [("e; DROP TABLE x", "$2"), ("E", "$2"), ("e", "'deanna'"), ("e", "$0"), ("e", "2")],
)
def test_only_an_alias_and_a_placeholder_are_spliced(alias: str, agent: str) -> None:
    with pytest.raises(ValueError):
        visible(alias, agent)


async def test_an_agent_sees_global_rows_and_its_own_never_another_personas(
    resources: Clients,
) -> None:
    query = ROWS.format(condition=visible("e", "$1"))
    seen = {
        agent: [r["name"] for r in await resources.db.fetch(query, agent)]
        for agent in ("deanna", "anaketa", "nobody")
    }
    assert seen == {
        "deanna": ["deannas-own", "shared", "shared-by-deanna"],
        "anaketa": ["anaketas-own", "shared", "shared-by-deanna"],
        "nobody": ["shared", "shared-by-deanna"],
    }


async def test_with_no_agent_only_the_global_rows_are_visible(resources: Clients) -> None:
    """A NULL agent (no persona named) matches no ``agent_id``: never a persona's own row."""
    query = ROWS.format(condition=visible("e", "$1"))
    rows = await resources.db.fetch(query, None)
    assert [r["name"] for r in rows] == ["shared", "shared-by-deanna"]


def test_the_rule_is_written_once() -> None:
    """No query spells the visibility condition itself: each one calls :func:`visible`."""
    root = Path(__file__).resolve().parents[2] / "services"
    spelled = re.compile(r"scope\s*=\s*'global'\s+OR\s+\S*agent_id", re.IGNORECASE)
    found = [
        str(path.relative_to(root))
        for path in root.rglob("*.py")
        if spelled.search(path.read_text()) and path.name != "visibility.py"
    ]
    assert found == []
