"""Family, friends and home told in conversation: a relative lost ("I lost my mom last year"),
years of marriage ("I've been married for ten years"), a friend of long standing ("I've been
friends with Sarah since college"), a home described before its place ("I live in a small
apartment in Brooklyn"), a field of work ("I work in marketing") and a career aimed at ("I'm
studying to become a teacher", "I want to become a published author": a goal todo).

A relative lost is written like "my mom passed away" (:mod:`.events`): the relation and its
end; "I lost my job/keys/mind" write nothing here. Their place in the rule table:
:mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.profile import _JOBS
from services.memory_upserter.extract.rules.registry import (
    _CAP,
    NAME,
    _name,
    _place,
    _relationship,
    rule,
    todo_rule,
)
from services.memory_upserter.extract.vocabulary import NAMED_BY_ROLE, NOT_NAMES

_LOST = (
    r"mom|mum|mother|dad|father|grandma|grandmother|grandpa|grandfather|grandad|granddad|granny|"
    r"husband|wife|partner|brother|sister|son|daughter|best\s+friend|aunt|uncle|cousin|dog|cat"
)


@rule(
    "lost_relative",
    rf"(?i:(?:\b(?:I|we)\s+|^\W*)(?:recently\s+|just\s+|sadly\s+)?lost\s+(?:my|our)\s+(?:beloved\s+|dear\s+|"
    rf"sweet\s+)?)"
    rf"(?P<role>(?i:{_LOST}))\b(?:\s*,?\s+{NAME})?(?!\s+(?i:in\s+the|at\s+the)\b)",
)
def _lost_relative(m: re.Match[str], out: Emitter) -> None:
    """ "I lost my mom last year": the relative, who passed away (dated by the time said)."""
    role = " ".join(m["role"].lower().split())
    name = _name(m["name"]) or NAMED_BY_ROLE.get(role) or role.capitalize()
    person = timeless_relationship(out, role, name)
    out.fact("DECEASED", f"{name}, {out.whose} {role}, passed away", subject=person,
             value="passed away", memory_type="PEOPLE", importance=3, confidence=0.8)  # fmt: skip


def timeless_relationship(out: Emitter, role: str, name: str) -> str:
    """The relation, undated: the time said is the death's, not when the relation began."""
    when, out.valid_from = out.valid_from, None
    try:
        return _relationship(out, role, name)
    finally:
        out.valid_from = when


_HIS = (
    "dad|father|grandpa|grandfather|grandad|granddad|brother|son|husband|boyfriend|uncle|nephew|"
    "stepdad|stepson"
)
_HERS = (
    "mom|mum|mother|grandma|grandmother|granny|sister|daughter|wife|girlfriend|aunt|niece|"
    "stepmom|stepdaughter"
)
_EITHER = "partner|best friend|friend|cousin|fiance|fiancé|fiancée|dog|cat|kid|child"


@rule(
    "pronoun_died",
    r"(?i:\b(?P<pron>he|she)\s+(?:just\s+|sadly\s+|recently\s+|finally\s+)?(?:passed\s+away|"
    r"died|passed(?=\s*(?:[,.;:!?]|$|\s+(?:recently|yesterday|today|last|this|on|in|a\s+few|"
    r"a\s+couple|\d|two|three|four|five|six|weeks?|months?|years?|days?)\b))))\b",
)
def _pronoun_died(m: re.Match[str], out: Emitter) -> None:
    """ "my dad... he passed away last week": the relative the pronoun stands for — the last
    one of that gender the speaker named ("my grandpa", not "my friend's dad", which is
    someone else's); nobody when none was (no guess at a person)."""
    roles = f"{_HIS if m['pron'].lower() == 'he' else _HERS}|{_EITHER}"
    said = f"{out.said_before[-400:]} {m.string[max(0, m.start() - 400) : m.start()]}"
    mentions = list(
        re.finditer(
            rf"(?i:\bmy\s+(?P<role>{roles})\b(?!'s|\s+(?:of|in\s+law)))(?:,?\s+{NAME})?", said
        )
    )
    if not mentions:
        return
    last = mentions[-1]
    role = " ".join(last["role"].lower().split())
    name = _name(last["name"]) or NAMED_BY_ROLE.get(role) or role.capitalize()
    person = timeless_relationship(out, role, name)
    out.fact("DECEASED", f"{name}, {out.whose} {role}, passed away", subject=person,
             value="passed away", memory_type="PEOPLE", importance=3, confidence=0.8)  # fmt: skip


