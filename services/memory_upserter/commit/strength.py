"""Whether a fact claims more than the person said (pure; one call from :mod:`.claims`:
:func:`overstated`).

Word grounding finds the fact's words; a small model then says them stronger than they were
said. Each of these is a class of such inventions:

- **A degree the person never gave** (:func:`_degree`): a degree word of the fact — best,
  closest, close, professional, pro, expert, fluent, full-time — and the word it qualifies
  need the person to have said that degree of that thing: "best friend" needs "best friend",
  "bestie" or "bff" ("my buddy tomek" is a friend, and "best man" no best friend);
  "professional dancer" needs "professional" (or "make a living") said of dance, not
  "contemporary dance speaks to me".
- **How much** (:func:`_amount`): "User naps a lot", "always", "all the time" need words of how
  much in a clause of the person's naming the thing ("basically a professional napper now" is
  none).
- **A diet from a dish** (:func:`_diet`): "User is vegan" needs the diet said of someone ("im
  vegan", "been vegetarian since 2019", "hes gone vegetarian"), not of a thing ("i made vegan
  ice cream", "my vegan diet group").
- **A thing only remarked on** (:func:`_remarked`): a fact that the person does or has
  something ("User is working on Finding Home") whose value the person named only in remarks
  on it — "Finding Home sounds really special", "must be so meaningful", "congrats on…" — is
  the other speaker's thing, not theirs.

Each verdict is weighed by the plan's shape like every claim rule (:func:`.grounding.weighed`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from contracts.plan import PlanFact
from services.memory_upserter.commit import grounding as g
from services.memory_upserter.commit import whose
from services.memory_upserter.commit.support import AUX, CLAIMS, FILLER
from services.memory_upserter.text import SENTENCES, STOP_WORDS, words

if TYPE_CHECKING:
    from services.memory_upserter.commit.grounding import Said

Verdict = tuple[Literal["dropped"], str]

# a degree and the word it qualifies: "best friend", "professional dancer", "fluent spanish"
_DEGREES = "best|closest|close|professional|pro|expert|fluent|full[- ]time"
_DEGREE = re.compile(rf"(?i)\b({_DEGREES})\s+([\w-]+)")
# the same degree said another way, fused or as a phrase ("bestie", "make a living at it")
_FUSED = {
    "best": r"bestie|besties|bff|bffs|bestfriend",
    "closest": r"bestie|besties|bff|bffs",
    "professional": r"pro|for\s+a\s+living|make\s+a\s+living|paid\s+to|career",
    "pro": r"professional\w*|for\s+a\s+living|make\s+a\s+living",
    "fluent": r"fluently|native|bilingual",
}


def overstated(fact: PlanFact, said: Said, said_word: whose.SaidWord) -> Verdict | None:
    """The verdict when the fact claims more than the person said (module docstring), with the
    reason; None when it does not."""
    texts = (*said.this_turn, *said.earlier, *said.stored)
    for rule in (_degree, _amount, _diet):
        if (reason := rule(fact, texts, said_word)) is not None:
            return "dropped", reason
    if (remark := _remarked(fact, said, said_word)) is not None:
        return "dropped", f"said only as a remark on another's: {remark[:120]!r}"
    return None


def _degree(fact: PlanFact, texts: Sequence[str], said_word: whose.SaidWord) -> str | None:
    """ "best friend" when the person never said that degree of that thing."""
    for m in _DEGREE.finditer(fact.text):
        degree, head = m[1].lower(), g.norm(m[2])
        if head in STOP_WORDS or head in AUX:
            continue  # "personal best is 1:52": no thing qualified
        if not any(_said_degree(degree, head, t, said_word) for t in texts):
            return f"the person said no {degree} {m[2]}"
    return None


def _said_degree(degree: str, head: str, text: str, said_word: whose.SaidWord) -> bool:
    fused = _FUSED.get(degree.replace("-", " "))
    for sentence in SENTENCES.split(text) if fused else ():
        # "bestie" says it alone; "make a living" says it of what the sentence names
        alone = degree in ("best", "closest")
        here = alone or said_word(head, frozenset(g.bag_of([sentence])))
        if here and re.search(rf"(?i)\b(?:{fused})\b", sentence):
            return True
    spelled = degree.replace(" ", "[- ]").replace("-", "[- ]")
    kin = whose.families(head)
    for m in re.finditer(rf"(?i)\b{spelled}\s+((?:[\w'’-]+\s+)?[\w'’-]+)", text):
        near = m[1].lower()
        if said_word(head, frozenset(g.bag_of([near]))) or kin & whose.families(near):
            return True
    return False


# how much: as a fact claims it, and as the person says it
_AMOUNT = re.compile(r"(?i)\b(?:a\s+lot|lots|all\s+the\s+time|constantly|always|non-?stop)\b")
_AMOUNT_SAID = re.compile(
    r"(?i)\b(?:a\s+lot|lots|loads|tons|a\s+ton|heaps|so\s+(?:much|many)|all\s+the\s+time|"
    r"constantly|always|every\s+(?:day|night|morning|week)|daily|non-?stop|24/7|obsess\w*|"
    r"addict\w*|never\s+stop\w*)\b"
)


def _amount(fact: PlanFact, texts: Sequence[str], said_word: whose.SaidWord) -> str | None:
    """ "User naps a lot" when no clause of the person's naming it says how much."""
    if not _AMOUNT.search(fact.text):
        return None
    thing = [
        g.norm(w)
        for w in words(_AMOUNT.sub(" ", f"{g.target_of(fact) or ''} {fact.text}"))
        if w not in STOP_WORDS | AUX and w not in FILLER
    ]
    naming = [
        c
        for t in texts
        for c in g.CLAUSES.split(t)
        if any(said_word(w, frozenset(g.bag_of([c]))) for w in thing)
    ]
    if naming and not any(_AMOUNT_SAID.search(c) for c in naming):
        return f"the person said not how much: {naming[0].strip()[:120]!r}"
    return None


