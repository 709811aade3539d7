"""Explicit supersession: the GRAPH handles a plan names (``facts[i].replaces``, ``ends``),
resolved in the commit's transaction among the user's own live facts this persona may see
(global, or this agent's).

A handle (``F3a9c1b``, :mod:`services.core.handles`) that names one fact resolves to it; one
that names none, several, or is not a fact handle is left out with a warning naming its path,
and the rest of the plan is kept. ``replaces``: that fact ends where the new one starts
(:mod:`services.core.memory_store.facts` closes it; a new fact starting later leaves it current
until then). ``ends``: each fact ends at the turn (``valid_to``), kept as history — answered
as an ``ended`` fact."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import cast
from uuid import UUID

from contracts.common import Scope
from contracts.memory import FactWritten, Notice
from services.core.deps import Connection
from services.core.handles import parse_handle
from services.core.memory_store.visibility import visible
from services.memory_upserter.commit.turn import PLAN_PATHS, TurnPlan

# The user's live facts this persona may see whose id starts with one of the prefixes.
CANDIDATES = f"""
SELECT left(r.rel_id::text, 6) AS prefix, r.rel_id
  FROM relations r
 WHERE r.user_id = $1 AND r.status = 'ACTIVE' AND {visible("r", "$2")}
   AND left(r.rel_id::text, 6) = ANY($3::text[])
"""
# ``ends``: each fact ends at the turn (never before it began, never later than it would).
END = """
UPDATE relations r
   SET valid_to = LEAST(COALESCE(r.valid_to, 'infinity'), GREATEST($3, COALESCE(r.valid_from, $3))),
       updated_at = $3, indexed_at = NULL
 WHERE r.user_id = $1 AND r.rel_id = ANY($2::uuid[]) AND r.status = 'ACTIVE'
RETURNING r.rel_id, r.text, r.predicate, r.memory_type, r.scope, r.memory_key, r.valid_from,
          r.valid_to
"""


@dataclass(frozen=True)
class HandleRef:
    """A handle the plan names, where: ``$.plan.facts[2].replaces``, ``$.plan.ends[0]``."""

    path: str
    text: str


@dataclass
class Superseding:
    """The handles resolved: each ``replaces`` text to its fact, the facts ``ends`` ended."""

    replaces: dict[str, UUID] = field(default_factory=dict)
    ended: list[FactWritten] = field(default_factory=list)
    notes: list[Notice] = field(default_factory=list)


def handle_refs(plan: TurnPlan) -> tuple[list[HandleRef], list[HandleRef]]:
    """The plan's ``replaces`` (of the facts it kept) and ``ends``, each with its path."""
    base = PLAN_PATHS.get(plan.plan_source, "plan")
    given = plan.turn.plan.facts if plan.turn.plan is not None else []
    replaces = []
    for i, (fact, _, _) in enumerate(plan.resolved.facts):
        if fact.replaces is not None:
            at = next(
                (
                    j
                    for j, f in enumerate(given)
                    if (f.replaces, f.text) == (fact.replaces, fact.text)
                ),
                i,
            )
            replaces.append(HandleRef(f"{base}.facts[{at}].replaces", fact.replaces))
    ends = [HandleRef(f"{base}.ends[{i}]", text) for i, text in enumerate(plan.ends)]
    return replaces, ends


def pick(
    refs: Sequence[HandleRef], found: Sequence[tuple[str, UUID]]
) -> tuple[dict[str, UUID], list[Notice]]:
    """Each handle's one fact among ``found`` (prefix, id); a notice for each that names none,
    several, or is no fact handle."""
    by_prefix: dict[str, list[UUID]] = {}
    for prefix, rel_id in found:
        by_prefix.setdefault(prefix, []).append(rel_id)
    out: dict[str, UUID] = {}
    notes = []
    for ref in refs:
        handle = parse_handle(ref.text)
        rows = by_prefix.get(handle.prefix, []) if handle and handle.kind == "fact" else []
        if len(rows) == 1:
            out[ref.text] = rows[0]
            continue
        why = (
            "is not a fact handle (F and six hex digits)"
            if handle is None or handle.kind != "fact"
            else "names several facts"
            if rows
            else "names none of this user's current facts"
        )
        code = "handle_ambiguous" if len(rows) > 1 else "handle_not_found"
        notes.append(Notice(code=code, detail=f"{ref.path}: {ref.text!r} {why}; ignored"))
    return out, notes


async def supersede(conn: Connection, plan: TurnPlan) -> Superseding:
    """The plan's handles resolved, and the facts it ``ends`` ended (before its facts are
    written, so a new fact of the same key takes the key from an ended one)."""
    replaces, ends = handle_refs(plan)
    if not replaces and not ends:
        return Superseding()
    req, now = plan.turn.req, plan.turn.now
    prefixes = [h.prefix for r in (*replaces, *ends) if (h := parse_handle(r.text)) is not None]
    found = [
        (r["prefix"], r["rel_id"])
        for r in await conn.fetch(CANDIDATES, req.user_id, req.agent_id, prefixes)
    ]
    targets, notes = pick(replaces, found)
    ending, more = pick(ends, found)
    out = Superseding(targets, [], notes + more)
    if ending:
        rows = await conn.fetch(END, req.user_id, list(dict.fromkeys(ending.values())), now)
        out.ended = [
            FactWritten(
                fact_id=str(r["rel_id"]),
                text=r["text"],
                predicate=r["predicate"],
                memory_type=r["memory_type"],
                scope=cast(Scope, r["scope"]),
                memory_key=r["memory_key"],
                outcome="ended",
                valid_from=cast(datetime | None, r["valid_from"]),
                valid_to=r["valid_to"],
            )
            for r in rows
        ]
    return out