_COUNT = r"one|two|three|four|five|six|\d"


@rule(
    "parent_of",
    rf"(?i:\bI(?:'m|\s+am)\s+an?\s+(?:single\s+|proud\s+|busy\s+|working\s+|stay-at-home\s+|"
    rf"full-time\s+|new\s+|first-time\s+)*(?:mom|mum|dad|mother|father|parent)\s+of\s+)"
    rf"(?P<n>{_COUNT})(?:\s+(?P<what>kids|boys|girls|children|sons|daughters|little\s+ones))?\b",
)
def _parent_of(m: re.Match[str], out: Emitter) -> None:
    """ "I'm a single dad of two boys", "a mom of three": the person's children."""
    what = " ".join((m["what"] or "kids").lower().split())
    n = m["n"].lower()
    text, value = f"{out.who} has {n} {what}", f"{n} {what}"
    out.fact("HAS_CHILDREN", text, value=value, memory_type="PEOPLE", fact_type="relationship",
             importance=2, confidence=0.85)  # fmt: skip


@rule(
    "a_parent",
    r"(?i:\bI(?:'m|\s+am)\s+(?:also\s+|now\s+)?an?\s+(?:(?:single|proud|busy|working|stay-at-home|"
    r"full-time|new|first-time)\s+)*(?:mom|mum|dad|mother|father|parent))"
    r"(?=\s*(?:[,.!?;]|$)|\s+(?:now|too|myself|and|so|who|to)\b)",
)
def _a_parent(m: re.Match[str], out: Emitter) -> None:
    """ "I'm a single mom", "I'm a new dad!": the person has children (how many unsaid; "a mom
    of three" is :func:`_parent_of`'s)."""
    out.fact("HAS_CHILDREN", f"{out.who} is a parent", value="children", memory_type="PEOPLE",
             fact_type="relationship", importance=2, confidence=0.75)  # fmt: skip


@rule(
    "my_n_year_old",
    r"(?i:\bmy\s+(?P<age>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"thirteen|fourteen|fifteen|sixteen|seventeen)[- ](?P<unit>year|month)[- ]old)"
    r"(?:\s+(?P<kind>(?i:son|daughter|boy|girl|kid|twins)))?"
    r"(?=\s*(?:[,.!?;]|$)|\s+(?:son|daughter|boy|girl|kid|twins|is|was|has|had|loves|just|keeps|"
    r"wants|said|asked|started|turned|and|can|will|got|gets|goes|went|won't|doesn't|still)\b)",
)
def _my_n_year_old(m: re.Match[str], out: Emitter) -> None:
    """ "My 5-year-old loves dinosaurs": a child of the person's (no name said)."""
    kind = (m["kind"] or "").lower()
    role = {"boy": "son", "girl": "daughter"}.get(kind, kind)
    age = f"{m['age'].lower()}-{m['unit'].lower()}-old"
    if role in ("son", "daughter"):
        text = f"{out.who} has a {age} {role}"
        out.fact(f"HAS_{role.upper()}", text, value=role, memory_type="PEOPLE",
                 fact_type="relationship", importance=2, confidence=0.8)  # fmt: skip
    else:
        value = "twins" if role == "twins" else f"a {age}"
        out.fact("HAS_CHILDREN", f"{out.who} has {value}", value=value, memory_type="PEOPLE",
                 fact_type="relationship", importance=2, confidence=0.8)  # fmt: skip


_SIB = (
    r"(?:an?|one|two|three|four|five|\d)\s+(?:older\s+|younger\s+|little\s+|big\s+|twin\s+)?"
    r"(?:brothers?|sisters?|siblings?)"
)


