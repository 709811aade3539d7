"""Work told in conversation: a job got or held ("I got a temp job", "a new job as a nurse at
the city hospital", "I started working at the hospital last year", "I've been working as a
software engineer for about five years", "I've been a teacher for 15 years", "I've been at
Google for 5 years" — dated then), jobs the occupation list does not name ("a professional
basketball player", "a content creator") and a workplace said in passing ("my job at the
bank"; never "lost my job at …"). "I quit my job" is an ending (the corpora's label), not a
new fact. A status said alone ("I'm retired", "a stay-at-home mom") is left to the everyday
rules: written here it cost a held-out false write in the
Telegram corpus. Their place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.profile import _JOBS
from services.memory_upserter.extract.rules.registry import ORG, _article, _name, rule

_KIND = r"(?:temp|temporary|part-time|part\s+time|full-time|full\s+time|summer|second|side|new)"
_JOB = rf"(?P<role>(?:[a-z-]+\s+){{0,2}}?(?i:{_JOBS}))(?![\w-])"
_WORKPLACE = (
    r"(?P<place>(?:the|a|an)\s+(?:[a-z][\w-]*\s+){0,3}?(?:hospital|clinic|school|university|"
    r"college|library|museum|bank|bakery|cafe|café|restaurant|hotel|store|shop|warehouse|"
    r"factory|farm|gym|studio|lab|company|firm|agency|startup|nonprofit|charity|center|centre|"
    r"daycare|pharmacy|newspaper|magazine|theater|theatre|office|garage|shelter|post\s+office|"
    r"supermarket|grocery\s+store|salon|airport|station))\b"
)


@rule(
    "got_a_job",
    rf"(?i:\bI(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+)?(?:(?:got|landed|found|"
    rf"took|accepted|started)\s+an?\s+(?P<kind>{_KIND}\s+)?(?:\w+\s+)?job|started\s+working|"
    rf"(?:got|landed)\s+(?P<the>the)\s+job(?!\s+done)))\b"
    rf"(?:\s+(?i:as)\s+an?\s+{_JOB})?(?:\s+(?i:at|with)\s+(?:{_WORKPLACE}|(?:the\s+)?{ORG}))?",
)
def _got_a_job(m: re.Match[str], out: Emitter) -> None:
    """ "I got a temp job to help cover expenses", "I just got a job as a nurse at the city
    hospital", "I started working at the hospital last year": the person is employed (a plain
    "got a new job" is :mod:`.kin`'s)."""
    kind = " ".join((m["kind"] or "").lower().split())
    if m["the"]:  # "I got the job!"
        out.fact("JOB_STATUS", f"{out.who} got a new job", value="employed", importance=2)
    if kind and kind != "new":
        text = f"{out.who} has {_article(kind)} job"
        out.fact("JOB_STATUS", text, value=f"{kind} job", importance=2, confidence=0.8)
    if m["role"]:
        _job_title(out, m["role"])
    _workplace(out, m)


def _job_title(out: Emitter, role: str) -> None:
    role = " ".join(role.lower().split())
    if not re.match(r"(?:big|huge|real(?!\s+estate)|good|bad|great|former|future|aspiring|retired|"
                    r"ex)\b", role):  # fmt: skip
        out.fact("JOB_TITLE", f"{out.who} works as {_article(role)}", value=role, importance=2)


def _workplace(out: Emitter, m: re.Match[str]) -> None:
    if "place" in m.re.groupindex and m["place"]:
        place = " ".join(m["place"].split())
        out.fact("WORKS_AT", f"{out.who} works at {place}", value=re.sub(r"^(?:the|an?)\s", "",
                 place), importance=2, confidence=0.75)  # fmt: skip
    elif m["org"] and _name(m["org"]):
        org = str(_name(m["org"]))
        out.entity(org, "Org")
        out.fact("WORKS_AT", f"{out.who} works at {org}", obj=org, importance=2, confidence=0.85)


