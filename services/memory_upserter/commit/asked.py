"""What the person asked of memory in their own words this turn, at commit: facts ended by
words, and the notice of a forget they asked for.

**Ends by words.** The judge cannot see stored facts, so it cannot name a handle for "that's
wrong, I'm only allergic to peanuts". It writes the words instead, as an ``ends`` entry:
``"<PREDICATE> <words>"`` ends the person's live fact of that predicate whose value (or object's
name) is the words; ``"<PREDICATE> except <words>"`` (words joined by `` | ``) ends every other
live fact of that predicate ("only …"); ``"<PREDICATE> *"`` ends every one ("i lost my job",
:mod:`.ending`); ``"<PREDICATE> naming <words>"`` every one whose
text names the words (a job title "nurse at Hospital São João" when that job ends), and
``… until <ISO>`` ends them then. A handle (``F3a9c1b``) never has that shape, so both
live in ``ends``: :func:`resolve_ends` reads the person's live facts (outside the transaction,
before the plan is decided), turns each matched one into the same fact with ``valid_to`` =
the turn — which the store ends, kept as history (``memory_store.facts``) — and leaves only the
handles in ``ends``. Only the judge's own plans, and the ends a model's plan gets from the
person's words (:mod:`.ending`), are read so; a notice names each fact ended, or says the words
matched none.

**Forget.** A forget the person asked for is soft (restorable until purged); the answer names
what it reached (:func:`forget_notice`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

import msgspec

from contracts.memory import Notice
from contracts.plan import MemoryWritePlan, PlanEntity, PlanFact
from services.core.handles import handle_of
from services.core.memory_store.visibility import visible
from services.memory_upserter.text import fold

if TYPE_CHECKING:  # the statements run on the caller's connection; importing stays pure
    from services.core.deps import Connection

_WORDS = re.compile(
    r"^(?P<predicate>[A-Z][A-Z0-9_]*)\s+(?:(?P<except>except)\s+|(?P<naming>naming)\s+)?"
    r"(?P<words>\S.*?)(?:\s+until\s+(?P<until>\d{4}-\d\d-\d\dT\S+))?$"
)

LIVE = f"""
SELECT r.rel_id, r.predicate, r.memory_type, r.fact_type, r.scope, r.text,
       r.object_value #>> '{{}}' AS value, o.name AS object, o.category
  FROM relations r
  JOIN entities s ON s.user_id = r.user_id AND s.entity_id = r.subject_id
  LEFT JOIN entities o ON o.user_id = r.user_id AND o.entity_id = r.object_id
 WHERE r.user_id = $1 AND s.entity_ref = 'self:user' AND r.status = 'ACTIVE'
   AND r.predicate = ANY($2::text[]) AND (r.valid_to IS NULL OR r.valid_to > $3)
   AND {visible("r", "$4")}
