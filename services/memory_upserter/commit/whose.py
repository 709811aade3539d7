"""Whether the words a fact rests on were the person's own, firmly (pure; one call from
:mod:`.grounding`: :func:`firmness`).

- **A hedge** (:func:`_hedge`): "i think im taking it", "maybe", "my ideal studio" — the
  clause that names the fact hedges it, or a hedged decision points back at it; not when the
  fact states the hedge ("User dreams of…"), nor on the person's fact when it hedges what
  someone else does ("i think tiago's taking the job in braga": not "User lives in Braga").
- **Someone else's news** (:func:`owners`): "my coworker sam is leaving, hes going to adidas"
  and "my buddy ana just had twins!!! two boys" are about others. A clause is the person's own
  when it says "i", "me", "we"…; someone else's when, without those, it is said of "he", "she",
  "they", or opens with "my <relative or friend>"; a clause that says neither goes on with the
  one before it in its sentence, or from the sentence before when a fragment of three words at
  most ("… had twins!!! two boys"); otherwise a sentence's first clause is the person's. Only a
  fact whose text claims it of the person ("User …") is weighed so: one whose words this turn
  were all said in someone else's clauses is not the person's ("User is going to Adidas",
  "User has twin boys"). A bare name said the way people name people ("ana from work is
  applying there too") is someone else too. A fact about the relation itself ("User has a
  daughter lina" ← "my daughter lina…") rests on "my <relative>" and is the person's.
- **A wish, not a fact** (:func:`.spoken.wish_split`): "want to get back into running", "mom keeps
  saying i should move back to porto": the words after a wish ("want to", "should", "would
  like to", "keeps saying"…) up to "after", "before", "but"… say what is wished, not what is.
  A fact whose words this turn sit only there is not a current fact ("User is a runner"),
  unless it states the wish ("User wants to…") or is about a relative ("User's parents live
  in Porto").
- **Someone else's wish** (:func:`.spoken.others_wishes`): "siobhan wants to do the camino in
  may i said well see" — a fact of the person ("User and Siobhan are doing the Camino") whose
  words this turn sit only in what another wishes is dropped, even when it states a plan.
- **An idea turned down** (:func:`.spoken.refused`): "mom says i should move back but
  nah", "…. nope": a fact whose words this turn sit only in it is never a current fact,
  unless it states the refusal ("User does not want to move back") or is a relative's.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Literal

from contracts.plan import PlanFact
from services.memory_upserter.commit import grounding as g
from services.memory_upserter.commit.owners import (
    _ANY_RELATION,
    FIRST_PERSON,
    RELATIONS,
    SOMEONE_ELSE,
    families,
    owners,
    people_named,
)
from services.memory_upserter.commit.spoken import (
    DECISION,
    HEDGE,
    HEDGED_NAME,
    HEDGED_OTHER,
    NEGATED,
    others_wishes,
    refused,
    wish_split,
)
from services.memory_upserter.commit.support import CLAIMS
from services.memory_upserter.text import EMOJI, STOP_WORDS, words

__all__ = ["FIRST_PERSON", "RELATIONS", "SOMEONE_ELSE", "families", "firmness", "owners"]

if TYPE_CHECKING:
    from services.memory_upserter.commit.grounding import Said

# a fact stating the wish itself, or a state to come ("User will be in Lisbon until Sunday")
_OWN = re.compile(
    r"(?i)\b(?:interested|keen|ready\s+to|will|['’]ll|going\s+to|gonna|soon|upcoming|next|"
    r"future)\b"
)
# a fact that states the pursuit of a wish, not the wish come true
_PURSUIT = re.compile(
    r"(?i)\b(?:learning|studying|practi[cs]ing|training|working\s+on|saving|taking\s+lessons)\b"
)
# the fact claims what the person does, is or has ("User does long runs…", "User's flight got
# moved"), not a note, nor a relative's ("User's sister…")
OF_PERSON = re.compile(rf"(?i)^\s*(?:the\s+)?user\b(?!['’]s\s+(?:[\w-]+\s+)?(?:{_ANY_RELATION})\b)")
_SENTENCES = re.compile(rf"[.!?\n]+|{EMOJI}")  # an emoji ends a sentence (:mod:`.owners`)
_REL_SUBJECT = re.compile(rf"(?i)^\s*(?:the\s+)?user['’]s\s+(?:[\w-]+\s+)?(?:{_ANY_RELATION})\b")


def relation_said(fact: PlanFact, texts: Iterable[str]) -> bool:
    """The fact names a relation the person put as "my <word>" (its family): it is about
    that relation, resting on the person's own words."""
    mine = {
        i
        for text in texts
        for m in re.finditer(r"(?i)\b(?:my|our)\s+((?:[\w-]+\s+)?[\w-]+)", text)
        for i in families(m[1])
    }
    return bool(mine & families(f"{fact.predicate.replace('_', ' ')} {fact.text}"))


