"""What changes a person's state, said the way people say it: a job left or lost, a move
between employers, a death, a pregnancy, a wedding, a divorce or a break-up; health conditions;
what they eat; where they are until a date; what the people in their life do for a living.

A job left ("I left Acme in June", "I quit my job at Acme") is the job fact with ``valid_to``
set (the time said, else the turn); "I'm at Globex now" is the new employer only where the
sentence speaks of work or corrects. One-off events that change nothing stay with episodes.
"""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.profile import _JOBS
from services.memory_upserter.extract.rules.registry import (
    _CAP,
    _STOP,
    NAME,
    ORG,
    SUBJECT,
    _name,
    _place,
    _relationship,
    _subject,
    rule,
)
from services.memory_upserter.extract.vocabulary import NAMED_BY_ROLE, ROLES

_KIN = "|".join(sorted((re.escape(r) for r in ROLES), key=len, reverse=True))
_CONDITIONS = (
    r"asthma|(?:type\s+[12]\s+)?diabetes|adhd|add|autism|epilepsy|migraines|celiac(?:\s+disease)?|"
    r"coeliac(?:\s+disease)?|anxiety|depression|ptsd|ocd|bipolar(?:\s+disorder)?|dyslexia|"
    r"high\s+blood\s+pressure|hypertension|arthritis|ibs|crohn'?s(?:\s+disease)?|cancer|"
    r"long\s+covid|insomnia|sleep\s+apnea|endometriosis|pcos|psoriasis|eczema|lupus|"
    r"multiple\s+sclerosis|ms|a\s+heart\s+condition|tinnitus"
)
# the person's partner by the word they used ("my gf sara"): what a break-up ends besides
_DATING = ("HAS_GIRLFRIEND", "HAS_BOYFRIEND", "HAS_FIANCE")
_FOODS = r"meat|fish|pork|beef|chicken|dairy|eggs|seafood|red\s+meat|gluten|sugar"


def _ended(out: Emitter) -> None:
    """The time said ("in June") is when the fact ended; none said: the turn."""
    out.valid_to = out.valid_from or out.now
    out.valid_from = None


@rule(
    "left_job",
    rf"(?i:\bI(?:\s+(?:just\s+|finally\s+)?(?:left|quit)(?:\s+my\s+job\s+(?:at|with))?|"
    rf"\s+got\s+(?:fired|laid\s+off)\s+from|\s+was\s+(?:fired|laid\s+off)\s+from)\s+(?:the\s+)?)"
    rf"{ORG}",
)
def _left_job(m: re.Match[str], out: Emitter) -> None:
    org = _name(m["org"])
    if org:
        _ended(out)
        out.entity(org, "Org")
        out.fact("WORKS_AT", f"{out.who} worked at {org}", obj=org, importance=2, confidence=0.85)


@rule("now_at", rf"(?i:\bI(?:'m|\s+am)\s+(?:now\s+)?(?:at|with|working\s+at))\s+{ORG}")
def _now_at(m: re.Match[str], out: Emitter) -> None:
    org = _name(m["org"])
    said = out.sentence.lower()
    if org and (out.correcting or re.search(r"\b(?:left|quit|job|work|joined|moved)\b", said)):
        out.entity(org, "Org")
        out.fact("WORKS_AT", f"{out.who} works at {org}", obj=org, importance=2, confidence=0.8)


@rule(
    "job_lost",
    r"(?i:\bI(?:\s+(?:just\s+|also\s+|recently\s+)?lost\s+my\s+job|\s+(?:just\s+)?got\s+(?:laid\s+off|fired|"
    r"sacked|let\s+go)|\s+was\s+(?:laid\s+off|fired|let\s+go)|'m\s+unemployed|\s+am\s+"
    r"unemployed|'m\s+out\s+of\s+work|'m\s+(?:currently\s+)?between\s+jobs))(?!\s+from)",
)
def _job_lost(m: re.Match[str], out: Emitter) -> None:
    out.fact("JOB_STATUS", f"{out.who} lost their job", value="unemployed", importance=2)