"""


@dataclass(frozen=True)
class Words:
    """One ``ends`` entry in words: end the fact(s) of ``predicate`` that are (or, with
    ``others``, are not) ``values``."""

    predicate: str
    values: tuple[str, ...]
    others: bool
    naming: bool = False  # "JOB_TITLE naming Acme": the fact's text names the words
    until: str | None = None  # when it ends ("… until <ISO>"), else the turn

    def ends(self, said: str, text: str = "") -> bool:
        if self.values == ("*",):  # "WORKS_AT *": every live one
            return not self.others
        if self.naming:
            return any(re.search(rf"\b{re.escape(fold(v))}\b", fold(text)) for v in self.values)
        named = fold(said) in {fold(v) for v in self.values}
        return named != self.others


def words_of(entry: str) -> Words | None:
    """ "ALLERGY except peanuts" → the words it ends; None for a handle or anything else."""
    m = _WORDS.match(entry.strip())
    if m is None:
        return None
    values = tuple(v.strip() for v in m["words"].split("|") if v.strip())
    if not values:
        return None
    return Words(m["predicate"], values, bool(m["except"]), bool(m["naming"]), m["until"])


async def resolve_ends(
    conn: Connection,
    user_id: str,
    agent_id: str,
    plan: MemoryWritePlan,
    now: datetime,
    *,
    as_handles: bool = False,
) -> tuple[MemoryWritePlan, list[Notice]]:
    """The plan with its ``ends`` in words turned into ended facts (handles stay in ``ends``),
    and a notice of what they ended. ``as_handles``: the matched facts' handles join ``ends``
    instead — for a model's plan, whose facts must be the person's words (``commit.plan``
    drops a fact whose value they did not say, as "shellfish" in "only peanuts")."""
    asked = [(entry, words_of(entry)) for entry in plan.ends]
    words = [w for _, w in asked if w is not None]
    if not words:
        return plan, []
    rows = await conn.fetch(LIVE, user_id, sorted({w.predicate for w in words}), now, agent_id)
    ended, notices = ended_facts(words, [dict(r) for r in rows], now)
    handles = [entry for entry, w in asked if w is None]
    if as_handles:  # ended now by handle; one ending later ("… until") as its restatement
        later = [f for f in ended if f.value is not None and f.valid_to != now.isoformat()]
        hit = {(f.predicate, f.object or f.value) for f in ended if f not in later}
        handles += [
            handle_of("fact", str(r["rel_id"]))
            for r in rows
            if (r["predicate"], r["object"] or r["value"]) in hit
        ]
        ends = list(dict.fromkeys(handles))[:20]
        return msgspec.structs.replace(plan, ends=ends, facts=[*plan.facts, *later][:50]), notices
    entities = [
        PlanEntity(name=r["object"], category=r["category"])
        for r in rows
        if r["object"] and any(f.object == r["object"] for f in ended)
    ]
    return msgspec.structs.replace(
        plan,
        entities=[*plan.entities, *entities],
        facts=[*plan.facts, *ended][:50],
        ends=handles,
    ), notices


def ended_facts(
    words: Sequence[Words], rows: Sequence[Mapping[str, object]], now: datetime
) -> tuple[list[PlanFact], list[Notice]]:
    """Each live fact (``rows``) the words end, as the fact ending at ``now`` (pure)."""
    facts: list[PlanFact] = []
    notices: list[Notice] = []
    for w in words:
        hits = [
            r
            for r in rows
            if r["predicate"] == w.predicate
            and w.ends(str(r["object"] or r["value"] or ""), str(r["text"]))
        ]
        for r in hits:
            facts.append(
                PlanFact(
                    memory_type=str(r["memory_type"]),  # type: ignore[arg-type]  # the table's check
                    predicate=w.predicate,
                    object=str(r["object"]) if r["object"] else None,
                    value=None if r["object"] else str(r["value"]),
                    text=str(r["text"]),
                    fact_type=str(r["fact_type"]),  # type: ignore[arg-type]
                    scope=str(r["scope"]),  # type: ignore[arg-type]
                    valid_to=w.until or now.isoformat(),
                )
            )
        said = " or ".join(repr(v) for v in w.values)
        detail = (
            "ended as the person said: " + "; ".join(repr(str(r["text"])) for r in hits)
            if hits
            else f"the person ended {w.predicate} {'other than ' if w.others else ''}{said}, "
            "but no current fact matched"
        )
        notices.append(Notice(code="fact_ended_by_words", detail=detail))
    return facts, notices


def reached_before(
    targets: Sequence[str], counts: Mapping[str, int], said: Sequence[str]
) -> dict[str, int]:
    """What a forget asked in conversation reached of what was stored before this turn: the
    request's own messages (``said``), which name the target too, are not counted."""
    own = sum(any(fold(t) in fold(text) for t in targets) for text in said)
    return {**counts, "messages": max(0, counts.get("messages", 0) - own)}


def forget_notice(
    targets: Sequence[str], counts: Mapping[str, int], said: Sequence[str] = ()
) -> Notice:
    """What a forget the person asked for in conversation reached (soft: restorable); the
    request's own message (``said``: this turn's user messages), which names the target too, is
    told apart from what was stored before."""
    own = sum(any(fold(t) in fold(text) for t in targets) for text in said)
    before = reached_before(targets, counts, said)
    named = ", ".join(repr(t) for t in targets)
    reached = ", ".join(f"{n} {kind}" for kind, n in sorted(before.items()) if n)
    detail = (
        f"forgot {named} as the person asked (soft forget, restorable until purged): {reached}"
        if reached
        else f"the person asked to forget {named}, but nothing stored matched"
    )
    if own:
        detail += "; the request's own message is forgotten too"
    return Notice(code="plan_forget_applied", detail=detail)
