"""The person's own words that end a state, read for a model's plan (pure).

A model often writes the new state and forgets the old one: "i lost my job" becomes
``JOB_STATUS unemployed`` while ``works at Medly`` stays current. So the commit reads the
person's words too: a job lost, quit or left ("i lost my job", "got laid off", "i quit my job")
ends the job (``WORKS_AT``, ``JOB_TITLE``), a move out ("we moved out", "i moved out of my
parents' place") ends the home (``LIVES_IN``) — as ``ends`` in words (:mod:`.asked`), resolved
against the person's live facts. Not when the sentence asks or supposes ("should i quit my
job?", "what if i lost my job", "i might have lost my job"), nor for what the plan keeps: the
plan's own fact of that predicate (the new job it names) is excepted, and a predicate the plan
already ends itself (a fact with ``valid_to``) is left to the plan.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from contracts.plan import PlanFact
from services.core.memory_store.keys import canonical_predicate
from services.memory_upserter.commit.spoken import HEDGE
from services.memory_upserter.text import SENTENCES

# the person as the subject, said or left out at the start of a clause ("got laid off")
_I = (
    r"(?:\b(?:i|we)(?:'ve|\s+have)?\s+|^\W*|[,;:]\s*)"
    r"(?:just\s+|finally\s+|recently\s+|actually\s+)?"
)
ENDINGS = (
    (
        re.compile(
            rf"(?i){_I}(?:lost\s+my\s+job|quit\s+my\s+job|left\s+my\s+job|"
            r"(?:got|been|was)\s+(?:laid\s+off|fired|sacked|let\s+go))\b"
        ),
        ("WORKS_AT", "JOB_TITLE"),
    ),
    (re.compile(rf"(?i){_I}moved\s+out\b"), ("LIVES_IN",)),
)
# A word every ending says: a message without one needs no reading (and no call)
CUE = re.compile(r"(?i)\b(?:lost|quit|left|laid|fired|sacked|let\s+go|moved\s+out)\b")
# "should i quit my job?", "what if i lost my job": asked or supposed, not said to be so
_NOT_SO = re.compile(
    r"(?i)\b(?:should|could|would|can|will|shall|do|does|did|if|when|whether|unless|before|"
    r"afraid|scared|worried|might|may)\W*$"
)


def _says(pattern: re.Pattern[str], sentence: str) -> bool:
    """The sentence says it happened: no question, no hedge, nothing before it that asks or
    supposes."""
    if "?" in sentence or HEDGE.search(sentence):
        return False
    return any(not _NOT_SO.search(sentence[: m.start()]) for m in pattern.finditer(sentence))


def ends_said(said: Sequence[str], facts: Sequence[PlanFact]) -> list[str]:
    """The ``ends`` in words the person's messages ask for (module docstring): ``"WORKS_AT *"``
    (every live one) or ``"WORKS_AT except Medly"`` (all but the plan's new one)."""
    sentences = [s for text in said for s in SENTENCES.split(text)]
    predicates = [
        predicate
        for pattern, ended in ENDINGS
        if any(_says(pattern, s) for s in sentences)
        for predicate in ended
    ]
    out = []
    for predicate in dict.fromkeys(predicates):
        own = [f for f in facts if canonical_predicate(f.predicate) == predicate]
        if any(f.valid_to for f in own):
            continue
        kept = [str(f.object or f.value) for f in own if f.object or f.value]
        out.append(f"{predicate} except {' | '.join(kept)}" if kept else f"{predicate} *")
    return out


def tied_titles(facts: Sequence[PlanFact]) -> list[str]:
    """A job the plan ends (a ``WORKS_AT`` fact with ``valid_to``: "Ana leaves São João") ends
    the person's live job title stated at it too ("Ana is a nurse at Hospital São João"), then
    — as ``ends`` in words: ``"JOB_TITLE naming São João until <ISO>"``; not when the plan
    states a title of its own (that one supersedes the old)."""
    if any(
        canonical_predicate(f.predicate, literal=f.object is None) == "JOB_TITLE" for f in facts
    ):
        return []
    return [
        f"JOB_TITLE naming {f.object or f.value} until {f.valid_to}"
        for f in facts
        if f.valid_to
        and (f.object or f.value)
        and f.subject.casefold() in ("user", "me", "i")
        and canonical_predicate(f.predicate, literal=f.object is None) == "WORKS_AT"
    ]