@rule(
    "died",
    rf"(?i:\bmy\s+(?P<role>{_KIN})(?:\s+(?P<named>{_CAP}))?\s+(?:just\s+|sadly\s+)?"
    rf"(?:passed\s+away|died|passed(?=\s*(?:[,.;:!?]|$|\s+(?:recently|yesterday|today|last|this|"
    rf"on|in|a\s+few|a\s+couple|\d|two|three|four|five|six|seven|eight|nine|ten|weeks?|"
    rf"months?|years?|days?)\b))))\b",
)
def _died(m: re.Match[str], out: Emitter) -> None:
    role = m["role"].lower()
    name = _name(m["named"]) or NAMED_BY_ROLE.get(role) or role.capitalize()
    when, out.valid_from = out.valid_from, None  # the time said is the death's
    person = _relationship(out, role, name)
    out.valid_from = when
    out.fact(
        "DECEASED",
        f"{name}, {out.whose} {role}, passed away",
        subject=person,
        value="passed away",
        memory_type="PEOPLE",
        importance=3,
        confidence=0.9,
    )


@rule(
    "expecting",
    r"(?i:\b(?:(?P<self>I(?:'m|\s+am)|we(?:'re|\s+are)|I\s+are)\s+(?:expecting(?:\s+(?:a\s+baby|"
    r"our\s+(?:first\s+|second\s+|third\s+)?(?:baby|child|kid))|(?=\s*(?:[.!,;]|$)))|pregnant|"
    r"having\s+a\s+baby)|my\s+(?P<role>wife|"
    r"partner|girlfriend|fiancee|fiancée)\s+(?:is|'s)\s+(?:pregnant|expecting)|(?:I(?:'m|\s+am)|"
    r"we(?:'re|\s+are))\s+(?:going\s+to|gonna|about\s+to)\s+be\s+(?:a\s+)?(?:dad|mom|mum|"
    r"father|mother|parents?|first-time\s+(?:dad|mom|parents?)))\b)",
)
def _expecting(m: re.Match[str], out: Emitter) -> None:
    """ "We're expecting!", "my partner and I are expecting our first baby" (its clause: "I are
    expecting …"), "I'm going to be a dad!"; never "I'm expecting a call"."""
    out.fact("EXPECTING", f"{out.who} is expecting a baby", value="baby", importance=3)


@rule("person_expecting", rf"{SUBJECT}\s+(?i:is|'s)\s+(?i:pregnant|expecting\s+a\s+baby)\b")
def _person_expecting(m: re.Match[str], out: Emitter) -> None:
    """ "my colleague Maria is pregnant": the named person's news, not the user's."""
    if m["subj_role"] and not m["subj_named"] or m["pron"]:
        return  # "my sister is pregnant" names nobody: a role alone is not written here
    person = _subject(m, out)
    if person:
        out.fact("EXPECTING", f"{person} is expecting a baby", subject=person, value="baby",
                 importance=2)  # fmt: skip


@rule(
    "married",
    r"(?i:\b(?:I|we)\s+(?:just\s+|finally\s+)?got\s+(?P<what>married|divorced|engaged))\b",
)
def _married(m: re.Match[str], out: Emitter) -> None:
    what = m["what"].lower()
    if what == "divorced":
        out.fact("MARITAL_STATUS", f"{out.who} is divorced", value="divorced", importance=2)
    elif what == "married":
        out.fact("MARRIED", f"{out.who} got married", value="yes", importance=2)
    else:
        out.fact("ENGAGED", f"{out.who} got engaged", value="yes", importance=2)


@rule(
    "broke_up",
    rf"(?i:\b(?:me|I)\s+and\s+){NAME}(?i:\s+broke\s+up)\b|"
    rf"(?i:\bI(?:'m|\s+am)\s+(?P<no>no\s+longer\s+|not\s+)?(?:with|together\s+with|dating|"
    rf"seeing))\s+"
    rf"{NAME.replace('<name>', '<name2>')}(?i:\s+anymore)?(?=\s*(?:[,.;:!?]|$))",
)
def _broke_up(m: re.Match[str], out: Emitter) -> None:
    """ "me and Tom broke up", "I'm no longer with Sam": the partner, ended at the turn ("I'm
    with Sam" is how :func:`assertion.ended` restates the latter; said plainly, it writes
    nothing)."""
    name = _name(m["name"] or m["name2"])
    if name and (m["name"] or m["no"] or out.valid_to is not None):
        _ended(out)
        person = out.person(name, "partner")
        text = f"{name} was {out.whose} partner"
        out.fact("HAS_PARTNER", text, obj=person, memory_type="PEOPLE", fact_type="relationship")
        if out.is_user:  # "my gf sara" was stored as a girlfriend: that relation ends too
            out.ends.extend(f"{p} naming {name}" for p in _DATING)