def about_relative(fact: PlanFact) -> bool:
    """The fact is said of a relative of the person ("User's parents live in Porto",
    ``has_sister``, ``mom_location``), not of the person."""
    return bool(_REL_SUBJECT.search(fact.text) or families(fact.predicate.replace("_", " ")))


Names = Callable[[Sequence[str], frozenset[str]], bool]
Clauses = tuple[tuple[tuple[str, frozenset[str]], ...], ...]
SaidWord = Callable[[str, frozenset[str]], bool]


def firmness(
    fact: PlanFact,
    supported: Sequence[str],
    said: Said,
    clauses: Clauses,
    said_word: SaidWord,
    of_person: bool,
) -> tuple[Literal["dropped", "hedged"], str] | None:
    """Whether the person's supporting words were a firm statement of their own: hedged this
    turn (:func:`_hedge`); or, for a fact claiming something of the person (``of_person``,
    its text "User …"), said of someone else (dropped) or only as a wish (hedged). The verdict
    and the clause that says so; None when the fact is the person's, firmly. ``clauses``: this
    turn's, each with its bag of words; ``said_word``: whether a word is in a bag, in a form or
    a family of it (:mod:`.grounding`)."""

    def names(ws: Sequence[str], bag: frozenset[str]) -> bool:
        return any(said_word(w, bag) for w in ws)

    mine = of_person and bool(OF_PERSON.match(fact.text))
    text = frozenset(w for w in words(fact.text) if w not in STOP_WORDS and len(w) > 2)
    if (hedge := _hedge(supported, clauses, _fact_words(fact), names, mine, text)) is not None:
        return "hedged", f"hedged: {hedge!r}"
    if not of_person or not OF_PERSON.match(fact.text):  # "Nora is engaged to Felix"
        return None
    if (whose := _someone_elses(fact, supported, said, names)) is not None:
        return "dropped", f"said of someone else: {whose!r}"
    if (theirs := _others_wish(fact, supported, said, names)) is not None:
        return "dropped", f"someone else's wish: {theirs!r}"
    if (wish := _wished(fact, supported, said, names)) is not None:
        return "hedged", f"a wish, not a fact: {wish!r}"
    if (idea := _turned_down(fact, supported, said, names)) is not None:
        return "dropped", f"an idea the person turned down: {idea!r}"
    return None


def _others_wish(fact: PlanFact, supported: Sequence[str], said: Said, names: Names) -> str | None:
    """What someone else wishes this turn ("siobhan wants to do the camino"), when the fact's
    words sit only there and it claims them of the person ("User and Siobhan are doing the
    Camino"); never for a relative's fact."""
    if not supported or about_relative(fact):
        return None
    spans = [s for message in said.this_turn for s in others_wishes(message)]
    inside = frozenset(g.bag_of(spans))
    outside = _rest(said, spans)
    if spans and all(names([w], inside) and not names([w], outside) for w in supported):
        return spans[0].strip()[:120]
    return None


def _rest(said: Said, spans: Sequence[str]) -> frozenset[str]:
    """The words of this turn outside someone else's wishes."""
    rest = " ".join(said.this_turn)
    for span in spans:
        rest = rest.replace(span, " ")
    return frozenset(g.bag_of([rest]))


def _turned_down(fact: PlanFact, supported: Sequence[str], said: Said, names: Names) -> str | None:
    """The idea the fact's words were said in this turn, when the person turned it down and said
    them nowhere else; never for a fact that states the refusal or is a relative's."""
    if not supported or NEGATED.search(fact.text) or about_relative(fact):
        return None
    split = [refused(message) for message in said.this_turn]
    ideas = [i for message_ideas, _ in split for i in message_ideas]
    inside = frozenset(g.bag_of(ideas))
    outside = frozenset(g.bag_of(r for _, rest in split for r in rest))
    if ideas and all(names([w], inside) and not names([w], outside) for w in supported):
        return ideas[0][:120]
    return None


def _someone_elses(
    fact: PlanFact, supported: Sequence[str], said: Said, names: Names
) -> str | None:
    """The clause that says the fact of someone else, when every clause of this turn naming
    it does (:func:`owners`); never for a fact that links an entity or names a relation the
    person put as "my …"."""
    if not supported or fact.object is not None or relation_said(fact, said.this_turn):
        return None
    # the fact's own words too: its value may rest on an earlier turn ("is applying there too")
    named = [*supported, *(g.norm(w) for w in words(fact.text) if w not in STOP_WORDS)]
    people = people_named((*said.this_turn, *said.earlier), (*said.stored, *said.people))
    from services.memory_upserter.commit.claims import claim_words  # a cycle: claims uses us

    claim = claim_words(fact)
    clauses = [(c, other) for message in said.this_turn for c, other in owners(message, people)]
    rows = [
        (c, o)
        for c, o in clauses
        if names(supported, bag := frozenset(g.bag_of([c])))
        or any(g.said_in(w, bag) for w in claim)
    ]
    # the clauses of its value and claim decide ("callum got a job at the uni" for "User got a
    # job at the uni in york"), else any clause naming its words
    rows = rows or [(c, o) for c, o in clauses if names(named, frozenset(g.bag_of([c])))]
    return rows[0][0][:120] if rows and all(other for _, other in rows) else None