@rule(
    "siblings",
    rf"(?i:\bI(?:\s+have|'ve\s+got|\s+have\s+got)\s+)(?P<sibs>(?i:{_SIB})(?:\s*(?:,|and)\s*(?i:{_SIB}))*)\b",
)
def _siblings(m: re.Match[str], out: Emitter) -> None:
    """ "I have two brothers and a sister" (not "I have a brother named Luca": the named rules
    say more; not "I don't have a sister", which a correction restates as ended)."""
    if out.clause_said or out.valid_to is not None:
        return
    sibs = " ".join(m["sibs"].lower().split())
    out.fact("HAS_SIBLINGS", f"{out.who} has {sibs}", value=sibs, memory_type="PEOPLE",
             fact_type="relationship", importance=2, confidence=0.85)  # fmt: skip


@rule(
    "friend_named",
    rf"(?i:\bmy\s+(?:(?:old|childhood|college|school|high\s+school|close|good|dear|oldest|longtime|"
    rf"long-time|work|gym|running)\s+)*(?P<role>buddy|bestie|pal|bff|best\s+mate|mate|friend)\s*,?\s+)"
    rf"{NAME}",
)
def _friend_named(m: re.Match[str], out: Emitter) -> None:
    """ "my buddy Jake", "my bestie Sarah", "my childhood friend Tom"."""
    name = _name(m["name"])
    if name and name.lower() not in NOT_NAMES:
        _relationship(out, "friend", name)


@rule("my_divorce", r"(?i:\b(?:my|our)\s+(?:recent\s+|messy\s+|own\s+)?divorce)\b(?!['’])")
def _my_divorce(m: re.Match[str], out: Emitter) -> None:
    """ "I've been volunteering at the shelter since my divorce": the person is divorced (not
    "my parents' divorce")."""
    out.fact("MARITAL_STATUS", f"{out.who} is divorced", value="divorced", importance=2,
             confidence=0.75)  # fmt: skip


@rule("married_for", r"(?i:\bI(?:'ve|\s+have)\s+been\s+(?:happily\s+)?married)\b(?!\s+to\b)")
def _married_for(m: re.Match[str], out: Emitter) -> None:
    """ "I've been married for ten years": married, since then."""
    out.fact("MARITAL_STATUS", f"{out.who} is married", value="married", importance=2)


@rule(
    "friends_with",
    rf"(?i:\bI(?:'ve|\s+have)\s+been\s+(?:best\s+|good\s+|close\s+)?friends\s+with\s+){NAME}",
)
def _friends_with(m: re.Match[str], out: Emitter) -> None:
    """ "I've been friends with Sarah since college"."""
    name = _name(m["name"])
    if name:
        _relationship(out, "friend", name)


@rule(
    "home_described",
    rf"(?i:\b(?:I\s+(?P<verb>live|grew\s+up|was\s+raised|(?:'ve|\s+have)\s+been\s+living|'m\s+"
    rf"living|am\s+living)\s+(?:in|on)|(?P<origin>I(?:'m|\s+am)\s+(?:originally\s+)?from|I\s+come\s+"
    rf"from|my\s+home\s*town\s+is))\s+(?:an?|the)\s+)(?P<what>(?:[\w-]+\s+){{0,3}}?"
    rf"(?:town|village|city|farm|suburb|neighbou?rhood|island|place|apartment|flat|house|"
    rf"condo|studio|cottage|cabin|home))\s+(?:in|on|outside(?:\s+of)?|near)\s+(?P<the>(?i:the\s+))?"
    rf"(?P<place>{_CAP}(?:\s+{_CAP}){{0,2}})(?:\s*,\s*{_CAP})?",
)
def _home_described(m: re.Match[str], out: Emitter) -> None:
    """ "I grew up in a small town in Ohio", "I live in a small apartment in Brooklyn", "I'm
    from a small town in the Midwest"."""
    place = _place(m["place"])
    if not place:
        return
    out.entity(place, "Location")
    what = " ".join(m["what"].lower().split())
    if m["origin"]:  # "I'm from a small town in the Midwest", "my hometown is a tiny place in …"
        where = f"{'the ' if m['the'] else ''}{place}"
        out.fact("FROM", f"{out.who} is from a {what} in {where}", obj=place, importance=2,
                 confidence=0.8)  # fmt: skip
    elif re.match(r"(?i)grew|was", m["verb"]):
        text = f"{out.who} grew up in a {what} in {place}"
        out.fact("FROM", text, obj=place, importance=2, confidence=0.8)
    else:
        text = f"{out.who} lives in a {what} in {place}"
        out.fact("LIVES_IN", text, obj=place, importance=2, confidence=0.8)


