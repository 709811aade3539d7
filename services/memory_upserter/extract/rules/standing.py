"""Standing facts said the everyday way (issue 28, round 10): the shapes English gives them
whatever the conversation — a job got by being hired or promoted ("I got hired at Microsoft",
"promoted to team lead"), a job said with its place ("I work at a hospital as a nurse"), a
lasting condition said as an adjective or a bad joint ("I'm diabetic", "I've got a bad knee"),
a time in a place ("I've been in Denver since 2019") and a home said by the house ("my home in
Boston"). The person's people and pets are :mod:`.household`'s.

A place needs its capital; a time in a place needs "for" or "since" (a stay, not a visit).
Their place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.profile import _JOBS
from services.memory_upserter.extract.rules.registry import (
    _CAP,
    _STOP,
    ORG,
    _name,
    _place,
    rule,
)
from services.memory_upserter.extract.rules.work import _job_title


@rule(
    "hired_at",
    rf"(?i:\bI(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+)?(?:got\s+|been\s+|was\s+)?"
    rf"(?:hired|employed|taken\s+on)\s+(?:at|by)\s+(?:the\s+)?){ORG}",
)
def _hired_at(m: re.Match[str], out: Emitter) -> None:
    """ "I got hired at Microsoft last week": where the person works now."""
    org = _name(m["org"])
    if org and out.is_user:
        out.entity(org, "Org")
        out.fact("WORKS_AT", f"{out.who} works at {org}", obj=org, importance=2, confidence=0.85)


@rule(
    "promoted_to",
    rf"(?i:\bI(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:got|was|been)\s+promoted\s+to\s+"
    rf"(?:an?\s+|the\s+)?)(?P<role>(?:[a-z-]+\s+){{0,2}}?(?:{_JOBS}|lead|manager|director|"
    rf"supervisor|partner|head\s+\w+|senior\s+\w+))\b",
)
def _promoted_to(m: re.Match[str], out: Emitter) -> None:
    """ "I just got promoted to team lead": the new job title."""
    if out.is_user:
        _job_title(out, m["role"])


_WHERE = (
    r"(?:the|a|an)\s+(?:[a-z][\w-]*\s+){0,2}?(?:hospital|clinic|school|university|college|"
    r"library|bank|bakery|cafe|café|restaurant|hotel|store|shop|warehouse|factory|farm|gym|"
    r"studio|lab|firm|agency|startup|nonprofit|charity|center|centre|daycare|pharmacy|garage|"
    r"coffee\s+shop|bar|salon)"
)


@rule(
    "works_at_as",
    rf"(?i:\bI\s+(?:still\s+)?work\s+(?:at|in)\s+)(?P<place>{_WHERE})"
    rf"(?i:\s+as\s+an?\s+)(?P<role>(?:[a-z-]+\s+){{0,2}}?(?i:{_JOBS}))(?![\w-])",
)
def _works_at_as(m: re.Match[str], out: Emitter) -> None:
    """ "I work at a hospital as a nurse": the job, and where."""
    if out.is_user:
        _job_title(out, m["role"])
        place = re.sub(r"^(?:the|an?)\s", "", " ".join(m["place"].split()), flags=re.I)
        out.fact("WORKS_AT", f"{out.who} works at {m['place']}", value=place, importance=2,
                 confidence=0.75)  # fmt: skip


_ADJ_CONDITION = {"diabetic": "diabetes", "asthmatic": "asthma", "epileptic": "epilepsy",
                  "celiac": "celiac disease", "coeliac": "celiac disease", "anemic": "anemia",
                  "dyslexic": "dyslexia", "autistic": "autism", "deaf": "deafness"}  # fmt: skip


@rule(
    "condition_adjective",
    r"(?i:\bI(?:'m|\s+am)\s+(?:(?:type\s+(?P<type>[12])|pre|borderline)\s*-?\s*)?"
    r"(?P<adj>diabetic|asthmatic|epileptic|celiac|coeliac|anemic|dyslexic|autistic|deaf))\b",
)
def _condition_adjective(m: re.Match[str], out: Emitter) -> None:
    """ "I'm diabetic", "I'm type 1 diabetic": a lasting condition."""
    if out.is_user:
        what = _ADJ_CONDITION[m["adj"].lower()]
        what = f"type {m['type']} {what}" if m["type"] else what
        out.fact("CONDITION", f"{out.who} has {what}", value=what, importance=3, confidence=0.8)


@rule(
    "been_in_place",
    rf"(?i:\bI(?:'ve|\s+have)\s+been\s+(?:(?:living|based)\s+)?(?:here\s+|out\s+here\s+)?in\s+)"
    rf"(?P<place>{_CAP}(?:\s+{_CAP}){{0,2}})(?=\s+(?i:for|since)\s+(?:\d|a|an|about|almost|"
    rf"nearly|over|one|two|three|four|five|six|seven|eight|nine|ten|like|19|20))",
    raw=True,
)
def _been_in_place(m: re.Match[str], out: Emitter) -> None:
    """ "I've been in Denver since 2019", "I've been living here in Berlin for 2 years": where
    the person lives, since then."""
    place = _place(m["place"])
    if place and out.is_user:
        out.entity(place, "Location")
        out.fact("LIVES_IN", f"{out.who} lives in {place}", obj=place, importance=2,
                 confidence=0.85)  # fmt: skip


@rule(
    "my_home_in",
    rf"(?i:\bmy\s+(?:own\s+|little\s+|new\s+)?(?:home|house|apartment|flat|condo)\s+"
    rf"(?:is\s+)?(?:in|here\s+in)\s+)(?P<place>{_CAP}(?:\s+{_CAP}){{0,2}})"
    rf"(?:(?=\s+(?:is|was|has|where)\b)|{_STOP})",
)
def _my_home_in(m: re.Match[str], out: Emitter) -> None:
    """ "My home in Boston is small but cozy": where the person lives."""
    place = _place(m["place"])
    if place and out.is_user and not re.search(r"(?i)\b(?:old|former|first|childhood)\s+$",
                                                m.string[: m.start("place") - 20]):  # fmt: skip
        out.entity(place, "Location")
        out.fact("LIVES_IN", f"{out.who} lives in {place}", obj=place, importance=2,
                 confidence=0.8)  # fmt: skip


@rule(
    "bad_body_part",
    r"(?i:\bI(?:'ve|\s+have)?\s+(?:got|have)\s+(?:a\s+)?)(?P<what>bad\s+(?:knee|back|hip|"
    r"shoulder|ankle|knees|hips)|(?:a\s+)?(?:heart|thyroid)\s+condition)\b",
)
def _bad_body_part(m: re.Match[str], out: Emitter) -> None:
    """ "I've got a bad knee so no running for me": a lasting condition."""
    if out.is_user:
        what = " ".join(m["what"].lower().split())
        out.fact("CONDITION", f"{out.who} has a {what}", value=what, importance=3, confidence=0.8)


@rule(
    "the_role_at",
    rf"(?i:\bI(?:'m|\s+am)\s+(?:now\s+)?the\s+)(?P<role>(?:(?:head|lead|assistant|general|store|"
    rf"shift|floor)\s+)?(?:manager|owner|supervisor|director|chef|baker|receptionist|"
    rf"accountant|nurse|teacher|coach|librarian))\s+(?i:at|of|for)\s+(?P<place>{_WHERE})",
)
def _the_role_at(m: re.Match[str], out: Emitter) -> None:
    """ "I'm the manager at a coffee shop": the job, and where."""
    _works_at_as(m, out)