def _wished(fact: PlanFact, supported: Sequence[str], said: Said, names: Names) -> str | None:
    """The wish this turn says the fact's words in, when it says them nowhere else
    (:func:`wish_split`); never for a fact that states the wish or is a relative's."""
    wish = CLAIMS[0]
    predicate = re.sub(r"\W+", "_", fact.predicate.strip()).upper()
    if not supported or about_relative(fact):
        return None
    if wish.predicate.fullmatch(predicate) or wish.text.search(fact.text) or _OWN.search(fact.text):
        return None
    split = [(c, *wish_split(c)) for message in said.this_turn for c in _SENTENCES.split(message)]
    inside = frozenset(g.bag_of(i for _, i, _ in split))
    pursuit = _PURSUIT.search(fact.text)
    if pursuit and not any(g.said_in(g.norm(w), inside) for w in words(pursuit[0])):
        return None  # "User is learning Spanish" ← "i wanna get my spanish to b1 … lessons"
    outside = frozenset(g.bag_of(o for _, _, o in split))
    if all(names([w], inside) and not names([w], outside) for w in supported):
        return next(c for c, i, _ in split if names(supported, frozenset(g.bag_of([i]))))[:120]
    return None


def _fact_words(fact: PlanFact) -> frozenset[str]:
    """The fact's words, each also without a plural "s": "User dreams of…" carries "dream"."""
    said = words(f"{fact.predicate.replace('_', ' ')} {fact.text}")
    return frozenset([*said, *(w.removesuffix("s") for w in said)])


def _hedge(
    supported: Sequence[str],
    clauses: Clauses,
    own: frozenset[str],
    said: Names,
    mine: bool,
    text: frozenset[str] = frozenset(),
) -> str | None:
    """The clause of this turn that hedges the fact, if any: every clause that names it hedges,
    but for a presupposed thing split off ("maybe … | before our trip"), where one of its words
    said only under the hedge decides; or a hedged decision points back at it — at the clause
    just before it in the message ("got the offer from spotify!! i think im taking it"), or at
    anything when the fact was named only in earlier messages ("i think im taking it")."""
    if not supported:
        return None

    def names(bag: frozenset[str]) -> bool:
        return said(supported, bag)

    hedged = functools.partial(hedge_in, fact_words=own, mine=mine)
    if _firmly_told(text, clauses, hedged):
        return None

    named = [c for message in clauses for c, bag in message if names(bag)]
    for message in clauses:
        for i, (clause, _) in enumerate(message):
            decision = DECISION.search(clause) if hedged(clause) else None
            if decision is None:
                continue
            if not named or (decision["noun"] is None and i > 0 and names(message[i - 1][1])):
                return clause[:120]
    firm = [c for c in named if not hedged(c)]
    naming = [[c for message in clauses for c, bag in message if said([w], bag)] for w in supported]
    only = [n for n in naming if n and all(hedged(c) for c in n)]  # "i might quit | before …"
    if only and (all(_TAIL.match(c) for c in firm) or len(only) * 2 > len(supported)):
        return only[0][0][:120]
    return None


def _firmly_told(
    text: frozenset[str], clauses: Clauses, hedged: Callable[[str], str | None]
) -> bool:
    """The clauses of a message that are not hedged name most of the fact's content words, two
    at least ("ivy's company has an office there" beside "thinking maybe we move to lisbon";
    "i used to live there as a student, back in 2015-2018" beside "moving to turku i guess")."""
    for message in clauses:
        firm = [bag for clause, bag in message if not hedged(clause) and not _TAIL.match(clause)]
        told = {w for w in text for bag in firm if g.said_in(g.norm(w), bag)}
        if len(told) >= 2 and len(told) * 2 > len(text):
            return True
    return False


# a presupposed thing split off a hedged clause (:data:`.spoken.PRESUPPOSED`)
_TAIL = re.compile(r"(?i)^(?:before|after|until|till|during|for)\s")


def hedge_in(clause: str, fact_words: frozenset[str], mine: bool = False) -> str | None:
    """The hedge of a clause, unless the fact carries it (a dream job stated as one) or, for a
    fact of the person (``mine``), it hedges what someone else does ("i think tiago's taking…")."""
    for match in HEDGE.finditer(clause):
        if HEDGED_NAME.match(clause, match.end()):
            continue
        carried = set(words(match[0])) <= fact_words
        if not carried and not (mine and HEDGED_OTHER.match(clause, match.end())):
            return match[0]
    return None