@rule(
    "working_as",
    rf"(?i:\bI(?:'ve|\s+have)\s+(?:been\s+(?:working|employed)|worked)\s+(?=as\b)|"
    rf"\bI(?:'ve|\s+have)\s+been\s+(?:working|employed)\s+|\bI(?:'m|\s+am)\s+"
    rf"(?:now\s+|currently\s+|still\s+)?working\s+)(?:(?i:as)\s+an?\s+{_JOB})?"
    rf"(?:\s*(?i:at|for|in)\s+(?:{_WORKPLACE}|(?:the\s+)?{ORG}))?",
)
def _working_as(m: re.Match[str], out: Emitter) -> None:
    """ "I've been working as a software engineer for about five years now", "I've been working
    at the hospital for three years": dated by its time."""
    if m["role"]:
        _job_title(out, m["role"])
    _workplace(out, m)


@rule(
    "been_at",
    rf"(?i:\bI(?:'ve|\s+have)\s+been\s+(?:working\s+)?at\s+(?:the\s+)?){ORG}"
    rf"(?=\s+(?i:for|since)\s+(?:\d|a|an|one|two|three|four|five|six|seven|eight|nine|ten|over|"
    rf"about|almost|nearly|19|20))",
    raw=True,
)
def _been_at(m: re.Match[str], out: Emitter) -> None:
    """ "I've been at Google for 5 years": where the person works, since then."""
    _workplace(out, m)


@rule(
    "been_a_job",
    rf"(?i:\bI(?:'ve|\s+have)\s+been\s+an?\s+){_JOB}(?=\s+(?i:for|since)\b)",
    raw=True,
)
def _been_a_job(m: re.Match[str], out: Emitter) -> None:
    """ "I've been a teacher for 15 years": the job, since then."""
    _job_title(out, m["role"])


@rule(
    "job_said_plainly",
    r"(?i:\bI(?:'m|\s+am)\s+(?:now\s+|currently\s+|still\s+)?an?\s+)(?P<role>(?:professional|pro|"
    r"semi-pro)\s+[a-z]+(?:\s+[a-z]+)?\s+player|(?:full-time\s+|part-time\s+)?(?:content\s+creator|"
    r"youtuber|streamer|influencer|real\s+estate\s+agent|realtor|"
    r"small\s+business\s+owner|business\s+owner|entrepreneur|freelancer|contractor))\b",
)
def _job_said_plainly(m: re.Match[str], out: Emitter) -> None:
    """ "I'm a professional basketball player", "a content creator": jobs the occupation list
    does not name."""
    role = " ".join(m["role"].lower().split())
    _job_title(out, role)


@rule(
    "retrained_as",
    rf"(?i:\bI(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:retrained|requalified|"
    rf"qualified|re-?trained)\s+as\s+an?\s+){_JOB}",
)
def _retrained_as(m: re.Match[str], out: Emitter) -> None:
    """ "i'm not a nurse anymore, i retrained as a paramedic": the new job title."""
    _job_title(out, m["role"])


@rule(
    "my_job_at",
    rf"(?i:\bmy\s+(?:(?:new|current|day|full-time|part-time|regular)\s+)?job\s+(?:at|with)\s+)"
    rf"(?:{_WORKPLACE}|(?:the\s+)?{ORG})",
)
def _my_job_at(m: re.Match[str], out: Emitter) -> None:
    """ "My job at the bank keeps me busy": where the person works, said in passing; never a job
    lost or left ("I also lost my job at Door Dash")."""
    if out.is_user and not _LEFT.search(m.string[: m.start()]):
        _workplace(out, m)


_LEFT = re.compile(r"(?i)\b(?:lost|losing|quit|quitting|left|leaving|from|fired|miss|missed)\s+$")


@rule(
    "freelancing_as",
    rf"(?i:\bI(?:'ve|\s+have)\s+been\s+freelancing\s+|\bI(?:'m|\s+am)\s+(?:now\s+|currently\s+)?"
    rf"freelancing\s+|\bI\s+freelance\s+)(?i:as)\s+an?\s+{_JOB}",
)
def _freelancing_as(m: re.Match[str], out: Emitter) -> None:
    """ "I've been freelancing as a graphic designer": the job, freelance."""
    _job_title(out, m["role"])
