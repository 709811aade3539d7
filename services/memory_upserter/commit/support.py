"""The words grounding (:mod:`.grounding`) counts as one, or as none (pure).

- :data:`FAMILIES`: standard normalisations — a word of a family supports any other of it
  ("married" ← "my husband and I", "deceased" ← "passed away", "engineer" ← "dev");
- :data:`SHORT_NAMES`: a day's, month's or holiday's short or foreign name is the name ("tue",
  "jan", "mittwochs", "natale"); :func:`dates_said`, :func:`date_supported`: the dates a
  person's words resolve to, and whether a fact's date is one of them;
- :data:`FILLER`: words that carry no claim of their own ("first place" ← "took home first");
- a liking (LIKES, LOVES_JOB, "User loves their job") needs the person's words of liking
  (:data:`LIKING`, :func:`states_liking`); a wish or goal, a home and volunteering need their
  own words too (:data:`CLAIMS`, :func:`unsaid_claim`): "so jealous" is no "wants to work at
  Google", "the Porto half marathon" no "lives in Porto", "the shelter" no "volunteers";
- a routine's day goes with its activity (:func:`routine_unsaid`): "User goes cycling on
  fridays" needs a clause naming friday *and* something else of it — "fridays off" grounds no
  cycling, even when "bike" was said turns before; "i ride tue and thu" grounds "rides on tue".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from contracts.plan import PlanFact
from services.core.calendar_words import FOREIGN_HOLIDAYS, FOREIGN_NAMES
from services.core.memory_store.keys import canonical_predicate
from services.core.when import DAY_SHORTHANDS, MONTHS, WEEKDAYS
from services.memory_upserter.commit import grounding as g
from services.memory_upserter.commit.spoken import CORRECTION, NEGATED, REFUSAL
from services.memory_upserter.extract.temporal import validity
from services.memory_upserter.text import SENTENCES, STOP_WORDS, words

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
        "education edu schooling",
        "university uni",
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
        "christmas xmas",
        "staying stay home anywhere",  # "staying home" ← "not going anywhere"
        "cycling cycle cyclist bike bikes biking bicycle",
        "healed recovered fine",
        "hour hours h hr hrs",
        "minute minutes min mins",
        "kilometre kilometres kilometer kilometers km k",
        "mile miles mi",
        "kilogram kilograms kg kilo kilos",
    )
)
LIKING_PREDICATES = frozenset(
    "LIKES LIKE LOVES LOVE ENJOYS ENJOY PREFERS PREFER HATES HATE DISLIKES DISLIKE FAN_OF "
    "INTERESTED_IN INTO".split()
)
# a bare "like" is a liking only after who likes or how much ("i like", "really like"), not
# the filler of "allergic, like carry an epipen" or "it was like 5 hours"
LIKING = re.compile(
    r"(?i)\b(?:lik(?:es|ed|ing)\b|(?:i|we|they|he|she|you|really|also|kinda|still|always|so|"
    r"totally|actually|just|do|dont|don'?t|didn'?t|would|[iw]e?['’]?d)\s+like\b|lov|enjoy|ador|prefer|fav|fan\b|into\b|obsess|addict|passion|hat(?:e|ed|es|"
    r"ing)\b|can'?t\s+stand|dislik|detest|loath|keen\s+on|fond\s+of|crazy\s+about|big\s+on|"
    r"interest|hooked|"
    # said of the thing: "oolong is great too", "their nata is the best"
    r"(?:is|are|was|were|['’]s)\s+(?:so\s+|really\s+|pretty\s+|just\s+|such\s+an?\s+)?(?:great|amazing|"
    r"awesome|the\s+best|delicious|tasty|yummy|lovely|fantastic)\b)|<3|\u2764"
)
# "User loves their job": a liking said by the fact's verb, whatever its predicate
LIKES_TEXT = re.compile(r"(?i)\b(?:likes|loves|enjoys|adores|prefers|hates|dislikes)\b")
# Words that carry no claim of their own: "first place" ← "took home first"
FILLER = frozenset("place thing things stuff lot bit kind sort".split())
# words that carry no claim of their own: auxiliaries and light verbs ("is doing a dance")
AUX = frozenset(
    """am is are was were be been being do does did doing has have had having will would can
    could should shall may might must get gets got getting go goes going currently now still
    also really just very""".split()
)
SHORT_NAMES = {
    **{name[:3]: name for name in (*WEEKDAYS, *MONTHS) if name != name[:3]},
    **DAY_SHORTHANDS,
    **{"sept": "september", **FOREIGN_NAMES, **FOREIGN_HOLIDAYS},
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


@dataclass(frozen=True)
class Claim:
    """A kind of fact the person must have put in words: by its canonical predicate or its
    text, it needs one of ``said`` in what they said."""

    name: str  # for the warning: "the person said no <name>"
    predicate: re.Pattern[str]
    text: re.Pattern[str]
    said: re.Pattern[str]


CLAIMS = (
    Claim(
        "wish or goal",
        re.compile(
            r"(?:GOALS?|WANTS?|WISH(?:ES)?|ASPIRATIONS?|AMBITIONS?|DREAMS?|DESIRES?|HOPES?|"
            r"INTENDS?|INTENTIONS?|PLANS?|BUCKET_LIST)(?:_TO|_OF|_FOR)?|\w+_GOALS?|"
            r"(?:WANTS?|WISH(?:ES)?|HOPES?|PLANS?|DREAMS?|ASPIRES?|AIMS?|INTENDS?|"
            r"WOULD_LIKE|WOULD_LOVE)_\w+"
        ),
        re.compile(
            r"(?i)\b(?:wants?|wishes|hopes|plans|aspires|aims|dreams|intends|longs|would\s+"
            r"(?:like|love))\s+(?:to|of|for)\b|\b(?:goal|ambition|aspiration)\b"
        ),
        re.compile(
            r"(?i)\b(?:want\w*|wanna|wish\w*|hop(?:e|es|ed|ing)|goals?|dream\w*|"
            r"plan(?:s|ned|ning)?|aim\w*|"
            r"aspir\w*|ambitio\w*|intend\w*|gonna|going\s+to|trying\s+to|try\s+to|"
            r"determined|keen|itching|can'?t\s+wait|bucket\s+list|someday|one\s+day|target|"
            r"resolution|would\s+(?:love|like)|[i'’]d\s+(?:love|like)|training\s+for|"
            r"prepping\s+for|preparing\s+for|working\s+(?:on|towards?)|saving\s+(?:up|for)|"
            r"sign(?:ed|ing)?\s+up|register\w*|will|i'?ll|need\s+to|have\s+to|gotta|"
            r"looking\s+(?:to|forward)|excited\s+to|eager|ready\s+to|about\s+to|decided|"
            r"committed)\b"
        ),
    ),
    Claim(
        "home",
        re.compile(
            r"LIVES(?:_IN|_AT)?|LIVE_IN|LIVING_IN|RESIDES_IN|RESIDENCE|HOME(?:TOWN|_CITY)?|"
            r"ADDRESS|NEIGHBOU?RHOOD"
        ),
        re.compile(r"(?i)\b(?:lives?|living|resides?|reside\w*|moved|hometown)\b"),
        re.compile(
            # a "home country" is an origin, not where the person lives now
            r"(?i)\b(?:liv(?:e|es|ed|ing)|mov(?:e|ed|es|ing)|relocat\w*|home(?!\s+countr)|"
            r"hometown|based|wohn\w*|zieh\w*|umzug|vivo|mudo|me\s+mud\w*|abito|trasfer\w*|"
            r"habite|d[ée]m[ée]nag\w*|mieszka\w*|"
            # "from" as an origin ("im from the uk", "rome from 2019"), not a thing's way
            # ("stolen from the garage")
            r"(?:i['’]?m|am|are|we['’]?re|originally|come|comes|came)\s+from|"
            # … nor a trip's ("driving up from oslo", "flying in from rome")
            r"(?<!up\s)(?<!in\s)(?<!over\s)(?<!down\s)(?<!back\s)(?<!driving\s)(?<!flying\s)"
            r"(?<!coming\s)(?<!train\s)(?<!drove\s)(?<!flew\s)"
            r"from(?!\s+(?:the|a|an|my|his|her|their|our|your)\b)|resid\w*|settled|born|grew\s+up|raised|flat|apartment|apt|house|rent\w*|"
            r"landlord|neighbou?r\w*|local|here\s+in|back\s+in|stay\w*|my\s+(?:city|town)|"
            r"our\s+(?:city|town)|(?:my|our|his|her|their|new|own)\s+place|commut\w*|(?:i'?m|we'?re|were)\s+(?:\w+\s+)?in|"
            # "shes on her own in hull": where someone lives alone
            r"(?:s?he['’]?s|i['’]?m|they['’]?re|lives?|living)\s+(?:all\s+)?"
            r"(?:on\s+(?:my|his|her|their)\s+own|alone)\s+in)\b"
        ),
    ),
    Claim(
        "volunteering",
        re.compile(r"\w*VOLUNTEER\w*"),
        re.compile(r"(?i)\bvolunteer"),
        re.compile(
            r"(?i)\bvolunteer\w*|\bhelp(?:s|ed|ing)?\s+(?:out|the\s+community)\b|\bgive\s+back\b|"
            r"\bmentor(?:s|ed|ing)?\b"
        ),
    ),
)


# Where a relative lives, said the short way: "at my parents in leeds", "my sister in rome".
_KIN = (
    r"(?:parents?|mom|mum|mother|dad|father|sister|brother|grandma|grandpa|grandparents|aunt|"
    r"uncle|cousin|family|folks|in-laws)"
)
RELATIVE_IN = re.compile(rf"(?i)\bmy\s+{_KIN}(?:['’]s?)?\s+(?:place\s+|house\s+)?in\s+\w")
_KIN_FACT = re.compile(rf"(?i)^\s*(?:the\s+)?user['’]s\s+{_KIN}\b|\b{_KIN}_")


def unsaid_claim(fact: PlanFact, texts: Sequence[str]) -> str | None:
    """The claim the fact makes — a liking (:func:`states_liking`), or one of :data:`CLAIMS` by
    its predicate as written (a "location" may be a studio's) or its text — that none of
    ``texts`` puts in words, if any ("liking or disliking", "wish or goal", "home",
    "volunteering")."""
    said = " \n ".join(texts)
    if states_liking(fact) and not any(LIKING.search(t) for t in _naming(fact, texts)):
        return "liking or disliking"
    if (day := routine_unsaid(fact, texts)) is not None:
        return f"{day} routine with it"
    predicate = re.sub(r"\W+", "_", fact.predicate.strip()).upper()
    for claim in CLAIMS:
        if claim.predicate.fullmatch(predicate) or claim.text.search(fact.text):
            if claim.name == "wish or goal" and _refusal_stated(fact, texts):
                continue  # "User does not want to move back" ← "… move back but nah"
            kin_home = claim.name == "home" and bool(RELATIVE_IN.search(said))
            if kin_home and _KIN_FACT.search(f"{fact.text} {fact.predicate.lower()}_"):
                continue
            # a home is said where its place is ("live in trondheim" is no home for mats in oslo)
            naming = _naming(fact, texts)  # … or a correction of where ("its actually X")
            corrects = any(CORRECTION.search(t) for t in naming)
            here = " \n ".join(naming) if claim.name == "home" and not corrects else said
            if not claim.said.search(here):
                return claim.name
    return None


def _naming(fact: PlanFact, texts: Sequence[str]) -> Sequence[str]:
    """The messages that name the fact's thing ("What made you try pottery?" for "User likes
    pottery"): a liking must be said in one of them; all of them when none does."""
    thing = [g.norm(w) for w in words(g.target_of(fact) or "") if w not in STOP_WORDS]
    naming = [t for t in texts if any(g.said_in(w, frozenset(g.bag_of([t]))) for w in thing)]
    return naming or texts


# a recurring day: "every friday", "each monday", "on fridays", "fridays", "weekends"
_DAYS = "|".join(WEEKDAYS)
ROUTINE = re.compile(rf"(?i)\b(?:every|each)\s+({_DAYS}|weekend)\b|\b({_DAYS}|weekend)s\b")


def routine_unsaid(fact: PlanFact, texts: Sequence[str]) -> str | None:
    """The day of the fact's routine when some clause of ``texts`` names it but none that
    does names anything else of the fact ("fridays off" for "User goes cycling on fridays");
    None when the fact states no routine or no clause names its day (the word count decides)."""
    found = ROUTINE.search(fact.text)
    if found is None:
        return None
    day = g.norm((found[1] or found[2]).lower())
    rest = {
        g.norm(w)
        for w in words(f"{fact.text} {fact.value or ''}")
        if w not in STOP_WORDS and w not in FILLER and g.stem(w) != g.stem(day)
    } - {"every", "each"}
    with_day = [
        bag
        for text in texts
        for clause in g.CLAUSES.split(text)
        if g.said_in(day, bag := frozenset(g.bag_of([clause])))
    ]
    if not with_day or any(g.said_in(w, bag) for bag in with_day for w in rest):
        return None
    return day


def _refusal_stated(fact: PlanFact, texts: Sequence[str]) -> bool:
    """The fact states a refusal ("User does not want to…") the person made ("… but nah")."""
    return bool(NEGATED.search(fact.text)) and any(
        REFUSAL.search(sentence) for text in texts for sentence in SENTENCES.split(text)
    )


def dates_said(texts: Iterable[str], now: datetime) -> list[date]:
    found = []
    for text in texts:
        for sentence in SENTENCES.split(text):
            when = validity(sentence, now)
            found += [d.date() for d in (when.valid_from, when.valid_to) if d is not None]
    return found


def date_supported(
    day: date, whole: bool, bag: frozenset[str], resolved: Sequence[date], today: date
) -> bool:
    """A date in a fact, against what was said: a resolved phrase give or take a day (a month
    given alone: any day of it), its own words, its weekday's name within a week of the turn
    ("starting a new job monday" → the 18th), its day of the month within a month of the turn
    ("on the 19th"), or — a month alone — the turn's own month."""
    if any(abs((day - d).days) <= 1 if whole else (d.year, d.month) == (day.year, day.month)
           for d in resolved):  # fmt: skip
        return True
    if whole and abs((day - today).days) <= 7 and WEEKDAYS[day.weekday()] in bag:
        return True
    if whole and abs((day - today).days) <= 31 and str(day.day) in bag:  # "on the 19th"
        return True
    if not whole and (day.year, day.month) == (today.year, today.month):
        return True
    month = MONTHS[day.month - 1]
    month_said = any(w in bag for w in (month, month[:3], month[:4]))
    if whole and month_said and str(day.day) in bag:
        return True
    if (not whole or day.day == 1) and month_said:
        return True
    return str(day.year) in bag and (day.month, day.day) == (1, 1)