@rule(
    "condition",
    rf"(?i:\bI(?:\s+have|'ve\s+got|\s+have\s+got|\s+suffer\s+from|(?:\s+was|'ve\s+been|"
    rf"\s+have\s+been|\s+got)\s+diagnosed\s+with)\s+(?P<what>{_CONDITIONS}))\b",
    raw=False,
)
def _condition(m: re.Match[str], out: Emitter) -> None:
    what = " ".join(m["what"].lower().split())
    out.fact("CONDITION", f"{out.who} has {what}", value=what, importance=3, confidence=0.9)


@rule("eats", rf"(?i:\bI\s+(?:still\s+|do\s+)?eat\s+(?P<food>{_FOODS}))\b")
def _eats(m: re.Match[str], out: Emitter) -> None:
    food = m["food"].lower()
    out.fact("EATS", f"{out.who} eats {food}", value=food, fact_type="preference", importance=2)


@rule("diet_since", r"(?i:\bI(?:'ve|\s+have)\s+been\s+(?P<diet>vegetarian|vegan|pescatarian))\b")
def _diet_since(m: re.Match[str], out: Emitter) -> None:
    diet = m["diet"].lower()
    out.fact("DIET", f"{out.who} is {diet}", value=diet, fact_type="preference", importance=2)


@rule(
    "in_until",
    rf"(?i:\b(?:I(?:'m|\s+am)\s+(?:currently\s+|still\s+)?in|(?:I(?:'m|\s+am)\s+)?working\s+"
    rf"(?:remotely\s+)?from))\s+(?P<place>{_CAP}[^,.;:!?]*?){_STOP}",
)
def _in_until(m: re.Match[str], out: Emitter) -> None:
    """ "I'm in Porto until Friday", "working from Barcelona till end of January": a stay, only
    with its end said."""
    place = _place(m["place"])
    if place and out.valid_to is not None and out.valid_to > out.now:
        out.entity(place, "Location")
        out.fact("STAYING_IN", f"{out.who} is staying in {place}", obj=place, confidence=0.85)


@rule(
    "person_job",
    rf"{SUBJECT}(?:\s+(?i:is|works\s+as)|'s)\s+(?i:an?)\s+(?P<job>(?i:{_JOBS}))\b",
)  # "she's a nurse", "my mum's a teacher"
def _person_job(m: re.Match[str], out: Emitter) -> None:
    person = _subject(m, out)
    if person:
        job = m["job"].lower()
        out.fact("JOB_TITLE", f"{person} is a {job}", subject=person, value=job, importance=1)


@rule(
    "person_new_job",
    rf"{SUBJECT}\s+(?i:(?:just\s+)?(?:got\s+a\s+(?:new\s+)?job|started(?:\s+working)?))\s+"
    rf"(?i:at|with)\s+{ORG}",
)
def _person_new_job(m: re.Match[str], out: Emitter) -> None:
    org = _name(m["org"])
    person = _subject(m, out) if org else None
    if person and org:
        out.entity(org, "Org")
        text = f"{person} works at {org}"
        out.fact("WORKS_AT", text, subject=person, obj=org, memory_type="PEOPLE", importance=2)


@rule(
    "pets_named",
    rf"(?i:\b(?:I|we)(?:\s+have|'ve\s+got|\s+have\s+got|\s+own)\s+(?:two|three|four|\d)\s+"
    rf"(?P<role>cat|dog|kitten|puppy|rabbit|bunnie|hamster|kid)s)\s*[,:]?\s+{NAME}\s+(?i:and)\s+"
    rf"(?P<other>{_CAP})",
)
def _pets_named(m: re.Match[str], out: Emitter) -> None:
    """ "we have two cats, Miso and Tofu", "I have two kids, Leo and Sofia": each by name."""
    for name in (_name(m["name"]), _name(m["other"])):
        if name:
            _relationship(out, m["role"], name)
