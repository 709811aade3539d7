"""Self-statements typed the Telegram way, that the tidier rules of :mod:`.basics` and
:mod:`.profile` miss: a name said casually ("hey, it's sam here", "call me sam"), an age without
"I'm" ("27 years old btw") or before a job ("i'm a 30 year old nurse"), and a partner met as "a
guy called Tom" ("i'm dating a guy called tom", "i'm seeing someone, his name is tom").
Conservative like the rest: a name is a word that is no common word (:data:`COMMON`)."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.profile import _JOBS
from services.memory_upserter.extract.rules.registry import (
    SUBJECT,
    _name,
    _relationship,
    _subject,
    rule,
)
from services.memory_upserter.extract.vocabulary import COMMON, NAMED_BY_ROLE

_WORD = r"[^\W\d_][\w'-]*"


def _given(word: str | None) -> str | None:
    """A typed name, capitalised; None for a common word or a role ("mom here")."""
    if not word or word.lower() in COMMON or word.lower() in NAMED_BY_ROLE:
        return None
    return _name(word[:1].upper() + word[1:])


_HI = r"(?:hey|hi|hello|hiya|yo)"


@rule(
    "name_here",
    rf"(?i:^\W*{_HI}\W+(?:it'?s|this\s+is)\s+)(?P<name>{_WORD})(?i:\s+here)?\W*$|"
    rf"(?i:^\W*(?:{_HI}\W+(?:(?:it'?s|this\s+is)\s+)?|(?:it'?s|this\s+is)\s+))(?P<name2>{_WORD})"
    r"(?i:\s+here)\W*$",
)
def _name_here(m: re.Match[str], out: Emitter) -> None:
    """ "hey, it's sam here", "it's ana here", "hi, sam here": the person's name (a greeting
    or "here" says it is one: "it's raining" is none, and "hi sam" greets the assistant)."""
    word = m["name"] or m["name2"]
    name = None if re.search(r"(?i)(?:ing|ed)$", word) else _given(word)
    if name and out.is_user:
        out.fact("NAME", f"User's name is {name}", value=name, importance=3, confidence=0.85)


@rule(
    "age_said",
    r"(?i:^\W*(?P<age>\d{1,3})\s*(?:years?\s+old|yrs?\s+old|yo|y/o)\b)|"
    rf"(?i:\bI(?:'m|\s+am)\s+an?\s+(?P<age2>\d{{1,3}})[- ]?(?:years?|yrs?)[- ]old\s+)"
    rf"(?P<job>(?i:{_JOBS}))?",
)
def _age_said(m: re.Match[str], out: Emitter) -> None:
    """ "27 years old btw", "i'm a 30 year old nurse" (its job too)."""
    age = int(m["age"] or m["age2"])
    if 3 <= age <= 110:
        out.fact("AGE", f"{out.who} is {age} years old", value=str(age), importance=2)
    if m["job"]:
        job = m["job"].lower()
        out.fact("JOB_TITLE", f"{out.who} works as a {job}", value=job, importance=2)


@rule(
    "dating_someone",
    r"(?i:\bI(?:'m|\s+am)\s+(?:dating|seeing|with|going\s+out\s+with)\s+(?:a\s+guy|a\s+girl|a\s+man|"
    r"a\s+woman|someone|somebody|this\s+guy|this\s+girl)\s*,?\s*(?:called|named|(?:and\s+)?"
    r"(?:his|her|their)\s+name\s+is)\s+)"
    rf"(?P<name>{_WORD})",
)
def _dating_someone(m: re.Match[str], out: Emitter) -> None:
    """ "i'm dating a guy called tom": Tom is the person's partner."""
    name = _given(m["name"])
    if name:
        _relationship(out, "partner", name)


# What "hi, I'm …" is followed by when it is a state, not a name.
_STATES = frozenset(
    """bored hungry sorry confused scared stressed exhausted cold hot sleepy lonely anxious
nervous excited curious lost stuck free alive awake alright good great fine well sick ill drunk
high broke home here there back out in so really very just not also still from going gonna
trying feeling looking working living new glad sad mad ok okay sure done ready late early
upset angry tired happy busy down up off on over dying starving""".split()
)


@rule(
    "introduced",
    rf"(?i:^\W*(?:hey|hi|hello|hiya|heya)\W+(?:I'm|I\s+am|this\s+is)\s+)(?P<name>{_WORD})"
    r"(?=\s*(?:[,.!]|$|\s+(?i:and|from|\d)))(?:\s*,?\s*(?P<age>\d{1,2})\b(?!\s*(?:%|am|pm|:)))?|"
    rf"(?i:^\W*(?:I'm|I\s+am)\s+)(?P<name2>{_WORD})\s*,\s*(?P<age2>\d{{1,2}})\b(?!\s*(?:%|am|pm|:))",
)
def _introduced(m: re.Match[str], out: Emitter) -> None:
    """ "hey! im sara, 25, from brazil", "hi i'm tom and i'm a nurse": the person's name (and
    the age said right after it)."""
    word, age = m["name"] or m["name2"], m["age"] or m["age2"]
    if word.lower() in _STATES or not out.is_user:
        return
    name = _given(word)
    if name:
        out.fact("NAME", f"User's name is {name}", value=name, importance=3, confidence=0.85)
        if age and 10 <= int(age) <= 99:
            out.fact("AGE", f"{out.who} is {age} years old", value=age, importance=2)


@rule(
    "person_allergic",
    rf"{SUBJECT}\s+(?i:is|'s)\s+(?i:(?:very|severely|super|really|so|seriously|deathly)\s+)?"
    r"(?i:allergic\s+to)\s+(?P<things>[^,.;!?]+?)(?=\s*(?:[,.;!?]|$|\s(?i:but|because|so|since|"
    r"though|and\s+(?:I|we|she|he))\b))",
)
def _person_allergic(m: re.Match[str], out: Emitter) -> None:
    """ "my mom is allergic to penicillin", "tom is allergic to cats": their allergy (someone
    cooked for, or cared for) — a named person or mom/dad; "she" the last one named."""
    person = _subject(m, out)
    if person is None or person == "user":
        return
    for item in re.split(r"\s*(?:,|\band\b|\bor\b)\s*", m["things"].strip()):
        item = item.strip().lower()
        if item and len(item.split()) <= 3:
            text = f"{person} is allergic to {item}"
            out.fact("ALLERGY", text, subject=person, value=item, memory_type="PEOPLE",
                     importance=2, confidence=0.85)  # fmt: skip
