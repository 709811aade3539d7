"""Whether what a fact claims the person *is* or *does* now stands on how they said it (pure;
one call from :mod:`.claims`: :func:`unstanding`).

- **The past as present** (:data:`PAST`): "i used to have a dog back in michigan" is no "User
  lives in Michigan", "he used to make me these cute notes when we were kids" no "User's
  brother writes her cute notes". A fact stated in the present whose words this turn sit only
  in clauses about the past is dropped (not a start that lasts: "started guitar five years
  ago"); one that says the past ("used to", "grew up", "was", an ended fact) is what was said.
- **A jest or a self-assessment as who they are**: an identity ("User is an expert hiker")
  with a word said only under a hedge ("I think I am an expert hiker now") is hedged.
- **An identity the person never named**: "User is a film director" from "filming my own
  movie" — the identity's head word ("director"), said in no form nor family, drops it.
- **A number dressed as a claim**: "User has a family of 5" from "dinner for 5" — a fact whose
  value is only a number while no word of its claim was said is dropped; an age said as "im
  63" or "turned 40" is said (a bare number after "I'm" is an age).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from contracts.plan import PlanFact
from services.memory_upserter.commit import grounding as g
from services.memory_upserter.commit import whose
from services.memory_upserter.text import STOP_WORDS, words

Verdict = tuple[str, str]

PAST = re.compile(
    r"(?i)\b(?:used\s+to|use\s+to|back\s+(?:in|when|then|home\s+in)|when\s+(?:i|we|he|she|they)\s+"
    r"(?:was|were)|as\s+(?:a\s+)?(?:kids?|child|teen\w*)|growing\s+up|years\s+ago|"
    r"in\s+the\s+old\s+days|formerly|previously)\b"
)
# a fact that says the past itself, or is ended
_PAST_FACT = re.compile(
    r"(?i)\b(?:used\s+to|was|were|had|did|grew\s+up|former\w*|previous\w*|ex|past|childhood|"
    r"kids?|child|ago|no\s+longer|anymore|not|never|once)\b|\b[a-z]{3,}ed\b"
)
# a start that lasts: "started playing guitar five years ago" is still so
_BEGUN = re.compile(r"(?i)\b(?:start\w*|began|begun|took\s+up|picked\s+up|since|ever\s+since)\b")
# a fact that claims an age: "User is 63 years old", "User's age is 23"
_AGE_CLAIM = re.compile(r"(?i)\b(?:years?\s+old|age|aged)\b")
IDENTITY = re.compile(r"(?i)^\s*(?:the\s+)?user\s+(?:is|was|works\s+as)\s+(?:a|an)\s+")


def unstanding(
    fact: PlanFact,
    supported: Sequence[str],
    claim: Sequence[str],
    clauses: whose.Clauses,
    said_word: whose.SaidWord,
    bag: frozenset[str],
) -> Verdict | None:
    """The verdict when the fact's claim does not stand on how it was said (module
    docstring); None when it does."""
    if (past := _past_only(fact, supported, clauses, said_word)) is not None:
        return "dropped", f"said of the past: {past[:120]!r}"
    if IDENTITY.match(fact.text):
        head = _identity(fact)
        if (jest := _hedged_word(fact, head, clauses, said_word)) is not None:
            return "hedged", f"a self-assessment, hedged: {jest[:120]!r}"
        if head and not said_word(head[-1], bag):
            return "dropped", f"the person never named themselves a {head[-1]}"
    target = (g.target_of(fact) or "").strip()
    if target.isdigit() and claim and not any(said_word(w, bag) for w in claim):
        if not (_AGE_CLAIM.search(fact.text) and _age_said(target, clauses)):
            return "dropped", f"only the number was said, not {' '.join(claim)!r}"
    return None


def _age_said(number: str, clauses: whose.Clauses) -> bool:
    """ "im 63", "i'm 23 btw", "turned 40 last week": a bare number after "I'm" is an age."""
    said = re.compile(rf"(?i)\b(?:i'?m|i\s+am|turn(?:ed|ing|s)?)\s+(?:now\s+|only\s+)?{number}\b")
    return any(said.search(c) for m in clauses for c, _ in m)


def _past_only(
    fact: PlanFact, supported: Sequence[str], clauses: whose.Clauses, said_word: whose.SaidWord
) -> str | None:
    if fact.valid_to or not supported or _PAST_FACT.search(fact.text):
        return None
    naming = [c for m in clauses for c, bag in m if any(said_word(w, bag) for w in supported)]
    past = [c for c in naming if PAST.search(c) and not _BEGUN.search(c)]
    return naming[0] if naming and len(past) == len(naming) else None


def _identity(fact: PlanFact) -> list[str]:
    """The identity's words: "User is an expert hiker at…" → ["expert", "hiker"]."""
    rest = fact.text[IDENTITY.match(fact.text).end() :]  # type: ignore[union-attr]
    span = re.split(r"(?i)\b(?:at|in|on|for|with|to|from|by|of|who|and|but|since)\b|[,.;]", rest)
    return [g.norm(w) for w in words(span[0]) if w not in STOP_WORDS]


def _hedged_word(
    fact: PlanFact, head: Sequence[str], clauses: whose.Clauses, said_word: whose.SaidWord
) -> str | None:
    """A clause hedging a word of the identity said nowhere else firmly."""
    own = frozenset(words(fact.text))
    for w in head:
        naming = [c for m in clauses for c, bag in m if said_word(w, bag)]
        if naming and all(whose.hedge_in(c, own, True) for c in naming):
            return naming[0]
    return None
