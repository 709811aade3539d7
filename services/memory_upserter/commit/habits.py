"""Whether a habit, a frequency or who the person is, as a fact claims it, is what the person
said (pure; one call from :mod:`.claims`: :func:`habit_unsaid`).

A habit or a frequency ("regularly", "every week", "3 times a week", ``habit``) needs a clause
of the person's naming the activity that says how often, a habitual "i <verb>", a schedule of
days or a lasting change ("i can do gym 4x a week", "i run", "switching to mon wed fri", "took
up running"), and how often when the fact says it ("every weekend" is not "last weekend"); a
one-off ("went running once", "tried yoga yesterday", "gestern … zum ersten Mal") is no habit,
and no identity either ("User is a runner"). The activity is the fact's value when the person
said it ("User goes bouldering with the lighting crew": bouldering, not the crew they went
with).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from contracts.plan import PlanFact
from services.core.when import WEEKDAYS
from services.memory_upserter.commit import grounding as g
from services.memory_upserter.commit import whose
from services.memory_upserter.commit.support import AUX, FILLER
from services.memory_upserter.text import STOP_WORDS, words

if TYPE_CHECKING:
    from services.memory_upserter.commit.grounding import Said

# a frequency or a habit, as a fact claims it and as the person says it
FREQUENCY = re.compile(
    r"(?i)\b(?:regular(?:ly)?|often|usually|normally|every|each|daily|weekly|nightly|"
    r"monthly|habit\w*|routine\w*|frequent\w*|twice|most\s+(?:days|weeks|mornings)|"
    r"times?\s+(?:a|per|each)|(?:a|per)\s+(?:day|week|month)|\d+\s*x|mornings|evenings|"
    r"nights|weekends|(?:mon|tues?|wednes|thurs?|fri|satur|sun)days)\b"
)
_HABIT_PREDICATE = re.compile(r"(?i)habit|routine|frequency|schedule")
# "i run", "we usually cook": a first person in the present, not a one-off or a wish
HABITUAL = re.compile(
    r"(?i)\b(?:i|we)\s+(?:usually\s+|normally\s+|still\s+|also\s+|always\s+)?(?!(?:am|was|"
    r"were|went|did|had|got|tried|just|think|guess|might|may|will|can|could|would|should|"
    r"wanna|want|need|hope|wish|mean|feel|love|like)\b)[a-z]+(?<!ed)\b"
)
# a one-off: "once", "tried", "went for a", "yesterday" — not a change that lasts ("took up
# running", "started at klarna", "became a dad")
ONE_OFF = re.compile(
    r"(?i)\b(?:once|one\s+time|first\s+time|tried|gave\s+\w+\s+a\s+(?:try|go|shot)|"
    r"had\s+a\s+go|went\s+for\s+an?|did\s+an?|yesterday|last\s+(?:night|week|weekend|month|"
    r"year|time)|this\s+morning|the\s+other\s+day|earlier\s+today|ago|"
    # … as said in the languages people practise with a tutor persona: "gestern … zum ersten
    # Mal", "ayer por primera vez", "ieri per la prima volta", "ontem", "wczoraj"
    r"gestern|zum\s+ersten\s+mal|ayer|(?:por|la)\s+primera\s+vez|ieri|(?:per\s+)?la\s+prima\s+"
    r"volta|(?:pour\s+)?la\s+premi[eè]re\s+fois|ontem|(?:pela\s+)?primeira\s+vez|wczoraj|"
    r"pierwszy\s+raz)\b"
)
LASTING = re.compile(
    r"(?i)\b(?:bec[ao]m\w*|start\w*|join\w*|began|begun|took\s+up|picked\s+up|got\s+into|"
    r"getting\s+into|hired|promoted|moved|graduated|married|adopted|switch\w*|now|"
    r"got\s+(?:a|an|the|my)\s+(?:new\s+)?(?:job|role|position|offer))\b"
)


def _habitual(clause: str) -> bool:
    """The clause says how often, or that it is a habit: "4x a week", "i run", "took up yoga",
    a schedule of days ("switching to mon wed fri")."""
    return any(p.search(clause) for p in (FREQUENCY, HABITUAL, LASTING)) or _days(clause)


# a day that recurs, said once: "the saturday swim", "a weekend yoga class", "nur mittwochs"
# (in any language grounding reads: :mod:`.wordforms`), not "last weekend" or "this friday"
_ONE_DAY = re.compile(r"(?i)\b(?:last|this|next|on)\s+\w+")


def _a_day(clause: str) -> bool:
    return bool(g.bag_of([_ONE_DAY.sub(" ", clause)]) & {*WEEKDAYS, "weekend"})


def _days(clause: str) -> bool:
    """A schedule of days: "mon wed fri", "tue and thu"."""
    return len(g.bag_of([clause]) & set(WEEKDAYS)) > 1


def _one_off(clause: str) -> bool:
    return (
        bool(ONE_OFF.search(clause)) and not LASTING.search(clause) and not FREQUENCY.search(clause)
    )


# who they are or what they do ("User is a runner", "User works as a writer", "User goes
# climbing"): no one-off makes it
_IDENTITY = re.compile(
    r"(?i)^\s*(?:the\s+)?user\s+(?:(?:is|was)\s+(?:a|an)\s+|works\s+(?:as|in)\b|(?:goes|plays|"
    r"runs|climbs|hikes|swims|cycles|rides|writes|paints|does|practi[cs]es|trains|teaches|"
    r"coaches|dances|sings|bakes|skis|surfs|skates|lifts|acts|directs|films)\b)"
)


def habit_unsaid(fact: PlanFact, said: Said, said_word: whose.SaidWord) -> str | None:
    """Why a habit, frequency or identity the fact claims is not the person's: no clause naming
    its activity says how often ("renew my gym membership" for "goes to the gym regularly"),
    or each one that does tells a one-off; None otherwise."""
    habit = bool(FREQUENCY.search(fact.text) or _HABIT_PREDICATE.search(fact.predicate))
    if not habit and not _IDENTITY.match(fact.text):
        return None
    clauses = [c for text in (*said.this_turn, *said.earlier) for c in g.CLAUSES.split(text)]
    # the clauses naming its value when any does ("went bouldering w the lighting crew
    # yesterday", not "kasia from lighting carried me up the wall"), else its words
    naming = _naming(_activity(g.target_of(fact) or ""), clauses, said_word) or _naming(
        _activity(f"{g.target_of(fact) or ''} {fact.text}"), clauses, said_word
    )
    if naming and all(_one_off(c) for c in naming):
        return f"a one-off, not a habit or who they are: {naming[0].strip()[:120]!r}"
    if habit and naming and not any(_habitual(c) for c in naming):
        return f"the person said no habit or frequency: {naming[0].strip()[:120]!r}"
    # how often, when the fact says it ("every weekend"), is said in words of how often
    stated = FREQUENCY.search(fact.text)
    if stated and naming and not any(FREQUENCY.search(c) or _a_day(c) for c in naming):
        return f"the person said not how often ({stated[0]!r}): {naming[0].strip()[:120]!r}"
    return None


def _activity(text: str) -> list[str]:
    return [
        w
        for w in (g.norm(w) for w in words(text))
        if w not in STOP_WORDS | AUX and w not in FILLER and not FREQUENCY.fullmatch(w)
    ]


def _naming(activity: list[str], clauses: list[str], said_word: whose.SaidWord) -> list[str]:
    return [c for c in clauses if any(said_word(w, frozenset(g.bag_of([c]))) for w in activity)]
