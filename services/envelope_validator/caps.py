"""The caps of 001/004 and the cuts that enforce them, each named in a warning (pure).

Lists keep their first N (the producer's ranking), texts keep their head and end with "…";
repeats (same id, or same normalized text) are dropped.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

import msgspec

from contracts.envelope_io import EnvelopeWarning, WarningCode
from contracts.slots import UNVERIFIED_BELOW, EntityCard, FactLine, Turn

T = TypeVar("T")
_WORDS = re.compile(r"\w+")

# List caps (001/004, 003 §6.3-6.4). Over a cap: the first N are kept, with a warning.
CAPS = {
    "foundation": 12,
    "relevant_facts": 8,
    "card_facts": 3,
    "commitments": 5,
    "threads": 3,
    "frictions": 3,
    "wins": 3,
    "edges": 60,
    "episodes": 8,
    "knowledge": 8,
    "recent_turns": 10,
    "recalled_turns": 20,
}
# Text caps in characters (001/004). Over a cap: the head is kept and ends with "…".
TEXT_CAPS = {
    "user_context": 800,
    "conversation_summary": 1200,
    "latest_session_summary": 600,
    "turn": 800,
}
PROMPT_WARN_CHARS = 20_000  # 004: warn past this, never cut
MEMORY_TYPES = frozenset({"PROFILE", "PEOPLE", "PROJECT"})  # 001 invariant


class Warnings(list[EnvelopeWarning]):
    def add(self, code: WarningCode, section: str, detail: str) -> None:
        self.append(EnvelopeWarning(code=code, section=section, detail=detail))


def normalize(text: str) -> str:
    """Case, accents, punctuation and spacing folded: 'Loves  Café!' == 'loves cafe'."""
    folded = text.casefold()
    if not folded.isascii():
        folded = unicodedata.normalize("NFKD", folded)
        folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return " ".join(_WORDS.findall(folded))


def repeats(
    items: Sequence[T],
    key: Callable[[T], Hashable],
    section: str,
    w: Warnings,
    seen: set[Hashable] | None = None,
) -> list[T]:
    """Drop later items whose id was already seen (``check`` refused differing content)."""
    seen = set() if seen is None else seen
    kept, dropped = [], []
    for item in items:
        k = key(item)
        if k in seen:
            dropped.append(k)
        else:
            seen.add(k)
            kept.append(item)
    if dropped:
        w.add(
            "deduplicated",
            section,
            f"dropped {len(dropped)} repeated item(s): " + ", ".join(map(str, dropped)),
        )
    return kept


def same_text(
    items: list[T],
    section: str,
    w: Warnings,
    text: Callable[[T], str],
    seen: set[str] | None = None,
    against: str = "",
) -> list[T]:
    seen = set() if seen is None else set(seen)
    kept, dropped = [], 0
    for item in items:
        norm = normalize(text(item))
        if norm in seen:
            dropped += 1
        else:
            seen.add(norm)
            kept.append(item)
    if dropped:
        where = f" (also in {against} or repeated)" if against else ""
        w.add("deduplicated", section, f"dropped {dropped} item(s) with the same text{where}")
    return kept


def memory_types(facts: list[FactLine], section: str, w: Warnings) -> list[FactLine]:
    kept = [f for f in facts if f.memory_type in MEMORY_TYPES]
    if len(kept) < len(facts):
        others = sorted({f.memory_type for f in facts} - MEMORY_TYPES)
        w.add(
            "filtered",
            section,
            f"dropped {len(facts) - len(kept)} fact(s) of type "
            f"{', '.join(others)}: the prompt carries PROFILE/PEOPLE/PROJECT only",
        )
    return kept


def unverified(facts: list[FactLine], w: Warnings) -> tuple[list[FactLine], list[FactLine]]:
    """The foundation split into what stays and what is under :data:`UNVERIFIED_BELOW`: the
    latter is no foundation; it joins the relevant facts, shown as unverified."""
    kept = [f for f in facts if f.confidence >= UNVERIFIED_BELOW]
    if len(kept) == len(facts):
        return facts, []
    w.add(
        "filtered",
        "GRAPH.foundation",
        f"moved {len(facts) - len(kept)} fact(s) under confidence {UNVERIFIED_BELOW} to the "
        "relevant memories, as unverified",
    )
    return kept, [f for f in facts if f.confidence < UNVERIFIED_BELOW]


def cap(items: list[T], cap_name: str, section: str, w: Warnings) -> list[T]:
    cap = CAPS[cap_name]
    if len(items) > cap:
        w.add(
            "capped",
            section,
            f"{len(items)} items over the cap of {cap}: kept the first "
            f"{cap}, dropped {len(items) - cap}",
        )
    return items[:cap]


def card(card: EntityCard, w: Warnings) -> EntityCard:
    cap = CAPS["card_facts"]
    if len(card.facts) <= cap:
        return card
    w.add(
        "capped",
        "GRAPH.entity_cards",
        f"card {card.entity_ref!r} has {len(card.facts)} "
        f"facts over the cap of {cap}: kept the first {cap}",
    )
    return msgspec.structs.replace(card, facts=card.facts[:cap], fact_ids=card.fact_ids[:cap])


def turns(turns: list[Turn], section: str, w: Warnings) -> list[Turn]:
    """Replayable history: user/assistant turns only, the last 10, each cut to 800 chars."""
    kept = [t for t in turns if t.role != "system"]
    if len(kept) < len(turns):
        w.add(
            "filtered",
            section,
            f"dropped {len(turns) - len(kept)} system turn(s): stored "
            "text is never replayed with the system role",
        )
    last = CAPS["recent_turns"]
    if len(kept) > last:
        w.add(
            "capped",
            section,
            f"{len(kept)} turns over the cap of {last}: kept the last "
            f"{last}, dropped the {len(kept) - last} oldest",
        )
        kept = kept[-last:]
    cap = TEXT_CAPS["turn"]
    cut = [i for i, t in enumerate(kept) if len(t.text) > cap]
    if cut:
        w.add(
            "truncated",
            section,
            f"{len(cut)} turn(s) cut to {cap} characters "
            f"(positions {', '.join(map(str, cut))} of the replayed turns)",
        )
        kept = [
            msgspec.structs.replace(t, text=head(t.text, cap)) if len(t.text) > cap else t
            for t in kept
        ]
    return kept


def clip(text: str, cap_name: str, w: Warnings) -> str:
    cap = TEXT_CAPS[cap_name]
    if len(text) <= cap:
        return text
    w.add("truncated", cap_name, f"{len(text)} characters cut to {cap}")
    return head(text, cap)


def head(text: str, cap: int) -> str:
    return text[: cap - 1].rstrip() + "…"


def fact_id(fact: FactLine) -> str:
    return fact.fact_id


def fact_text(fact: FactLine) -> str:
    return fact.text
