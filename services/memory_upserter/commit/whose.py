"""Whose words a fact about the person rests on, and whether they were a wish (pure; data and
two small readers for :mod:`.grounding`).

- **Someone else's news** (:func:`owners`): "my coworker sam is leaving, hes going to adidas"
  and "my buddy ana just had twins!!! two boys" are about others. A clause is the person's own
  when it says "i", "me", "we"…; someone else's when, without those, it is said of "he", "she",
  "they", "you", or opens with "my <relative or friend>"; a clause that says neither goes on
  with the one before it ("… had twins!!! two boys"); a message's first such clause is the
  person's. A fact claiming something of the person whose words this turn were all said in
  someone else's clauses is not the person's ("User is going to Adidas", "User has twin
  boys"). A fact about the relation itself ("User has a daughter lina" ← "my daughter lina…")
  rests on "my <relative>" and is the person's.
- **A wish, not a fact** (:func:`wish_split`): "want to get back into running", "mom keeps
  saying i should move back to porto": the words after a wish ("want to", "should", "would
  like to", "keeps saying"…) up to "after", "before", "but"… say what is wished, not what is.
  A fact whose words this turn sit only there is not a current fact ("User is a runner"),
  unless it states the wish ("User wants to…") or is about a relative ("User's parents live
  in Porto").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Literal

from contracts.plan import PlanFact
from services.memory_upserter.commit.support import CLAIMS
from services.memory_upserter.commit.wording import bag_of, normalised, said_in
from services.memory_upserter.text import words

if TYPE_CHECKING:
    from services.memory_upserter.commit.grounding import Said

# One family of relation words: a fact naming one rests on the person's "my <any of them>".
RELATIONS = tuple(
    frozenset(family.split())
    for family in (
        "mother mom mum mommy mama father dad daddy papa parent parents family stepmom stepdad",
        "child children kid kids son sons daughter daughters toddler baby babies twins",
        "partner wife husband spouse gf bf girlfriend boyfriend fiance fiancee hubby",
        "sister sisters brother brothers sibling siblings sis bro",
        "friend friends buddy pal mate bestie",
        "coworker coworkers colleague colleagues boss manager teammate",
        "dog cat pet puppy kitten",
        "cousin aunt uncle grandma grandpa grandmother grandfather niece nephew",
        "roommate flatmate neighbor neighbour landlord",
    )
)
_ANY_RELATION = "|".join(sorted({w for family in RELATIONS for w in family}, key=len)[::-1])
FIRST_PERSON = re.compile(
    r"(?i)(?<![\w'’])(?:i|im|i['’]m|ive|i['’]ve|i['’]d|i['’]ll|me|myself|we|we['’]re|"
    r"we['’]ve|we['’]ll|us|our|ours)(?![\w'’])"
)
# said of someone else: a subject pronoun, or an opening "my <relative>" (the other speaker's
# things are :data:`.spoken.YOURS`)
SOMEONE_ELSE = re.compile(
    rf"(?i)(?<![\w'’])(?:he|she|they|hes|he['’]s|shes|she['’]s|theyre|they['’]re|he['’]d|"
    rf"she['’]d|he['’]ll|she['’]ll)(?![\w'’])|"
    rf"^\W*(?:(?:lol|lmao|also|and|oh|btw|omg|ugh|so|well|plus|haha|wow|guess\s+what)\W+)*"
    rf"my\s+(?:[\w-]+\s+)?(?:{_ANY_RELATION})\b"
)
WISH = re.compile(
    r"(?i)\b(?:wants?\s+(?:me\s+)?to|wanna|would\s+(?:like|love)\s+to|"
    r"[i'’]d\s+(?:like|love)\s+to|hop(?:e|es|ing)\s+to|should|shoulda|could|"
    r"keeps?\s+(?:saying|telling\s+me)|wish(?:es)?)\b"
)
WISH_END = re.compile(
    r"(?i)\b(?:after|before|since|because|cause|cuz|bc|when|until|till|once|while|during|but)\b"
)
_OF_PERSON = re.compile(r"(?i)^\s*(?:the\s+)?user\b(?!['’]s)")
_SENTENCES = re.compile(r"[.!?\n]+")
_CLAUSES = re.compile(r"[;,]+|\s(?:but|so|though|although)\s")
_REL_SUBJECT = re.compile(rf"(?i)^\s*(?:the\s+)?user['’]s\s+(?:[\w-]+\s+)?(?:{_ANY_RELATION})\b")


def owners(message: str) -> list[tuple[str, bool]]:
    """Each clause of one message, and whether it is someone else's (module docstring): a
    clause that says neither goes on with the one before it in its sentence, or — a fragment
    of three words at most ("… had twins!!! two boys") — in the sentence before."""
    out: list[tuple[str, bool]] = []
    other = False
    for sentence in _SENTENCES.split(message):
        for n, clause in enumerate(c.strip() for c in _CLAUSES.split(sentence)):
            if not clause:
                continue
            if FIRST_PERSON.search(clause):
                other = False
            elif SOMEONE_ELSE.search(clause):
                other = True
            elif n == 0 and len(clause.split()) > 3:
                other = False
            out.append((clause, other))
    return out


def _families(text: str) -> set[int]:
    said = set(words(text))
    return {i for i, family in enumerate(RELATIONS) if said & family}


def relation_said(fact: PlanFact, texts: Iterable[str]) -> bool:
    """The fact names a relation the person put as "my <word>" (its family): it is about
    that relation, resting on the person's own words."""
    mine = {
        i
        for text in texts
        for m in re.finditer(r"(?i)\bmy\s+((?:[\w-]+\s+)?[\w-]+)", text)
        for i in _families(m[1])
    }
    return bool(mine & _families(f"{fact.predicate.replace('_', ' ')} {fact.text}"))


