"""Persona visibility in SQL, written once: what an agent may see of a person's memory.

A row (entity, relation, episode) is visible to an agent when it is global (every persona the
person talks to shares it) or scoped to that agent. The vector index keeps the same rule as an
engine-neutral filter (:func:`services.core.vectors.filters.visible`); this is its Postgres
form, for the queries that read the tables directly. Together they are the "no Marta bleed"
guarantee: one persona never sees another's own memory.
"""

from __future__ import annotations

import re

_ALIAS = re.compile(r"[a-z_][a-z0-9_]*")
_PARAM = re.compile(r"\$[1-9][0-9]*")


def visible(alias: str, agent: str) -> str:
    """The condition ``(alias.scope = 'global' OR alias.agent_id = agent)``.

    ``alias`` is the table's alias in the query (``e``, ``r``), ``agent`` the placeholder
    carrying the agent's id (``$2``). Both are checked: the fragment is spliced into SQL text,
    so only an identifier and a placeholder are accepted, never a value.
    """
    if not _ALIAS.fullmatch(alias):
        raise ValueError(f"not a table alias: {alias!r}")
    if not _PARAM.fullmatch(agent):
        raise ValueError(f"not a query placeholder: {agent!r}")
    return f"({alias}.scope = 'global' OR {alias}.agent_id = {agent})"
