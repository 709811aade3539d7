"""Self-statements beyond home and work — who the person is: name (in a greeting), age,
occupation, employer, birthplace and origin, languages. Conservative like :mod:`.basics`
(whose rules come first): names capitalized, occupations from a word list,
numbers in a plausible range. Their life — family, pets, food, favourites, projects — is
:mod:`.life`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.registry import (
    _CAP,
    _STOP,
    NAME,
    ORG,
    PLACE,
    _article,
    _name,
    _place,
    rule,
)
from services.memory_upserter.extract.vocabulary import LANGUAGES, OCCUPATIONS

_JOBS = "|".join(
    [
        *sorted(OCCUPATIONS, key=len, reverse=True),
        r"[a-z]+(?:therapist|ologist|ician|ographer|engineer|developer|designer)",
    ]
)
_LANGS = "|".join(sorted(LANGUAGES, key=len, reverse=True))
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
    r"but|not)\b)))",
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
    rf"(?i:\bI(?:\s+(?:just\s+|recently\s+)?joined|\s+(?:just\s+|recently\s+)?started\s+"
    rf"(?:working\s+|a\s+(?:new\s+)?job\s+)?at|"
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
    rf"(?P<langs>(?i:{_LANGS})(?:(?:\s*,\s*|\s+(?i:and)\s+|\s+(?i:a\s+bit\s+of)\s+)"
    rf"(?i:{_LANGS}))*)\b",
)
def _speaks(m: re.Match[str], out: Emitter) -> None:
    for lang in re.findall(_LANGS, m["langs"], re.IGNORECASE):
        lang = lang.capitalize()  # "i speak portuguese": Portuguese
        out.fact("SPEAKS", f"{out.who} speaks {lang}", value=lang, confidence=0.9)


@rule(
    "learning",
    rf"(?i:\bI(?:'m|\s+am|'ve\s+been|\s+have\s+been)\s+(?:currently\s+|also\s+)?learning)\s+"
    rf"(?P<lang>(?i:{_LANGS}))\b",
)
def _learning(m: re.Match[str], out: Emitter) -> None:
    lang = m["lang"].capitalize()
    out.fact("LEARNING", f"{out.who} is learning {lang}", value=lang, confidence=0.85)
