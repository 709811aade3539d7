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
from services.memory_upserter.commit.spoken import (
    DECISION,
    HEDGE,
    HEDGED_OTHER,
    NEGATED,
    refused,
    wish_split,
)
from services.memory_upserter.commit.support import CLAIMS
from services.memory_upserter.text import STOP_WORDS, words

if TYPE_CHECKING:
    from services.memory_upserter.commit.grounding import Said

# One family of relation words: a fact naming one rests on the person's "my <any of them>".
RELATIONS = tuple(
    frozenset(family.split())
    for family in (
        "mother mom mum mommy mama father dad daddy papa parent parents family folks stepmom "
        "stepdad",
        "child children kid kids son sons daughter daughters toddler baby babies twins",
        "partner wife husband spouse gf bf girlfriend boyfriend fiance fiancee hubby",
        "sister sisters brother brothers sibling siblings sis bro",
        "friend friends buddy pal mate bestie",
        "coworker coworkers colleague colleagues boss manager teammate",
        "dog cat pet puppy kitten",
        "cousin aunt uncle grandma grandpa grandmother grandfather niece nephew granny gran nan "
        "nani nana nonna oma opa abuela abuelo avo",
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
    rf"(?:my\s+(?:[\w-]+\s+)?(?:{_ANY_RELATION})\b|"
    # a bare name said the way people name people: "ana from work", "joe from the gym"
    r"(?!(?:stuff|things?|people|everyone|someone|nothing|emails?|news|calls?)\b)[a-z]+\s+"
    r"from\s+(?:work|uni|school|college|class|church|yoga|the\s+(?:gym|office|team|club)|"
    r"gym|the\s+\w+\s+team)\b)"
)
# a fact stating the wish itself, or a state to come ("User will be in Lisbon until Sunday")
_OWN = re.compile(
    r"(?i)\b(?:interested|keen|ready\s+to|will|['’]ll|going\s+to|gonna|soon|upcoming|next|"
    r"future)\b"
)
# a fact that states the pursuit of a wish, not the wish come true
_PURSUIT = re.compile(
    r"(?i)\b(?:learning|studying|practi[cs]ing|training|working\s+on|saving|taking\s+lessons)\b"
)
_OF_PERSON = re.compile(r"(?i)^\s*(?:the\s+)?user\b(?!['’]s)")
_SENTENCES = re.compile(r"[.!?\n]+")
_REL_SUBJECT = re.compile(rf"(?i)^\s*(?:the\s+)?user['’]s\s+(?:[\w-]+\s+)?(?:{_ANY_RELATION})\b")
# a reason given of someone else opens a clause: "… moving to york bc callum got a job there"
_CLAUSES = re.compile(r"[;,]+|\s(?:but|so|though|although|bc|because|cause|cuz|coz)\s")
# the person as the one who does it: a subject pronoun ("our kid bo loves dinos" is Bo's)
SUBJECT_I = re.compile(
    r"(?i)(?<![\w'’])(?:i|im|i['’]m|ive|i['’]ve|i['’]d|i['’]ll|we|we['’]re|we['’]ve|we['’]ll|"
    r"myself)(?![\w'’])"
)
_OPENING = r"^\W*(?:(?:lol|lmao|also|and|oh|btw|omg|ugh|so|well|plus|haha|wow|guess\s+what)\W+)*"
# a clause opening on someone else: a relation ("our kid bo…", "my sister…"), a possessive
# ("tom's new gym…", "callums sister…"), or a name the person uses for someone ("lara is…")
_REL_OPENING = re.compile(rf"(?i){_OPENING}(?:my|our)\s+(?:[\w-]+\s+)?(?:{_ANY_RELATION})\b")
_POSSESSIVE_OPENING = re.compile(
    rf"(?i){_OPENING}([a-z]+)(?:['’]s\b|s\s+(?:[\w-]+\s+)?(?:{_ANY_RELATION})\b)"
)
_NAMED_OPENING = re.compile(
    rf"(?i){_OPENING}([a-z]+)\s+(?:is|was|has|had|got|gets|just|started|starts|moved|moves|"
    r"moving|ate|loves|likes|said|says|wants|works|lives|goes|went|took|did|does|left|quit|"
    r"bought|called|texted|brought|asked|told|made|booked|runs|plays|ran|played|used)\b"
)


def owners(message: str, names: frozenset[str] = frozenset()) -> list[tuple[str, bool]]:
    """Each clause of one message, and whether it is someone else's (module docstring): a
    clause that says neither goes on with the one before it in its sentence, or — a fragment
    of three words at most ("… had twins!!! two boys") — in the sentence before. A clause
    that opens on someone else ("our kid bo…", "tom's gym…", ``names``: "lara is…") is theirs
    unless the person is a subject of it too ("my sister and i…")."""
    out: list[tuple[str, bool]] = []
    other = False
    for sentence in _SENTENCES.split(message):
        for n, clause in enumerate(c.strip() for c in _CLAUSES.split(sentence)):
            if not clause:
                continue
            if _opens_on_other(clause, names) and not SUBJECT_I.search(clause):
                other = True
            elif FIRST_PERSON.search(clause):
                other = False
            elif SOMEONE_ELSE.search(clause):
                other = True
            elif n == 0 and len(clause.split()) > 3:
                other = False
            out.append((clause, other))
    return out


def _opens_on_other(clause: str, names: frozenset[str]) -> bool:
    """The clause opens on someone else: a relation of the person's or of another's, or a
    name the person uses for someone (``names``)."""
    if _REL_OPENING.match(clause):
        return True
    if (m := _POSSESSIVE_OPENING.match(clause)) and m[1].lower() not in STOP_WORDS | _NOT_NAMES:
        return True
    return bool((m := _NAMED_OPENING.match(clause)) and m[1].lower() in names - STOP_WORDS)


_NOT_NAMES = frozenset("what there here let who where how everything nothing life work".split())
_TITLED = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]{2,})\b")
_AFTER_RELATION = re.compile(
    rf"(?i)\b(?:my|our|his|her|their|[a-z]+['’]?s)\s+(?:[\w-]+\s+)?(?:{_ANY_RELATION})\s+([a-z]+)"
)


