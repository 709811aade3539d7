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
  quizzes"; so do a wish or goal, a home and volunteering (:func:`.support.unsaid_claim`); an
  allergy said only where the person clears the thing ("nuts are fine") is none; nor may the
  fact's claim — a habit, an identity, a relation, a state — rest on a one-off, a wish, a mere
  mention or the reply's own suggestion (:mod:`.claims`);
- ``hedged``: supported, but hedged this turn ("i think im taking it", "maybe", "may have",
  "my ideal studio"; not when the fact states the hedge: "User's dream job…"): the sentence
  that says it hedges, or — for a fact grounded only in earlier messages — this turn hedges a
  decision about it. A hedge is not a current fact, and the commit keeps it out of memory with
  a warning: the model writes it when the person decides.

How far the claim rules decide depends on the plan's shape (:mod:`.shape`): for a plan in the
strict schema's shape (``Said.trust == "session"``) the words may also be what memory holds of
the person, a photo they shared, the fact's own sentence for a normalised value, and a claim
rule's doubt only lowers the fact; for one that needed repair it drops it.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from contracts.plan import PlanFact
from services.memory_upserter.commit import claims, selves, spoken, whose
from services.memory_upserter.commit.read import SELF_HANDLES
from services.memory_upserter.commit.shape import Trust
from services.memory_upserter.commit.spoken import CAPTION, CORRECTION, OTHERS, PRESUPPOSED, YOURS
from services.memory_upserter.commit.support import (
    FILLER,
    date_supported,
    dates_said,
    unsaid_claim,
)
from services.memory_upserter.commit.wordforms import (
    bag_of,
    norm,
    normalised,
    said_in,
    said_word,
    stem,
)
from services.memory_upserter.commit.written_dates import iso_dates
from services.memory_upserter.text import EMOJI, STOP_WORDS, fold, words

__all__ = ["Grounding", "Said", "bag_of", "ground", "norm", "normalised", "said_in", "stem"]

Verdict = Literal["kept", "lowered", "dropped", "hedged"]

# Clauses: a hedge reaches to the next comma, "but" or "so", not across a run-on message, nor
# into a presupposed thing ("… before our trip").
# a dash between words ("booked the venue — it's a dream") ends a clause too
CLAUSES = re.compile(rf"[.!?;,\n—–()]+|\s-+\s|\s(?:but|so|though|although)\s|{PRESUPPOSED}|{EMOJI}")


_ISO = re.compile(r"\b(\d{4})-(\d{2})(?:-(\d{2}))?(?:[T ]\d{2}:[\d:.]+(?:Z|[+-][\d:]+)?)?")


