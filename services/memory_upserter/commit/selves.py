"""A fact a model wrote of the person by their own name ("Yara likes dinosaurs", subject
``yara``), read as one of the person ("User likes dinosaurs") so that what it claims of them is
weighed like any "User …" fact (pure; one call from :mod:`.grounding`: :func:`as_person`).

A subject is the person's name when the person goes by it (a stored name, or an introduction
in their words: "im yara", "dario here", "my name is ana"), or when the person never said it at
all in their recent words while the fact names it first: a model does not invent a third
person, it names the one it talks to (someone named sessions ago is said again when spoken of).
A fact of the person's that names no subject at all ("Leaving for a job in Munich", "Works at
Acme": a small model's shorthand) is read as "User …" too.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import msgspec

from contracts.plan import PlanFact
from services.memory_upserter.commit import grounding as g
from services.memory_upserter.commit.relatives import SELF_HANDLES
from services.memory_upserter.text import STOP_WORDS, fold, words

if TYPE_CHECKING:
    from services.memory_upserter.commit.grounding import Said

# "im yara", "i'm yara", "my name is ana", "call me sam", "it's sam here", "dario here"
INTRODUCED = re.compile(
    r"(?i)\b(?:i['’]?m|i\s+am|my\s+name['’]?s|my\s+name\s+is|call\s+me|this\s+is)\s+([a-z]+)\b|"
    r"\b([a-z]+)\s+here\b"
)
_NAME = re.compile(r"[a-z][a-z'’-]*(?: [a-z][a-z'’-]*)?")


def introduced(texts: tuple[str, ...]) -> set[str]:
    """The names the person introduced themselves by in ``texts``."""
    return {fold(m[1] or m[2]) for text in texts for m in INTRODUCED.finditer(text)}


# a fact of the person's written with no subject: "Leaving for a job in Munich", "Works at Acme"
# (a verb first, never a name: "Mats got into…", "Nikos lives in…" name their subject)
_NO_SUBJECT = re.compile(
    r"^(?:[A-Z][a-z]+ing|Works|Lives|Loves|Likes|Enjoys|Hates|Has|Had|Is|Was|Got|Went|Plays|"
    r"Runs|Does|Did|Wants|Needs|Owns|Studies|Started|Moved|Quit)\s+[a-z]"
)


def as_person(fact: PlanFact, said: Said) -> PlanFact:
    """The fact with the person's own name as its subject read as "User" (module docstring),
    and one of the person's that names no subject ("Leaving for a job in Munich") read as
    "User leaving…", so that whose the claim is is weighed; any other fact as it is."""
    subject = fold(fact.subject).strip()
    if subject in SELF_HANDLES and _NO_SUBJECT.match(fact.text.strip()):
        return msgspec.structs.replace(fact, text=f"User {fact.text.strip()}")
    if subject in SELF_HANDLES or not _NAME.fullmatch(subject) or subject in STOP_WORDS:
        return fact
    own = re.compile(rf"(?i)\b{re.escape(subject)}\b")
    if not own.match(fact.text.strip()) and not own.search(fact.text):
        return fact
    texts = (*said.this_turn, *said.earlier)
    names = {fold(n) for n in said.selves} | introduced(texts)
    unsaid = not any(g.said_in(w, said.bag) for w in words(subject))
    if subject not in names and not (unsaid and own.match(fact.text.strip())):
        return fact
    return msgspec.structs.replace(fact, subject="user", text=own.sub("User", fact.text))
