"""A plan fact whose text is the person's own words copied, read as the claim it makes about
them (pure; one call from :func:`.plan.weigh`).

[ANSWER FORMAT] asks for facts in the third person ("User lives in Porto"). A small model that
did not read it copies the message instead: "i live in levenshulme", "im vegetarian", but also
"i think i might do the goethe b1 exam in february" and "my german is basically native now".
The checks that weigh a claim — whose it is, how firmly it was said, whether it lasts — read
"User …" texts, and a hedge the copy carries ("i think") even reads as the claim's own ("User's
dream job is…" states its hedge). So a copy is weighed as the claim it makes, its first-person
words the person's ("i think i might do…" → "User think User might do…": the hedge is the
person's, not the fact's). The fact is stored as the model wrote it. A copy with no first-person
word ("ran 8k before work this morning") is not told from a statement: a lower-case copy opens
as often on someone's name ("lina starts daycare next monday") as on a verb.
"""

from __future__ import annotations

import re

import msgspec

from contracts.plan import PlanFact

# the person's first-person words, each as "User" says it (quotes aside: someone's words)
_FIRST_PERSON = {
    "i'm": "User is", "i’m": "User is", "im": "User is", "i've": "User has", "i’ve": "User has",
    "ive": "User has", "i'd": "User would", "i’d": "User would", "i'll": "User will",
    "i’ll": "User will", "i": "User", "me": "User", "myself": "User", "my": "User's",
    "mine": "User's",
}  # fmt: skip
_FIRST = re.compile(
    rf"(?i)(?<![\w'’])(?:{'|'.join(sorted(map(re.escape, _FIRST_PERSON), key=len)[::-1])})"
    r"(?![\w'’])"
)
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")


def as_claim(fact: PlanFact) -> PlanFact:
    """The fact as the claim its text makes of the person (module docstring); a fact written
    as a statement, as it is."""
    if not _FIRST.search(_QUOTED.sub(" ", fact.text)):
        return fact
    claim = _FIRST.sub(lambda m: _FIRST_PERSON[m[0].lower()], fact.text.strip())
    return msgspec.structs.replace(fact, text=claim)
