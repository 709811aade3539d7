"""Whether how the person said it supports what a plan fact claims, not only its words (pure; one
call from :mod:`.grounding`: :func:`unfounded`).

Word grounding reads a fact's value; a sloppy model builds an inference on a word the person
did say ("gym membership" → "User goes to the gym regularly"). So the fact's *claim* — its text
after "User", up to the first preposition (:func:`claim_words`: "does long runs", "is a single
parent", "is visiting") — and its kind are weighed too:

- **What only the assistant offered** is not the person's: a word of the fact the person never
  used that this turn's reply suggested ("Let's make Saturday your long run day" → "User does
  long runs on saturday") drops it when added to the person's own claim, else lowers it.
- **A hedge or a wish on the claim** (:func:`.whose.firmness` on the claim's words): "i think i
  might visit them in nov" is no "User is visiting arjun in november" though "my cousin arjun"
  was said firmly; "she wants me to do a dance" is no "User is doing a dance at priya's
  sangeet"; "it'll be tough as a single parent" is no "User is a single parent" (a future or
  wished state: :data:`.spoken.WISH`).
- **A relation to the person** ("Jonas Lind is the user's close friend") needs a word of that
  relation (:data:`.whose.RELATIONS`) in the person's words or live facts, or their framing of
  that someone ("lena from work", "i report to tomas": a colleague); framed another way ("my
  bf jonas", "jonas from work" is no friend) it is dropped, never framed it is lowered.
- **A habit or a frequency** ("regularly", ``habit``) needs the person's words of how often, and
  no one-off makes a habit or who they are (:mod:`.habits`).
- **More than was said** (:mod:`.strength`): a degree ("best friend" from "my buddy"), how much
  ("naps a lot"), a diet from a dish, someone else's thing only remarked on.
- **What is not** (:func:`negated`): "no gigs for me this week" is no "User goes to gigs".
- **A like** needs words of liking in a message naming the liked thing
  (:func:`.support.unsaid_claim`); an allergy said only where
  the person clears the thing ("nuts are fine") is none (:func:`cleared`).

Each verdict is weighed by the plan's shape (:func:`.grounding.weighed`): it drops a fact from a
plan that needed repair, and only lowers one from a plan in the schema's shape.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from contracts.plan import PlanFact
from services.core.when import MONTHS, WEEKDAYS
from services.memory_upserter.commit import grounding as g
from services.memory_upserter.commit import whose
from services.memory_upserter.commit.habits import habit_unsaid
from services.memory_upserter.commit.related import relation_unsaid
from services.memory_upserter.commit.spoken import CORRECTION
from services.memory_upserter.commit.standing import unstanding
from services.memory_upserter.commit.strength import overstated
from services.memory_upserter.commit.support import AUX, FILLER
from services.memory_upserter.text import STOP_WORDS, words

if TYPE_CHECKING:
    from services.memory_upserter.commit.grounding import Said

Verdict = tuple[Literal["dropped", "hedged", "lowered"], str]


# the claim ends at the first preposition, connective or punctuation after "User …"
_CLAIM_END = re.compile(
    r"(?i)\b(?:at|in|on|for|with|to|from|by|about|of|since|until|till|after|before|during|"
    r"because|and|but|or|while|when|who|which|that|as|than|into|over|via|per)\b|[,.;:!?()—–]"
)
# words that frame a claim rather than make it (its kind is weighed by its own rule: a wish,
# a liking, a refusal), never counted as only the assistant's
FRAMING = frozenset(
    """want wants wanted like likes liked love loves loved need needs plan plans planning
    hope hopes wish wishes not never no longer named called nicknamed aka""".split()
)


def claim_words(fact: PlanFact) -> list[str]:
    """The words of what the fact claims of the person: its text after "User" up to the first
    preposition, the fact's own value aside when more is left ("User is visiting arjun" →
    "visiting"); none for a fact not stated of the person."""
    found = whose.OF_PERSON.match(fact.text)
    if found is None:
        return []
    rest = fact.text[found.end() :]
    span = rest[: m.start()] if (m := _CLAIM_END.search(rest)) else rest
    said = [g.norm(w) for w in words(span) if w not in STOP_WORDS | AUX and w not in FILLER]
    target = {g.norm(w) for w in words(g.target_of(fact) or "")}
    return [w for w in said if w not in target] or said


def unfounded(
    fact: PlanFact,
    supported: Sequence[str],
    said: Said,
    bag: frozenset[str],
    clauses: whose.Clauses,
    said_word: whose.SaidWord,
    of_person: bool,
) -> Verdict | None:
    """The verdict when the fact's words or its claim are not the person's, firmly (module
    docstring; :func:`.whose.firmness` for its words), "lowered" for a word only the assistant
    said outside the claim; None when how they said it supports it. ``supported``: the fact's
    words the person said; ``bag``: every word they said."""
    if cleared(fact, supported, clauses, said_word):
        return "dropped", "the person said it is fine: no allergy or aversion"
    if (firm := whose.firmness(fact, supported, said, clauses, said_word, of_person)) is not None:
        return firm
    if (negation := negated(fact, supported, clauses, said_word)) is not None:
        return "dropped", f"said only as what is not: {negation[:120]!r}"
    claim = claim_words(fact)
    spoken = [w for w in claim if said_word(w, bag)]
    if spoken and (firm := whose.firmness(fact, spoken, said, clauses, said_word, True)):
        return firm[0], f"the claim is {firm[1]}"
    if (stands := unstanding(fact, supported, claim, clauses, said_word, bag)) is not None:
        return stands  # type: ignore[return-value]
    relation = relation_unsaid(fact, said)
    if relation is not None and relation[0] == "dropped":
        return relation
    if (habit := habit_unsaid(fact, said, said_word)) is not None:
        return "dropped", habit
    if (over := overstated(fact, said, said_word)) is not None:
        return over
    if (word := _assistants(fact, claim, said, bag, said_word)) is not None:
        # an offer added to the person's own claim ("runs" → "long runs"); else unsure
        added = word in claim and bool(spoken)
        return "dropped" if added else "lowered", f"only the assistant offered {word!r}"
    return relation


def _assistants(
    fact: PlanFact, claim: Sequence[str], said: Said, bag: frozenset[str], said_word: whose.SaidWord
) -> str | None:
    """A word of the fact the person never used and this turn's reply suggested ("Let's make
    Saturday your long run day"): the claim's first."""
    if not said.reply or whose.OF_PERSON.match(fact.text) is None:
        return None
    offered = [c for c in g.CLAUSES.split(said.reply) if SUGGESTS.search(c)]
    reply = frozenset(g.bag_of(offered))
    fact_words = [
        g.norm(w) for w in words(fact.text) if w not in STOP_WORDS | AUX | FILLER | FRAMING
    ]
    only = [
        w
        for w in fact_words
        if g.said_in(w, reply) and not said_word(w, bag) and not _shorthand(w, bag)
        if not w.isdigit() and w not in WEEKDAYS and w not in MONTHS  # a time: :mod:`.support`
    ]
    return next((w for w in only if w in claim), only[0] if only else None)


