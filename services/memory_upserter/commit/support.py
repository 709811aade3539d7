"""The words grounding (:mod:`.grounding`) counts as one, or as none (pure).

- :data:`FAMILIES`: standard normalisations — a word of a family supports any other of it
  ("married" ← "my husband and I", "deceased" ← "passed away", "engineer" ← "dev");
- :data:`SHORT_NAMES`: a day's or month's short name is the name ("tue", "thurs", "jan");
- :data:`FILLER`: words that carry no claim of their own ("first place" ← "took home first");
- a liking (LIKES, LOVES_JOB, "User loves their job") needs the person's words of liking
  (:data:`LIKING`, :func:`states_liking`).
"""

from __future__ import annotations

import re

from contracts.plan import PlanFact
from services.core.memory_store.keys import canonical_predicate
from services.memory_upserter.extract.when import MONTHS, WEEKDAYS

# Standard normalisations: a word of a family supports any other of it.
FAMILIES = tuple(
    frozenset(family.split())
    for family in (
        "married marry marriage spouse husband wife hubby wifey partner wed wedding newlywed",
        "deceased dead died die death passed passing lost late funeral",
        "work works working worked job employed employee career profession occupation",
        "developer dev engineer programmer coder software",
        "doctor physician gp medic",
        "lawyer attorney solicitor",
        "teacher tutor educator",
        "mother mom mum mommy mama",
        "father dad daddy papa",
        "brother bro",
        "sister sis",
        "child children kid kids son daughter",
        "boyfriend bf",
        "girlfriend gf",
        "vegetarian veggie",
        "divorced divorce separated",
        "retired retirement retire",
        "pregnant expecting",
    )
)
LIKING_PREDICATES = frozenset(
    "LIKES LIKE LOVES LOVE ENJOYS ENJOY PREFERS PREFER HATES HATE DISLIKES DISLIKE FAN_OF "
    "INTERESTED_IN INTO".split()
)
LIKING = re.compile(
    r"(?i)\b(?:lik|lov|enjoy|ador|prefer|fav|fan\b|into\b|obsess|addict|passion|hat(?:e|ed|es|"
    r"ing)\b|can'?t\s+stand|dislik|detest|loath|keen\s+on|fond\s+of|crazy\s+about|big\s+on|"
    r"interest|hooked)|<3|\u2764"
)
# "User loves their job": a liking said by the fact's verb, whatever its predicate
LIKES_TEXT = re.compile(r"(?i)\b(?:likes|loves|enjoys|adores|prefers|hates|dislikes)\b")
# Words that carry no claim of their own: "first place" ← "took home first"
FILLER = frozenset("place thing things stuff lot bit kind sort".split())
# "tue", "thurs", "sat", "jan", "sept": a day's or month's short name is the name
SHORT_NAMES = {
    **{name[:3]: name for name in (*WEEKDAYS, *MONTHS) if name != name[:3]},
    **{"tues": "tuesday", "thur": "thursday", "thurs": "thursday", "sept": "september"},
}


def states_liking(fact: PlanFact) -> bool:
    """A liking (LIKES, LOVES_JOB, FAVORITE_…), by its predicate or its text's verb ("User
    loves their job")."""
    predicate = canonical_predicate(fact.predicate)
    return (
        predicate in LIKING_PREDICATES
        or predicate.split("_", 1)[0] in LIKING_PREDICATES
        or bool(re.match(r"(?i)FAVOU?RITE", fact.predicate))
        or bool(LIKES_TEXT.search(fact.text))
    )
