"""A relative stated as a plain value, read as the relation it is (pure).

A small model writes the person's sister as ``{"predicate": "sister", "value": "Joana"}`` or
``{"predicate": "girlfriend", "value": "Ines"}``: a text, linked to nobody, so "my sister"
never finds Joana and a second sister is never told apart. A fact about the person whose
predicate is a relation word (:data:`contracts.relations.ROLES`: sister, gf, best friend, dog…,
with or without ``HAS_``) and whose value is a name becomes that relation with the name as its
object — ``HAS_SISTER`` → Joana — so the name is resolved like any entity the plan names (a
known Joana is found again; a new one is a Person, a dog's name a Pet). A value that is no
name ("a nurse", "2", "engaged") is left as it is.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from contracts.memory import Notice
from contracts.plan import PlanFact
from contracts.relations import ROLES
from services.core.memory_store.keys import canonical_predicate
from services.memory_upserter.commit.read import SELF_HANDLES
from services.memory_upserter.text import STOP_WORDS, fold

_WORDS = {word.replace(" ", "_").replace("-", "_").upper(): word for word in ROLES}
_SHORT = {
    "GF": "girlfriend", "BF": "boyfriend", "BFF": "best friend", "BESTIE": "best friend",
    "SIS": "sister", "BRO": "brother", "WIFEY": "wife", "HUBBY": "husband",
}  # fmt: skip
_NAME_WORD = re.compile(r"[A-ZÀ-Ý][\w'’-]*")
_NOT_NAMES = frozenset("none unknown yes no engaged married single divorced deceased".split())


def relation_of(predicate: str) -> str | None:
    """The relation predicate a relation word names (``sister`` → HAS_SISTER, ``dog`` →
    HAS_DOG), or None."""
    upper = canonical_predicate(predicate).removeprefix("HAS_").removeprefix("MY_")
    word = _WORDS.get(upper) or _SHORT.get(upper)
    if word is None:
        return None
    label = ROLES[word]
    return f"HAS_{word.upper()}" if label == "PET" else f"HAS_{label}"


def is_name(value: str, text: str) -> bool:
    """A person's or pet's name: one to three words, each capitalised (in the value or as the
    fact's text writes it), none a common word."""
    parts = value.split()
    if not 1 <= len(parts) <= 3 or fold(value) in _NOT_NAMES:
        return False
    if any(fold(p) in STOP_WORDS or not p[:1].isalpha() for p in parts):
        return False
    shown = [p if _NAME_WORD.fullmatch(p) else _as_written(p, text) for p in parts]
    return all(s is not None and _NAME_WORD.fullmatch(s) for s in shown)


def _as_written(word: str, text: str) -> str | None:
    found = re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.IGNORECASE)
    return found[0] if found else None


def linked_relatives(facts: Sequence[PlanFact]) -> tuple[list[PlanFact], list[Notice]]:
    """The facts with each relative stated as a plain value made the relation to that name
    (module docstring), and a ``plan_repaired`` notice for each."""
    out: list[PlanFact] = []
    notes: list[Notice] = []
    for i, fact in enumerate(facts):
        relation = relation_of(fact.predicate) if fact.object is None else None
        value = (fact.value or "").strip()
        if (
            relation is None
            or fold(fact.subject).strip() not in SELF_HANDLES
            or not is_name(value, fact.text)
        ):
            out.append(fact)
            continue
        name = " ".join(p[:1].upper() + p[1:] for p in value.split())
        out.append(msgspec.structs.replace(fact, predicate=relation, object=name, value=None))
        notes.append(
            Notice(
                code="plan_repaired",
                detail=f"facts[{i}]: {fact.predicate} {value!r} read as {relation} → {name}",
            )
        )
    return out, notes