def people_named(texts: Iterable[str], stored: Iterable[str]) -> frozenset[str]:
    """The names the person uses for people: after a relation ("my sister lara", "callums
    sister lotte"), or written as a name (a capital mid-sentence, a stored fact's name)."""
    texts = (*texts,)
    found = {m[1].lower() for t in (*texts, *stored) for m in _AFTER_RELATION.finditer(t)}
    found |= {m[1].lower() for t in texts for m in _TITLED.finditer(t)}
    found |= {w.lower() for t in stored for w in re.findall(r"\b[A-Z][a-z]{2,}\b", t)}
    return frozenset(found - STOP_WORDS - {"user"})


def families(text: str) -> set[int]:
    said = set(words(text))
    return {i for i, family in enumerate(RELATIONS) if said & family}


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

    mine = of_person and bool(_OF_PERSON.match(fact.text))
    if (hedge := _hedge(supported, clauses, _fact_words(fact), names, mine)) is not None:
        return "hedged", f"hedged: {hedge!r}"
    if not of_person or not _OF_PERSON.match(fact.text):  # "Nora is engaged to Felix"
        return None
    if (whose := _someone_elses(fact, supported, said, names)) is not None:
        return "dropped", f"said of someone else: {whose!r}"
    if (wish := _wished(fact, supported, said, names)) is not None:
        return "hedged", f"a wish, not a fact: {wish!r}"
    if (idea := _turned_down(fact, supported, said, names)) is not None:
        return "dropped", f"an idea the person turned down: {idea!r}"
    return None


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
    people = people_named((*said.this_turn, *said.earlier), said.stored)
    clauses = [(c, other) for message in said.this_turn for c, other in owners(message, people)]
    rows = [(c, o) for c, o in clauses if names(supported, frozenset(g.bag_of([c])))]
    # its value's own clauses decide ("callum got a job at the uni" for "User got a job at the
    # uni in york"), else any clause naming its words
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
    supported: Sequence[str], clauses: Clauses, own: frozenset[str], said: Names, mine: bool
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
    if _firmly_told(own, clauses, hedged):
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
    own: frozenset[str], clauses: Clauses, hedged: Callable[[str], str | None]
) -> bool:
    """A clause that is not hedged names most of the fact's content words, two at least
    ("ivy's company has an office there" beside "thinking maybe we move to lisbon")."""
    content = {w for w in own if w not in STOP_WORDS and len(w) > 2 and not w.endswith("_")}
    content = {w for w in content if w.removesuffix("s") == w or w.removesuffix("s") not in content}
    for message in clauses:
        for clause, bag in message:
            told = {w for w in content if g.said_in(g.norm(w), bag)}
            if len(told) >= 2 and len(told) * 2 > len(content) and not hedged(clause):
                return True
    return False


# a presupposed thing split off a hedged clause (:data:`.spoken.PRESUPPOSED`)
_TAIL = re.compile(r"(?i)^(?:before|after|until|till|during|for)\s")


def hedge_in(clause: str, fact_words: frozenset[str], mine: bool = False) -> str | None:
    """The hedge of a clause, unless the fact carries it (a dream job stated as one) or, for a
    fact of the person (``mine``), it hedges what someone else does ("i think tiago's taking…")."""
    for match in HEDGE.finditer(clause):
        carried = set(words(match[0])) <= fact_words
        if not carried and not (mine and HEDGED_OTHER.match(clause, match.end())):
            return match[0]
    return None