@dataclass(frozen=True)
class Said:
    """The person's words a fact may rest on: this turn's, then their recent ones."""

    now: datetime
    this_turn: tuple[str, ...]
    earlier: tuple[str, ...] = ()
    stored: tuple[str, ...] = ()  # the person's live facts: what an ending may restate
    reply: str = ""  # this turn's reply: what only the assistant said (:mod:`.claims`)
    selves: tuple[str, ...] = ()  # the names the person goes by (:mod:`.selves`)
    people: tuple[str, ...] = ()  # whom the person knows: "Person:Lara", "Pet:Biscuit"
    trust: Trust = "strict"  # the plan's shape (:mod:`.shape`): which claim rules weigh it

    # The words as a fact is read against them (:mod:`.spoken`): captions aside (``told``), and
    # for a fact claiming a thing as the person's, the other speaker's things aside (``mine``).
    @functools.cached_property
    def told(self) -> Said:
        return self._without(lambda t: CAPTION.sub(" ", t))

    @functools.cached_property
    def mine(self) -> Said:
        return self._without(lambda t: YOURS.sub(" ", CAPTION.sub(" ", t)))

    @functools.cached_property
    def yours_aside(self) -> Said:  # captions kept: a plan held to the conversation
        return self._without(lambda t: YOURS.sub(" ", t))

    @functools.cached_property
    def with_reply(self) -> Said:  # a persona's own note: its reply is its words too
        return dataclasses.replace(self, this_turn=(*self.this_turn, self.reply))

    def _without(self, clean: Callable[[str], str]) -> Said:
        return Said(
            self.now,
            tuple(map(clean, self.this_turn)),
            tuple(map(clean, self.earlier)),
            self.stored,
            self.reply,
            self.selves,
            self.people,
            self.trust,
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
    """The words a fact's grounding is read from: its value (not a yes), else its object (a ref
    by its name), else — naming neither ("Marta is having a girl") — its text; None when that
    leaves nothing to ground."""
    target = fact.value if fold(fact.value or "no") not in spoken.YES_NO else fact.object
    if target is None:
        target = fact.text
    if fold(target) in SELF_HANDLES:
        return None
    if re.fullmatch(r"[a-z_]+:[^\s:]+", target):
        target = target.split(":", 1)[1].replace("_", " ")
    return target


def ground(fact: PlanFact, said: Said) -> Grounding:
    """The fact's verdict (module docstring); a fact naming the person by their own name is
    read as one of the person (:func:`.selves.as_person`)."""
    fact = selves.as_person(fact, said)
    target = target_of(fact)
    if target is None:
        return Grounding("kept")
    target = iso_dates(target, said.now.date())  # "September 18", "18/09": read as dates
    if fact.valid_to and _restates(fact, said.stored):
        return Grounding("kept")
    about_self = fold(fact.subject) in SELF_HANDLES
    said = _read_as(fact, said, about_self and not OTHERS.search(fact.text))
    texts = (*said.this_turn, *said.earlier)
    # a correction or a successor ("replaces") restates a fact stored before, maybe sessions ago;
    # a plan held to the conversation may rest on what memory holds of the person (:mod:`.shape`)
    restating = bool(fact.replaces) or said.corrects or said.trust == "session"
    bag = said.bag_with_stored if restating else said.bag

    wanted, dates, missing = _unsaid(target, said, bag, said_word)
    if missing and said.trust == "session" and target != fact.text:
        # a value the model normalised ("professional gamer"): the fact's own sentence may
        # be in the person's words ("User makes a living from gaming")
        found = _unsaid(fact.text, said, bag, said_word)
        if len(found[2]) * (len(wanted) + len(dates)) < len(missing) * (
            len(found[0]) + len(found[1])
        ):
            wanted, dates, missing = found
    units = len(wanted) + len(dates)
    if units and len(missing) * 2 > units:
        return Grounding("dropped", f"nothing the person said supports {', '.join(missing)}")
    supported = [w for w in wanted if w not in missing]
    of_person = about_self and not OTHERS.search(fact.text)
    clauses = said.clauses
    # firmly the person's, and what the fact claims as they said it (:mod:`.claims`,
    # :mod:`.whose`): an unsure claim decides last
    claimed = claims.unfounded(fact, supported, said, bag, clauses, said_word, of_person)
    claim = unsaid_claim(fact, (*texts, *said.stored) if restating else texts)
    if claim is not None and (claimed is None or claimed[0] == "lowered"):
        claimed = "dropped", f"the person said no {claim}"
    # how far the claim rules decide: by the plan's shape (:mod:`.shape`)
    claimed = weighed(claimed, said.trust)
    if claimed is not None and claimed[0] != "lowered":
        return Grounding(*claimed)
    if missing:
        return Grounding(
            "lowered", f"unsure: nothing the person said supports {', '.join(missing)}"
        )
    return Grounding(*claimed) if claimed is not None else Grounding("kept")


def weighed(verdict: claims.Verdict | None, trust: Trust) -> claims.Verdict | None:
    """A claim rule's verdict (:mod:`.claims`: an owner, a relation, a habit, a kind of claim
    the person never put in words, a word only the assistant offered) as the plan's shape
    trusts it: a hedge is kept out whatever the shape; held strictly, an unsure claim is
    dropped; held to the conversation, an unfounded claim is only unsure — kept lowered, out
    of FOUNDATION. Each with the reason, and the shape named."""
    if verdict is None or verdict[0] == "hedged":
        return verdict
    if trust == "strict":
        return "dropped", f"{verdict[1].removeprefix('unsure: ')} (plan held strictly)"
    return "lowered", f"unsure: {verdict[1].removeprefix('unsure: ')} (plan in the schema's shape)"


def _read_as(fact: PlanFact, said: Said, of_person: bool) -> Said:
    """The person's words as the fact is read against them: for a plan held strictly, captions
    aside (and for a fact claiming a thing as the person's, the other speaker's things); for one
    held to the conversation (:mod:`.shape`), a photo the person shared is theirs. A persona's
    own note (``scope: agent``) may rest on what the persona replied: any in a plan of the
    schema's shape; in one held strictly, a note ("Lena's plan: …"), not a claim that the
    person does what only the reply offered ("User does long runs on saturday")."""
    if said.trust == "strict":
        read = said.mine if of_person else said.told
        note = fact.scope == "agent" and not whose.OF_PERSON.match(fact.text)
    else:
        read = said.yours_aside if of_person else said
        note = fact.scope == "agent"
    return read.with_reply if note else read


def _unsaid(
    target: str, said: Said, bag: frozenset[str], said_word: Callable[[str, frozenset[str]], bool]
) -> tuple[list[str], list[tuple[date, bool]], list[str]]:
    """The target's content words and ISO dates, and those of them nothing said supports."""
    dates = [
        (date(int(m[1]), int(m[2]), int(m[3] or 1)), m[3] is not None)
        for m in _ISO.finditer(target)
        if 1 <= int(m[2]) <= 12 and 1 <= int(m[3] or 1) <= 31
    ]
    wanted = [
        norm(w) for w in words(_ISO.sub(" ", target)) if w not in STOP_WORDS and w not in FILLER
    ]
    resolved = said.dates if dates else ()
    missing = [w for w in wanted if not said_word(w, bag) and not _year(w, said)]
    today = said.now.date()
    missing += [
        d.isoformat() for d, whole in dates if not date_supported(d, whole, bag, resolved, today)
    ]
    return wanted, dates, missing


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