# what a reply offers the person, rather than repeats: "let's…", "try…", "you could…"
SUGGESTS = re.compile(
    r"(?i)\b(?:let['’]?s|try|how\s+about|what\s+about|you\s+(?:could|should|might|can)|"
    r"i['’]?d\s+(?:suggest|recommend|go\s+with)|i\s+(?:suggest|recommend)|recommend|consider|"
    r"why\s+not|make\s+\w+\s+your|we['’]ll|maybe|keep|add|mix|go\s+for)\b"
)


def _shorthand(word: str, bag: frozenset[str]) -> bool:
    """The person typed the word short: "appt" for appointment, "bday", "mgr", "tmrw"."""
    return any(
        len(s) >= 3
        and s[:2] == word[:2]
        and re.fullmatch(".*".join(map(re.escape, s)) + ".*", word)
        for s in bag
        if s.isalpha() and len(s) < len(word)
    )


# "no gigs for me", "never smoked": a negator at most two words before (not a correction's "not
# york its harrogate", nor "wait no, thu is swimming")
_NOT = frozenset("no not never nothing without dont didnt cant wont isnt arent wasnt".split())
_NEGATED_FACT = re.compile(
    r"(?i)\b(?:not|no|never|without|doesn['’]?t|don['’]?t|won['’]?t|isn['’]?t|can['’]?t|cannot|"
    r"unable|quit|stopped|gave\s+up|avoid\w*)\b"
)


def negated(
    fact: PlanFact, supported: Sequence[str], clauses: whose.Clauses, said: whose.SaidWord
) -> str | None:
    """The clause, when every clause this turn that names the fact's words says them only
    after a negator ("no gigs for me this week" for "User goes to gigs"); None when the fact
    states the negation, an allergy or aversion, or a clause says them plainly or corrects."""
    if (
        not supported
        or fact.valid_to  # an ending states the "not anymore" itself
        or _NEGATED_FACT.search(fact.text)
        or _AVERSION.search(f"{fact.predicate} {fact.text}")
    ):
        return None
    naming = [
        c for message in clauses for c, bag in message if any(said(w, bag) for w in supported)
    ]
    if not naming or any(not _after_negator(c, supported, said) for c in naming):
        return None
    if any(CORRECTION.search(c) for c in naming):  # "wait no, thu is…": a correction says it
        return None
    return naming[0]


def _after_negator(clause: str, supported: Sequence[str], said: whose.SaidWord) -> bool:
    tokens = [t.replace("'", "").replace("’", "") for t in clause.lower().split()]
    return all(
        any(n in _NOT for n in tokens[max(0, i - 2) : i])
        for i, t in enumerate(tokens)
        if any(said(w, frozenset(g.bag_of([t]))) for w in supported)
    )


# "tree nuts are fine", "dairy is ok": an allergy or aversion whose words this turn are said
# only where the person clears the thing is none (:func:`cleared`)
_CLEARED = re.compile(r"(?i)\b(?:are|is|r)\s+(?:totally\s+|all\s+)?(?:fine|ok|okay|safe)\b")
_AVERSION = re.compile(r"(?i)(?<!not )(?<!n't )(?:allerg|intoleran|aversion|avoids?\b|dislike)")


def cleared(
    fact: PlanFact, supported: Sequence[str], clauses: whose.Clauses, said: whose.SaidWord
) -> bool:
    """An allergy or aversion whose words this turn are all said where the person clears it."""
    if not supported or not _AVERSION.search(f"{fact.predicate} {fact.text}"):
        return False
    naming = [
        c for message in clauses for c, bag in message if any(said(w, bag) for w in supported)
    ]
    return bool(naming) and all(_CLEARED.search(c) for c in naming)
