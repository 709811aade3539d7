"""A stay is not a home (pure): "in lisbon for work till sunday" must not end "lives in Malmö".

A model writes where the person is now with a location predicate (``currentLocation``,
``current_city``, ``location``) that the predicate vocabulary reads as LIVES_IN — one memory
key, so the stay superseded the home, and the home was gone once the stay ended. A LIVES_IN
fact is read as a stay (``staying_in``, a key of its own) when its words say no home (live,
home, moved, based…) and either it ends in the future or its words say a stay (for work, a
visit, a trip, a conference, a holiday). "User lives in Porto until March" stays a home."""

from __future__ import annotations

import re
from datetime import datetime

import msgspec

from contracts.memory import Notice
from contracts.plan import MemoryWritePlan, PlanFact
from services.core.memory_store.keys import canonical_predicate

_HOME = re.compile(
    r"(?i)\b(?:live[sd]?|living|home|house|flat|apartment|moved|moving|move|relocat\w*|"
    r"resid\w*|based|settled|hometown)\b"
)
_STAY = re.compile(
    r"(?i)\b(?:for\s+(?:work|business|a\s+\w+)|visit\w*|trip|travel\w*|conference|holiday|"
    r"vacation|staying|stays|hotel)\b"
)


def _is_stay(fact: PlanFact, now: datetime) -> bool:
    if canonical_predicate(fact.predicate, literal=fact.value is not None) != "LIVES_IN":
        return False
    if _HOME.search(fact.text):
        return False
    ends_later = fact.valid_to is not None and datetime.fromisoformat(fact.valid_to) > now
    return ends_later or bool(_STAY.search(fact.text))


def stays(plan: MemoryWritePlan, path: str, now: datetime) -> tuple[MemoryWritePlan, list[Notice]]:
    """The plan, each stay written as a home read as ``staying_in`` (with a notice)."""
    facts, notes = [], []
    for i, fact in enumerate(plan.facts):
        if _is_stay(fact, now):
            notes.append(
                Notice(
                    code="plan_repaired",
                    detail=f"{path}.facts[{i}].predicate: {fact.predicate!r} read as "
                    "'staying_in': a stay, not a home",
                )
            )
            fact = msgspec.structs.replace(fact, predicate="staying_in")
        facts.append(fact)
    return msgspec.structs.replace(plan, facts=facts), notes