_DIETS = r"vegan|vegetarian|veggie|pescatarian|pescetarian|keto|paleo|plant[- ]based"
_DIET_FACT = re.compile(rf"(?i)\b(?:is|are|went|gone)\s+(?:a\s+|an\s+)?({_DIETS})\b")
_DIET_PREDICATE = re.compile(rf"(?i)diet|{_DIETS}")


def _diet(fact: PlanFact, texts: Sequence[str], said_word: whose.SaidWord) -> str | None:
    """ "User is vegan" when the person said the diet only of a thing ("vegan ice cream")."""
    m = _DIET_FACT.search(fact.text)
    if m is None or not _DIET_PREDICATE.search(f"{fact.predicate} {m[1]}"):
        return None
    diet = m[1].lower().replace(" ", "[- ]").replace("-", "[- ]")
    of_someone = re.compile(
        rf"(?i)\b(?:i['’]?m|im|am|is|are|be|been|went|gone|go|going|turned|became|become|"
        rf"stay\w*|as\s+an?|s?he['’]?s|s?hes|they['’]?re|were)\s+(?:(?:a|an|fully|strictly|"
        rf"mostly|now|also|still|totally|full|basically)\s+)*{diet}\b|\b{diet}\s+(?:now|since|for|"
        rf"these\s+days|myself|too|btw|lol)\b|\b{diet}\s*(?:$|[.,;!?)])|"
        rf"don['’]?t\s+eat\s+(?:meat|any\s+meat|animal)"
    )
    if any(of_someone.search(t) for t in texts):
        return None
    return f"the person said {m[1]} only of a thing, no {m[1]} diet"


# a remark on someone else's thing: "sounds really special", "must be so meaningful"
_REMARK = re.compile(
    r"(?i)\b(?:sounds?|looks?|seems?)\s+(?:so\s+|really\s+|very\s+|super\s+|pretty\s+|"
    r"absolutely\s+)?(?:special|great|amazing|awesome|cool|fun|nice|interesting|lovely|"
    r"meaningful|exciting|beautiful|incredible|fantastic|wonderful|inspiring|impressive)\b|"
    r"\bmust\s+(?:be|have\s+been)\b|\bcongrat\w*|\bgood\s+luck\b|\bproud\s+of\s+you\b"
)
_FIRST_PERSON = re.compile(r"(?i)\b(?:i|i['’]m|im|i['’]ve|ive|me|my|mine|we|our|us)\b")


def _remarked(fact: PlanFact, said: Said, said_word: whose.SaidWord) -> str | None:
    """The remark, when every clause of the person's naming the fact's value remarks on it
    and says no "i", "my", "we" (a fact that the person does or has something; a home has
    its own rule)."""
    if not whose.OF_PERSON.match(fact.text) or any(c.text.search(fact.text) for c in CLAIMS):
        return None
    value = [g.norm(w) for w in words(g.target_of(fact) or "") if w not in STOP_WORDS]
    clauses = [c for t in (*said.this_turn, *said.earlier) for c in g.CLAUSES.split(t)]
    naming = [
        c for c in clauses if value and any(said_word(w, frozenset(g.bag_of([c]))) for w in value)
    ]
    if naming and all(_REMARK.search(c) and not _FIRST_PERSON.search(c) for c in naming):
        return naming[0].strip()
    return None