def about_relative(fact: PlanFact) -> bool:
    """The fact is said of a relative of the person ("User's parents live in Porto",
    ``has_sister``, ``mom_location``), not of the person."""
    return bool(_REL_SUBJECT.search(fact.text) or _families(fact.predicate.replace("_", " ")))


def wish_split(sentence: str) -> tuple[str, str]:
    """The sentence's words said as wished — after a wish, up to "after", "but"… or a comma
    that opens more than an aside of three words ("i want to fix up my old area, West County,
    too") — and the rest."""
    inside, outside, last = [], [], 0
    for m in WISH.finditer(sentence):
        if m.start() < last:
            continue
        end = _wish_end(sentence, m.end())
        outside.append(sentence[last : m.start()])
        inside.append(sentence[m.end() : end])
        last = end
    outside.append(sentence[last:])
    return " ".join(inside), " ".join(outside)


def _wish_end(sentence: str, start: int) -> int:
    stop = WISH_END.search(sentence, start)
    limit = stop.start() if stop else len(sentence)
    for comma in re.finditer(r"[,;]", sentence[start:limit]):
        after = sentence[start + comma.end() : limit]
        if len(re.split(r"[,;]", after)[0].split()) > 3:
            return start + comma.start()
    return limit


def not_the_persons(
    fact: PlanFact, supported: Sequence[str], said: Said
) -> tuple[Literal["dropped", "hedged"], str] | None:
    """A fact claiming something of the person ("User …") that this turn said of someone else
    (dropped) or only as a wish (hedged), with the clause that says so; None when it is
    theirs."""
    if not _OF_PERSON.match(fact.text):  # "Nora is engaged to Felix", its subject left out
        return None
    if (whose := _someone_elses(fact, supported, said)) is not None:
        return "dropped", f"said of someone else: {whose!r}"
    if (wish := _wished(fact, supported, said)) is not None:
        return "hedged", f"a wish, not a fact: {wish!r}"
    return None


def _names(supported: Sequence[str], bag: frozenset[str]) -> bool:
    return any(said_in(w, bag) or normalised(w, bag) for w in supported)


def _someone_elses(fact: PlanFact, supported: Sequence[str], said: Said) -> str | None:
    """The clause that says the fact of someone else, when every clause of this turn naming
    it does (:func:`owners`); never for a fact that links an entity or names a relation the
    person put as "my …"."""
    if not supported or fact.object is not None or relation_said(fact, said.this_turn):
        return None
    rows = [
        (clause, other)
        for message in said.this_turn
        for clause, other in owners(message)
        if _names(supported, frozenset(bag_of([clause])))
    ]
    return rows[0][0][:120] if rows and all(other for _, other in rows) else None


def _wished(fact: PlanFact, supported: Sequence[str], said: Said) -> str | None:
    """The wish this turn says the fact's words in, when it says them nowhere else
    (:func:`wish_split`); never for a fact that states the wish or is a relative's."""
    wish = CLAIMS[0]
    predicate = re.sub(r"\W+", "_", fact.predicate.strip()).upper()
    if not supported or about_relative(fact):
        return None
    if wish.predicate.fullmatch(predicate) or wish.text.search(fact.text):
        return None
    split = [(c, *wish_split(c)) for message in said.this_turn for c in _SENTENCES.split(message)]
    inside = frozenset(bag_of(i for _, i, _ in split))
    outside = frozenset(bag_of(o for _, _, o in split))
    if all(_names([w], inside) and not _names([w], outside) for w in supported):
        return next(c for c, i, _ in split if _names(supported, frozenset(bag_of([i]))))[:120]
    return None
