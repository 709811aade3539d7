"""Self-statements beyond home and work: name (in a greeting), age, occupation, employer,
birthplace and origin, languages, children and pets, what the person avoids eating, favourites,
what they build or train for, and where a person works. Conservative like :mod:`.rules`:
names capitalized, occupations from a word list, numbers in a plausible range."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from services.memory_upserter.rules import (
    _CAP,
    _STOP,
    NAME,
    ORG,
    PLACE,
    SUBJECT,
    THING,
    _article,
    _name,
    _place,
    _relationship,
    _subject,
    _thing,
    role_named,
    rule,
)
from services.memory_upserter.vocabulary import LANGUAGES, OCCUPATIONS, ROLES

if TYPE_CHECKING:
    from services.memory_upserter.extractor import Emitter

_JOBS = "|".join(
    [
        *sorted(OCCUPATIONS, key=len, reverse=True),
        r"[a-z]+(?:therapist|ologist|ician|ographer|engineer|developer|designer)",
    ]
)
_LANGS = "|".join(sorted(LANGUAGES, key=len, reverse=True))
_NUMBER = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_ONES = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_AGE_WORDS = rf"(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_ONES)}))?"


def _age_number(text: str) -> int:
    if text.isdigit():
        return int(text)
    tens, _, ones = text.lower().replace(" ", "-").partition("-")
    return _TENS[tens] + _ONES.get(ones, 0)


_PET_ROLES = "|".join(r for r, label in ROLES.items() if label == "PET")


@rule(
    "greeting_name",
    rf"(?i:\b(?:hi|hello|hey)(?:\s+there)?\s*[,!.]?\s+(?:I'm|I\s+am|this\s+is|"
    rf"it's))\s+{NAME}",
)
def _greeting_name(m: re.Match[str], out: Emitter) -> None:
    name = _name(m["name"])
    if name and out.is_user:
        out.fact("NAME", f"User's name is {name}", value=name, importance=3, confidence=0.9)


@rule(
    "age",
    r"(?i:\bI(?:'m|\s+am|\s+just\s+turned|\s+turned|(?:'ll|\s+will)\s+be))\s+"
    rf"(?P<age>\d{{1,3}}|{_AGE_WORDS})(?:\s+years?\s+old\b|(?=\s*(?:[,.;!?]|$|\s+(?:and|now|today|this|"
    r"but)\b)))",
)
def _age(m: re.Match[str], out: Emitter) -> None:
    age = _age_number(m["age"])
    if 3 <= age <= 110 and "'ll" not in m.group(0) and "will" not in m.group(0).lower():
        out.fact(
            "AGE", f"{out.who} is {age} years old", value=str(age), importance=2, confidence=0.9
        )


@rule(
    "occupation",
    rf"(?i:\bI(?:'m|\s+am)\s+(?:now\s+|currently\s+|still\s+)?an?\s+)"
    rf"(?P<role>(?:(?:[a-z-]+)\s+){{0,2}}?(?i:{_JOBS}))(?![\w-])"
    rf"(?:\s+(?i:at|for|with)\s+{ORG})?",
)
def _occupation(m: re.Match[str], out: Emitter) -> None:
    role = " ".join(m["role"].lower().split())
    if re.match(
        r"(?:big|huge|real|total|bit|little|good|bad|terrible|great|former|future|"
        r"wannabe|aspiring|retired|ex|fan)\b",
        role,
    ):
        return
    out.fact(
        "JOB_TITLE",
        f"{out.who} works as {_article(role)}",
        value=role,
        importance=2,
        confidence=0.85,
    )
    org = _name(m["org"])
    if org:
        out.entity(org, "Org")
        out.fact("WORKS_AT", f"{out.who} works at {org}", obj=org, importance=2, confidence=0.85)


@rule(
    "employer",
    rf"(?i:\bI(?:\s+(?:just\s+|recently\s+)?joined|\s+started\s+(?:working\s+)?at|"
    rf"(?:'ve|\s+have)?\s+got\s+a\s+(?:new\s+)?job\s+(?:at|with)|'m\s+employed\s+"
    rf"(?:at|by)|\s+am\s+employed\s+(?:at|by)|\s+now\s+work\s+(?:at|for))|\bmy\s+"
    rf"(?:company|employer)\s+is)\s+(?:the\s+)?{ORG}",
)
def _employer(m: re.Match[str], out: Emitter) -> None:
    org = _name(m["org"])
    if org:
        out.entity(org, "Org")
        out.fact("WORKS_AT", f"{out.who} works at {org}", obj=org, importance=2, confidence=0.85)


@rule("worked_since", rf"(?i:\bI(?:'ve|\s+have)\s+worked\s+(?:at|for)\s+(?:the\s+)?){ORG}")
def _worked_since(m: re.Match[str], out: Emitter) -> None:
    """ "I've worked at Acme" is current only when dated ("for 5 years", "since 2019")."""
    if out.valid_from is not None:
        _employer(m, out)


@rule(
    "born_in",
    rf"(?i:\bI\s+was\s+born\s+(?:and\s+raised\s+)?in)\s+(?:(?P<year>(?:19|20)\d\d)\b|"
    rf"{PLACE})",
    raw=True,
)
def _born_in(m: re.Match[str], out: Emitter) -> None:
    if m["year"]:
        out.fact(
            "BIRTH_YEAR",
            f"{out.who} was born in {m['year']}",
            value=m["year"],
            importance=2,
            confidence=0.9,
        )
        return
    place = _place(m["place"])
    if place and not re.match(r"(?i)(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)", place):
        out.entity(place, "Location")
        out.fact(
            "BORN_IN", f"{out.who} was born in {place}", obj=place, importance=2, confidence=0.9
        )


@rule(
    "home_is",
    rf"(?i:\b(?:my\s+)?home(?:\s+base)?\s+is(?:\s+in)?)\s+(?P<place>{_CAP}[^,.;:!?]*?)"
    rf"{_STOP}",
)
def _home_is(m: re.Match[str], out: Emitter) -> None:
    place = _place(m["place"])
    if place:
        out.entity(place, "Location")
        out.fact(
            "LIVES_IN", f"{out.who} lives in {place}", obj=place, importance=2, confidence=0.85
        )


@rule(
    "from",
    rf"(?i:\bI(?:'m|\s+am)\s+(?:originally\s+)?from|\bI\s+grew\s+up\s+in|\bI\s+come\s+"
    rf"from)\s+(?P<place>{_CAP}[^,.;:!?]*?(?:,\s*{_CAP})?){_STOP}",
)
def _from(m: re.Match[str], out: Emitter) -> None:
    place = _place(m["place"])
    if place:
        out.entity(place, "Location")
        out.fact("FROM", f"{out.who} is from {place}", obj=place, importance=2, confidence=0.85)


@rule(
    "speaks",
    rf"(?i:\bI(?:\s+(?:also\s+)?speak|\s+am\s+fluent\s+in|'m\s+fluent\s+in)|\bmy\s+"
    rf"(?:native\s+language|mother\s+tongue|first\s+language)\s+is)\s+"
    rf"(?i:(?:a\s+(?:bit|little)\s+of|some|fluent|basic|decent|good)\s+)?"
    rf"(?P<langs>(?:{_LANGS})(?:(?:\s*,\s*|\s+and\s+|\s+(?i:a\s+bit\s+of)\s+)"
    rf"(?:{_LANGS}))*)\b",
)
def _speaks(m: re.Match[str], out: Emitter) -> None:
    for lang in re.findall(_LANGS, m["langs"]):
        out.fact("SPEAKS", f"{out.who} speaks {lang}", value=lang, confidence=0.9)


@rule("learning", rf"(?i:\bI(?:'m|\s+am)\s+(?:currently\s+)?learning)\s+(?P<lang>{_LANGS})\b")
def _learning(m: re.Match[str], out: Emitter) -> None:
    out.fact("LEARNING", f"{out.who} is learning {m['lang']}", value=m["lang"], confidence=0.85)


@rule(
    "have_named",
    rf"(?i:\b(?:I|we)(?:\s+have|'ve\s+got|\s+have\s+got|\s+got|'ve)\s+an?\s+(?:new\s+|little\s+|"
    rf"older\s+|younger\s+|big\s+|baby\s+)?)(?P<role>[a-z-]+)(?:\s*,\s*|\s+)"
    rf"(?i:named|called)\s+{NAME}",
)
def _have_named(m: re.Match[str], out: Emitter) -> None:
    name = _name(m["name"])
    if name and m["role"].lower() in ROLES:
        _relationship(out, m["role"], name)


rule(
    "my_role_is",
    rf"(?i:\b(?:my|our)\s+(?:new\s+)?(?P<role>{'|'.join(map(re.escape, ROLES))})"
    rf"(?:'s\s+name)?\s+is\s+(?:called\s+|named\s+)?){NAME}(?!\s+(?i:years|and\s+I))",
)(role_named)
rule("our_pet", rf"(?i:\bour\s+(?P<role>{_PET_ROLES}))(?:\s*,\s*|\s+){NAME}")(role_named)


@rule(
    "have_pet",
    r"(?i:\b(?:I|we)(?:\s+have|'ve\s+got|\s+have\s+got|\s+own)\s+(?P<n>an?|two|three|four)\s+"
    r"(?P<pet>dog|cat|puppy|kitten|parrot|hamster|rabbit|bunny|horse|turtle|"
    r"fish|snake|bird)s?)\b(?!\s*(?:,\s*)?(?i:named|called|allerg))",
)
def _have_pet(m: re.Match[str], out: Emitter) -> None:
    out.fact(
        "HAS_PET",
        f"{out.who} has {m['n'].lower()} {m['pet'].lower()}",
        value=m["pet"].lower(),
        memory_type="PEOPLE",
        fact_type="relationship",
        importance=1,
        confidence=0.85,
    )


@rule(
    "children",
    r"(?i:\b(?:I|we)\s+(?:have|'ve\s+got|have\s+got)\s+(?P<n>an?|one|two|three|four|five|"
    r"six|\d)\s+(?:little\s+|young\s+|grown\s+)?(?P<what>kids?|children|child|sons?|"
    r"daughters?|grandchildren|grandkids)\b)(?!\s*(?:,\s*)?(?i:named|called))",
)
def _children(m: re.Match[str], out: Emitter) -> None:
    n = m["n"].lower()
    count = 1 if n in ("a", "an", "one") else _NUMBER.get(n) or int(n)
    what = m["what"].lower()
    out.fact(
        "HAS_CHILDREN",
        f"{out.who} has {count} {what}",
        value=f"{count} {what}",
        memory_type="PEOPLE",
        fact_type="relationship",
        importance=2,
        confidence=0.85,
    )


@rule("married_to", rf"(?i:\bI(?:'m|\s+am)\s+(?:happily\s+)?(?:married|engaged)\s+to)\s+{NAME}")
def _married_to(m: re.Match[str], out: Emitter) -> None:
    name = _name(m["name"])
    if name:
        _relationship(out, "spouse", name)


@rule(
    "avoids",
    rf"(?i:\bI\s+(?:don't|do\s+not|can't|cannot|never)\s+eat)\s+"
    rf"(?P<food>meat|pork|beef|fish|seafood|dairy|eggs|gluten|sugar|chicken|"
    rf"animal\s+products|red\s+meat|shellfish|nuts|peanuts){_STOP}",
)
def _avoids(m: re.Match[str], out: Emitter) -> None:
    food = m["food"].lower()
    out.fact(
        "AVOIDS",
        f"{out.who} doesn't eat {food}",
        value=food,
        fact_type="preference",
        importance=2,
        confidence=0.85,
    )


@rule(
    "favorite",
    rf"(?i:\bmy\s+(?:all[- ]time\s+)?favou?rite\s+)(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+"
    rf"(?i:is|are)\s+{THING}",
)
def _favorite(m: re.Match[str], out: Emitter) -> None:
    thing, kind = _thing(m["thing"]), m["kind"].lower()
    if thing:
        out.fact(
            "FAVORITE",
            f"{out.who}'s favorite {kind} is {thing}",
            value=f"{kind}: {thing}",
            fact_type="preference",
            confidence=0.8,
        )


@rule(
    "fan_of",
    rf"(?i:\bI(?:'m|\s+am)\s+(?:a\s+(?:huge|big|massive)\s+fan\s+of|really\s+into|into|"
    rf"passionate\s+about|obsessed\s+with))\s+{THING}",
)
def _fan_of(m: re.Match[str], out: Emitter) -> None:
    thing = _thing(m["thing"])
    if thing:
        out.fact(
            "LIKES", f"{out.who} likes {thing}", value=thing, fact_type="preference", confidence=0.7
        )


@rule(
    "building",
    r"(?i:\bI(?:'m|\s+am)\s+(?:currently\s+|still\s+)?(?:building|writing|developing|"
    r"making|launching|starting)\s+(?:a\s+|an\s+|my\s+|our\s+)?(?:own\s+|new\s+)?)"
    r"(?P<thing>(?:[a-z-]+\s+){0,3}?(?:app|book|novel|startup|business|company|"
    r"website|game|podcast|blog|album|thesis|course|platform|tool|shop|store|"
    r"house|garden|channel))\b",
)
def _building(m: re.Match[str], out: Emitter) -> None:
    thing = m["thing"].strip()
    project = out.entity(thing, "Project")
    out.fact(
        "WORKS_ON",
        f"{out.who} is working on {_article(thing)}",
        obj=project,
        memory_type="PROJECT",
        importance=2,
        confidence=0.8,
    )


@rule(
    "training_for",
    r"(?i:\bI(?:'m|\s+am)\s+(?:currently\s+|now\s+)?(?:training|preparing)\s+for)\s+"
    r"(?:a\s+|an\s+|the\s+|my\s+(?:first\s+)?)?(?P<event>[^,.;:!?]{3,60}?)"
    r"(?=\s*(?:[,.;:!?]|$|\s(?:and|but|so|because|with|next|this|in)\b))",
)
def _training_for(m: re.Match[str], out: Emitter) -> None:
    event = m["event"].strip()
    out.fact(
        "TRAINING_FOR",
        f"{out.who} is training for {_article(event)}",
        value=event,
        memory_type="PROJECT",
        importance=2,
        confidence=0.8,
    )
    out.todo("GOAL", f"Complete {_article(event)}", dated=False)


@rule(
    "staying_in",
    rf"(?i:\bI(?:'m|\s+am)\s+(?:staying|visiting|travelling|traveling|in\s+town)"
    rf"(?:\s+(?:in|at))?)\s+(?P<place>{_CAP}[^,.;:!?]*?){_STOP}",
)
def _staying_in(m: re.Match[str], out: Emitter) -> None:
    place = _place(m["place"])
    if place:
        out.entity(place, "Location")
        out.fact("STAYING_IN", f"{out.who} is staying in {place}", obj=place, confidence=0.85)


@rule(
    "person_works_in",
    rf"{SUBJECT}\s+(?i:works|is\s+working)(?:\s+(?i:with\s+me))?\s+(?i:in)\s+"
    rf"(?P<place>{_CAP}[^,.;:!?]*?){_STOP}",
)
def _person_works_in(m: re.Match[str], out: Emitter) -> None:
    place = _place(m["place"])
    person = _subject(m, out) if place else None
    if person and place:
        out.entity(place, "Location")
        out.fact(
            "WORKS_IN",
            f"{person} works in {place}",
            subject=person,
            obj=place,
            memory_type="PEOPLE",
            confidence=0.85,
        )