_FIELDS = (
    r"marketing|sales|finance|banking|healthcare|health\s+care|tech|education|retail|"
    r"hospitality|construction|real\s+estate|insurance|IT|software|publishing|journalism|"
    r"advertising|HR|human\s+resources|customer\s+service|law|politics|fashion|film|"
    r"accounting|consulting|logistics|nursing|social\s+work|research|the\s+music\s+industry|"
    r"the\s+film\s+industry|the\s+tech\s+industry|government|engineering|design"
)


@rule(
    "works_in_field",
    rf"(?i:\bI(?:\s+(?:currently\s+|still\s+|now\s+)?work|(?:'m|\s+am)(?:\s+(?:currently|still|"
    rf"now))?(?:\s+working)?)\s+in\s+)(?P<field>(?i:{_FIELDS}))"
    rf"(?=\s*(?:[,.;:!?]|$|\s(?:at|for|and|but|so|now|as)\b))",
)
def _works_in_field(m: re.Match[str], out: Emitter) -> None:
    """ "I work in marketing at a small agency", "I'm in sales": the field of work."""
    field = " ".join(m["field"].split())
    out.fact("WORKS_IN", f"{out.who} works in {field}", value=field, importance=2, confidence=0.8)


@todo_rule(
    "career_goal",
    rf"(?i:\bI(?:'m|\s+am)\s+(?:currently\s+|still\s+|now\s+|so\s+|finally\s+)?(?:studying|training|"
    rf"working|going\s+back\s+to\s+school|ready)\s+to\s+(?:become|be)|\bI\s+(?:really\s+)?(?:want|hope|plan)\s+"
    rf"to\s+become|\bmy\s+(?:dream|goal)\s+is\s+to\s+become)\s+(?P<role>an?\s+(?:[a-z-]+\s+)"
    rf"{{0,2}}?(?:{_JOBS}|author|writer|mom|dad|mother|father|parent))(?![\w-])",
)
def _career_goal(m: re.Match[str], out: Emitter) -> None:
    """ "I'm studying to become a teacher": a goal."""
    out.todo("GOAL", f"Become {' '.join(m['role'].split())}", dated=False)


@todo_rule(
    "considering",
    r"(?i:\bI(?:'m|\s+am|'ve\s+been|\s+have\s+been)\s+(?:seriously\s+|really\s+|still\s+|also\s+)?"
    r"(?:considering|thinking\s+(?:about|of)|looking\s+into))\s+(?P<task>(?i:a\s+career\s+in|"
    r"going\s+(?:back\s+)?to\s+(?:school|college|university|grad\s+school)|"
    r"becoming\s+an?\s+|"
    r"studying|switching\s+careers|changing\s+careers|(?:opening|starting|launching|adopting|"
    r"buying|writing|publishing)\s+(?:an?|my|our|a\s+second|another)\s)[^,.;:!?]*)",
)
def _considering(m: re.Match[str], out: Emitter) -> None:
    """ "I'm considering a career in counseling": a goal the person weighs (a career, school)."""
    task = re.sub(r"\s+", " ", m["task"]).strip()
    task = re.split(r"(?i)\s+(?:and|but|so|because|since)\s+", task, maxsplit=1)[0]
    if len(task.split()) >= 2 or task.lower().endswith("careers"):
        out.todo("GOAL", f"Consider {task}", dated=False)
