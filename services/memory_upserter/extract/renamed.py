"""A known person's name corrected in the person's own words (pure): "her name is ana not
anna", "its spelled anna, not ana", "sorry its martha not marta". The old spelling must be the
name (or first name) of exactly one person the user knows and the new one a spelling of it
(close letters, not another word: "not lisbon, porto" renames nobody). What the commit does
with it: the person's name is the new spelling, the old one kept as an alias, the facts that
named them say it; no fact is written (:mod:`..commit.entities`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

import msgspec

from contracts.plan import MemoryWritePlan
from services.memory_upserter.extract.people import Known
from services.memory_upserter.text import fold

_WORD = r"[a-z][a-z'-]{1,30}"
_CORRECTED = (
    re.compile(
        rf"\b(?:(?:her|his|their)\s+name\s+is|it'?s\s+(?:spelled|spelt|written)|"
        rf"(?:spelled|spelt)|it'?s|its)\s+(?P<new>{_WORD})\s*,?\s+not\s+(?P<old>{_WORD})\b"
    ),
    re.compile(rf"\bnot\s+(?P<old>{_WORD})\s*,\s*(?:it'?s\s+|its\s+)(?P<new>{_WORD})\b"),
)
SPELLING = 0.6  # how alike two spellings of one name are, at least (difflib's ratio)


def renamed(said: Sequence[str], known: Sequence[Known]) -> list[tuple[Known, str]]:
    """Each known person whose name the words correct, with the name corrected (the old
    spelling's word replaced: "Marta Silva" → "Martha Silva")."""
    out: dict[str, tuple[Known, str]] = {}
    for match in (m for text in said for p in _CORRECTED for m in p.finditer(fold(text))):
        old, new = match["old"], match["new"]
        if old == new or SequenceMatcher(None, old, new).ratio() < SPELLING:
            continue
        named = [k for k in known if k.category == "Person" and old in fold(k.name).split()]
        if len(named) != 1:
            continue
        words = [new.capitalize() if fold(w) == old else w for w in named[0].name.split()]
        out[named[0].entity_ref] = (named[0], " ".join(words))
    return list(out.values())


def without_renamed(plan: MemoryWritePlan, found: Sequence[tuple[Known, str]]) -> MemoryWritePlan:
    """The plan without what it read into the correction: a fact or an entity naming a renamed
    person ("sorry its joanna not joana" is no "Joana is the user's sister" said again)."""
    names = {fold(n) for k, new in found for n in (k.name, k.entity_ref, new, *k.name.split())}
    names |= {fold(w) for _, new in found for w in new.split()}

    def names_one(*handles: str | None) -> bool:
        return any(h is not None and fold(h) in names for h in handles)

    return msgspec.structs.replace(
        plan,
        facts=[f for f in plan.facts if not names_one(f.subject, f.object, f.value)],
        entities=[e for e in plan.entities if not names_one(e.name)],
    )
