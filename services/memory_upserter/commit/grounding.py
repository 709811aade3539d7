"""Whether the person's words support a model's plan fact (pure: the clock is passed in).

A fact is read by its object or value (a ref ``person:ana_lima`` by its name). Its content
words — connectives, pronouns and determiners aside (:data:`~..text.STOP_WORDS`), number words
as digits — and its ISO dates are each looked for in what the person said this turn and in
their recent messages of the session (:class:`Said`) — a photo's caption and, for a fact about
the person, the other speaker's things ("your store") set aside (:mod:`.spoken`). A word is
supported when the person used

- the word itself or a form of it: plural/singular, -ing/-ed, a possessive ("dogs" ~ "dog",
  "marathons" ~ "marathon", "Lisbon's");
- a word of the same standard family (:mod:`.support`): "married" ← "my husband and I",
  "deceased" ← "passed away", "engineer" ← "dev", "works" ← "my job"; a short day or month
  name ("tue", "jan") is the name;

in a correction ("its not may 18 its may 25") or a fact that ``replaces`` another, a word of
one of the person's live facts is supported too (they were grounded when stored); a number is
supported exactly; a date when a time phrase resolves to it give or take a day ("two
days ago", "last week", "in March") or when its own words were said ("March 3rd", "2019").

The verdict (:func:`ground`) — a fact the plan ends (``valid_to``) that restates one of the
person's live facts is ``kept``: it was grounded when it was stored —

- ``kept``: every word and date is supported;
- ``lowered``: at least half are — the commit keeps the fact as unsure (lower confidence, low
  importance, never pinned, so never in FOUNDATION) with a warning;
- ``dropped``: less than half — nothing the person said supports the fact. A liking (LIKES,
  LOVES_JOB, FAVORITE_…, "User loves…") also needs words of liking: "quiz time" is no "likes
  quizzes"; so do a wish or goal, a home and volunteering (:func:`.support.unsaid_claim`);
- ``hedged``: supported, but hedged this turn ("i think im taking it", "maybe", "may have",
  "my ideal studio"; not when the fact states the hedge: "User's dream job…"): the sentence
  that says it hedges, or — for a fact grounded only in earlier messages — this turn hedges a
  decision about it. A hedge is not a current fact, and the commit keeps it out of memory with
  a warning: the model writes it when the person decides.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from contracts.plan import PlanFact
from services.memory_upserter.commit.read import SELF_HANDLES
from services.memory_upserter.commit.spoken import CAPTION, CORRECTION, HEDGE, OTHERS, YOURS
from services.memory_upserter.commit.support import (
    FILLER,
    date_supported,
    dates_said,
    unsaid_claim,
)
from services.memory_upserter.commit.whose import not_the_persons
from services.memory_upserter.commit.wording import bag_of, norm, normalised, said_in, stem
from services.memory_upserter.text import STOP_WORDS, fold, words

__all__ = ["Grounding", "Said", "ground", "stem"]

Verdict = Literal["kept", "lowered", "dropped", "hedged"]

# A hedged decision about something said before: "i think im taking it", "maybe ill go with
# that one", "probably taking the offer" (``noun``: what it points at, when it names it).
_DECISION = re.compile(
    r"(?i)\b(?:tak(?:e|es|ing)|accept\w*|join\w*|mov(?:e|es|ing)|start\w*|switch\w*|quit\w*|"
    r"leav(?:e|es|ing)|sign\w*|go(?:ing)?\s+(?:with|for))\b.*\b(?:it|that|this|there|them|one|"
    r"(?:the|that|this)\s+(?P<noun>offer|job|place|flat|apartment|house|one))\b"
)
# Clauses: a hedge reaches to the next comma, "but" or "so", not across a run-on message.
CLAUSES = re.compile(r"[.!?;,\n]+|\s(?:but|so|though|although)\s")


_ISO = re.compile(r"\b(\d{4})-(\d{2})(?:-(\d{2}))?(?:[T ]\d{2}:[\d:.]+(?:Z|[+-][\d:]+)?)?")


@dataclass(frozen=True)
class Said:
    """The person's words a fact may rest on: this turn's, then their recent ones."""

    now: datetime
    this_turn: tuple[str, ...]
    earlier: tuple[str, ...] = ()
    stored: tuple[str, ...] = ()  # the person's live facts: what an ending may restate

    # The words as a fact is read against them (:mod:`.spoken`): captions aside (``told``), and
    # for a fact claiming a thing as the person's, the other speaker's things aside (``mine``).
    @functools.cached_property
    def told(self) -> Said:
        return self._without(lambda t: CAPTION.sub(" ", t))

    @functools.cached_property
    def mine(self) -> Said:
        return self._without(lambda t: YOURS.sub(" ", CAPTION.sub(" ", t)))

    def _without(self, clean: Callable[[str], str]) -> Said:
        return Said(
            self.now,
            tuple(map(clean, self.this_turn)),
            tuple(map(clean, self.earlier)),
            self.stored,
        )

    # Read once for all the plan's facts (grounding each fact against a fresh read of up to
    # a megabyte of words made a 50-fact plan quadratic: issue 31).
    @functools.cached_property
    def bag(self) -> frozenset[str]:
        """Every word said, normalised."""
        return frozenset(bag_of((*self.this_turn, *self.earlier)))

    @functools.cached_property
    def corrects(self) -> bool:
        """This turn corrects or succeeds something said before (:data:`.spoken.CORRECTION`)."""
        return any(CORRECTION.search(text) for text in self.this_turn)

    @functools.cached_property
    def bag_with_stored(self) -> frozenset[str]:
        """Every word said, and every word of the person's live facts."""
        return self.bag | frozenset(bag_of(self.stored))

    @functools.cached_property
    def dates(self) -> tuple[date, ...]:
        """The dates the person's words resolve to."""
        return tuple(dates_said((*self.this_turn, *self.earlier), self.now))

    @functools.cached_property
    def clauses(self) -> tuple[tuple[tuple[str, frozenset[str]], ...], ...]:
        """This turn's messages as clauses, each with its own bag of words."""
        return tuple(
            tuple(
                (c, frozenset(bag_of([c]))) for c in (c.strip() for c in CLAUSES.split(text)) if c
            )
            for text in self.this_turn
        )


@dataclass(frozen=True)
class Grounding:
    verdict: Verdict
    reason: str = ""  # for the warning: what nothing supports, or the hedge


def target_of(fact: PlanFact) -> str | None:
    """The words a fact's grounding is read from: its value, else its object (a ref by its
    name), else — a fact that names neither ("Marta is having a girl") — its text; None when
    that leaves nothing to ground."""
    target = fact.value if fact.value is not None else fact.object
    if target is None:
        target = fact.text
    if fold(target) in SELF_HANDLES:
        return None
    if re.fullmatch(r"[a-z_]+:[^\s:]+", target):
        target = target.split(":", 1)[1].replace("_", " ")
    return target


def ground(fact: PlanFact, said: Said) -> Grounding:
    """The fact's verdict (module docstring)."""
    target = target_of(fact)
    if target is None:
        return Grounding("kept")
    if fact.valid_to and _restates(fact, said.stored):
        return Grounding("kept")
    about_self = fold(fact.subject) in SELF_HANDLES
    said = said.mine if about_self and not OTHERS.search(fact.text) else said.told
    texts = (*said.this_turn, *said.earlier)
    # a correction or a successor ("replaces") restates a fact stored before, maybe sessions ago
    restating = bool(fact.replaces) or said.corrects
    bag = said.bag_with_stored if restating else said.bag
    dates = [
        (date(int(m[1]), int(m[2]), int(m[3] or 1)), m[3] is not None)
        for m in _ISO.finditer(target)
        if 1 <= int(m[2]) <= 12 and 1 <= int(m[3] or 1) <= 31
    ]
    wanted = [
        norm(w) for w in words(_ISO.sub(" ", target)) if w not in STOP_WORDS and w not in FILLER
    ]
    resolved = said.dates if dates else ()
    missing = [
        w for w in wanted if not said_in(w, bag) and not normalised(w, bag) and not _year(w, said)
    ]
    missing += [d.isoformat() for d, whole in dates if not date_supported(d, whole, bag, resolved)]
    units = len(wanted) + len(dates)
    if units and len(missing) * 2 > units:
        return Grounding("dropped", f"nothing the person said supports {', '.join(missing)}")
    supported = [w for w in wanted if w not in missing]
    hedge = _hedge(supported, said, _fact_words(fact))
    if hedge:
        return Grounding("hedged", f"hedged: {hedge!r}")
    if about_self and not OTHERS.search(fact.text):
        if (whose := not_the_persons(fact, supported, said)) is not None:
            return Grounding(*whose)
    if (claim := unsaid_claim(fact, (*texts, *said.stored) if restating else texts)) is not None:
        return Grounding("dropped", f"the person said no {claim}")
    if missing:
        return Grounding(
            "lowered", f"unsure: nothing the person said supports {', '.join(missing)}"
        )
    return Grounding("kept")


def _year(word: str, said: Said) -> bool:
    """A year no one said, the year of a date the person's words resolve to ("due in
    december" → "December 2026")."""
    return len(word) == 4 and word.isdigit() and int(word) in {d.year for d in said.dates}


def _restates(fact: PlanFact, stored: Sequence[str]) -> bool:
    """An ending that restates one of the person's live facts ("User works at Hospital São
    João", ``valid_to`` its last day): that fact was grounded when it was written."""
    wanted = [norm(w) for w in words(fact.text) if w not in STOP_WORDS]
    return bool(wanted) and any(
        all(said_in(w, bag) for w in wanted)
        for bag in (frozenset(bag_of([text])) for text in stored)
    )


def _fact_words(fact: PlanFact) -> frozenset[str]:
    return frozenset(words(f"{fact.predicate.replace('_', ' ')} {fact.text}"))


def _hedge(supported: Sequence[str], said: Said, fact_words: frozenset[str]) -> str | None:
    """The clause of this turn that hedges the fact, if any: every clause that names it hedges;
    or a hedged decision points back at it — at the clause just before it in the message ("got
    the offer from spotify!! i think im taking it"), or at anything when the fact was named only
    in earlier messages ("i think im taking it")."""
    if not supported:
        return None

    def names(bag: frozenset[str]) -> bool:
        return any(said_in(w, bag) or normalised(w, bag) for w in supported)

    named = [c for clauses in said.clauses for c, bag in clauses if names(bag)]
    for clauses in said.clauses:
        for i, (clause, _) in enumerate(clauses):
            decision = _DECISION.search(clause) if _hedge_in(clause, fact_words) else None
            if decision is None:
                continue
            if not named or (decision["noun"] is None and i > 0 and names(clauses[i - 1][1])):
                return clause[:120]
    if named and all(_hedge_in(c, fact_words) for c in named):
        return named[0][:120]
    return None


def _hedge_in(clause: str, fact_words: frozenset[str]) -> str | None:
    """The hedge of a clause, unless the fact itself carries it (a dream job stated as one)."""
    for match in HEDGE.finditer(clause):
        if not set(words(match[0])) <= fact_words:
            return match[0]
    return None
