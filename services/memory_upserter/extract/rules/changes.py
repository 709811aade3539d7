"""Past-tense life events that change who the person is, said the plain way: "I became a nurse
last year", "I became a dad this year", "I had a baby girl in March", "I gave birth to a healthy
boy", "I graduated from college last May", "I retired last year", "I enrolled in community
college", "I got into grad school", "I opened my own bakery downtown", "I switched careers to
nursing". Each is a state since then (dated by its time phrase, else the turn); what was done
once and changed nothing ("I passed the bar exam") stays with the episode.

A past of the person's life ("I became a teacher when I was 25, then …") is the judge's to tell
(:func:`.tone.then_spans`): a state said of it is then, not now. Their place in the rule
table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.health import _LASTING
from services.memory_upserter.extract.rules.registry import ORG, _name, rule
from services.memory_upserter.extract.rules.work import _JOB, _job_title

_SOON = r"(?:just\s+|finally\s+|recently\s+|officially\s+)*"


def _since(out: Emitter) -> None:
    out.valid_from = out.valid_from or out.now  # a change of state: since the turn at the latest


@rule(
    "became",
    rf"(?i:\bI(?:'ve|\s+have)?\s+{_SOON}(?:became|become)\s+an?\s+(?:proud\s+|new\s+|first-time\s+)?)"
    rf"(?:(?P<parent>(?i:mom|mum|mother|dad|father|parent))|(?P<grand>(?i:grandma|grandmother|"
    rf"grandpa|grandfather|grandparent))|{_JOB})\b",
)
def _became(m: re.Match[str], out: Emitter) -> None:
    """ "I became a nurse last year", "I just became a dad"."""
    _since(out)
    if m["parent"]:
        said = f"{out.who} became a {m['parent'].lower()}"
        out.fact("HAS_CHILDREN", said, value="children", memory_type="PEOPLE",
                 fact_type="relationship", importance=2, confidence=0.8)  # fmt: skip
    elif m["grand"]:
        out.fact("HAS_GRANDCHILDREN", f"{out.who} became a {m['grand'].lower()}",
                 value="grandchildren", memory_type="PEOPLE", fact_type="relationship",
                 importance=2, confidence=0.8)  # fmt: skip
    elif m["role"]:
        _job_title(out, m["role"])


@rule(
    "had_a_baby",
    rf"(?i:\b(?:I|we)(?:'ve|\s+have)?\s+{_SOON}(?:had|welcomed|gave\s+birth\s+to)\s+(?:a|our)\s+"
    rf"(?:(?:healthy|beautiful|little|new|second|third|first)\s+)*(?:(?:baby|little)\s+)?)"
    rf"(?P<kid>(?i:baby|boy|girl|son|daughter|twins))\b(?!\s+(?:shower|steps?|food|sitter|monitor)\b)",
)
def _had_a_baby(m: re.Match[str], out: Emitter) -> None:
    """ "I had a baby girl in March", "we welcomed our second son": a child since then."""
    if re.search(r"(?i)\b(?:in|on)\s+my\s+arms\b|\bholding\b", out.sentence):
        return  # "I had a baby in my arms": someone's baby held
    kid = m["kid"].lower()
    what = "a baby" if kid == "baby" else ("twins" if kid == "twins" else f"a baby {kid}")
    _since(out)
    out.fact("HAS_CHILDREN", f"{out.who} had {what}", value=what, memory_type="PEOPLE",
             fact_type="relationship", importance=2, confidence=0.8)  # fmt: skip


_SCHOOL = (
    r"(?:(?P<school>(?i:(?:high\s+school|college|university|uni|grad(?:uate)?\s+school|law\s+school|"
    r"med(?:ical)?\s+school|nursing\s+school|community\s+college|art\s+school|culinary\s+school|"
    r"business\s+school|film\s+school|the\s+academy|a\s+(?:coding\s+)?bootcamp|"
    r"(?:a|an|the)\s+(?:[a-z-]+\s+){0,2}(?:program|course|degree|master'?s|phd|mba))))\b|"
    + ORG
    + ")"
)


@rule(
    "graduated",
    rf"(?i:\bI(?:'ve|\s+have)?\s+{_SOON}graduated\s+(?:from\s+)?){_SCHOOL}",
)
def _graduated(m: re.Match[str], out: Emitter) -> None:
    """ "I graduated from college last May": a graduate since then."""
    school = _school(m)
    if school:
        _since(out)
        out.fact("GRADUATED_FROM", f"{out.who} graduated from {school}", value=school,
                 importance=2, confidence=0.8)  # fmt: skip


@rule(
    "enrolled",
    rf"(?i:\bI(?:'ve|\s+have)?\s+{_SOON}(?:enrolled\s+in|got\s+(?:accepted\s+)?into|"
    rf"(?:was|got)\s+accepted\s+(?:to|into)|started\s+(?:at\s+)?|went\s+back\s+to|"
    rf"signed\s+up\s+for)\s+){_SCHOOL}",
)
def _enrolled(m: re.Match[str], out: Emitter) -> None:
    """ "I enrolled in community college", "I got into grad school": a student since then."""
    school = _school(m)
    if school is None or re.match(r"(?i)(?:a|an|the)\s+(?:[a-z-]+\s+)*course$", school):
        return  # "signed up for a cooking course": a class (:mod:`.pastimes`)
    _since(out)
    out.fact("STUDIES_AT", f"{out.who} studies at {school}", value=school, importance=2,
             confidence=0.75)  # fmt: skip


def _school(m: re.Match[str]) -> str | None:
    if m["school"]:
        return " ".join(m["school"].lower().split())
    org = _name(m["org"])
    return org if org and not re.match(r"(?i)(?:the|a|an|it|this|that|my)$", org) else None


@rule(
    "retired",
    r"(?i:\bI(?:'ve|\s+have)?\s+" + _SOON + r"retired)\b(?!\s+(?:for\s+the\s+(?:night|day)|early\s+"
    r"to\s+bed|to\s+(?:my|the)\s+(?:room|bed|couch)))(?:\s+from\s+(?P<from>[^,.;:!?]{3,40}?))?"
    r"(?=\s*(?:[,.;:!?]|$)|\s+(?:after|last|this|in|at|when|and|but|so)\b)",
)
def _retired(m: re.Match[str], out: Emitter) -> None:
    """ "I retired last year after 30 years of teaching": retired since then."""
    _since(out)
    out.fact("JOB_STATUS", f"{out.who} is retired", value="retired", importance=2,
             confidence=0.8)  # fmt: skip


@rule(
    "opened_my_own",
    r"(?i:\b(?:I|we)(?:'ve|\s+have)?\s+"
    + _SOON
    + r"(?:opened|started|launched|founded|set\s+up)\s+"
    r"(?:my|our)\s+(?:very\s+)?own\s+)(?P<what>(?:[a-z-]+\s+){0,2}?(?:business|company|bakery|"
    r"restaurant|cafe|café|shop|store|studio|practice|firm|salon|clinic|startup|brand|label|"
    r"agency|gym|school|farm|food\s+truck|nonprofit|charity|podcast|channel|blog))\b",
)
def _opened_my_own(m: re.Match[str], out: Emitter) -> None:
    """ "I opened my own bakery downtown", "I started my own company last year"."""
    what = " ".join(m["what"].lower().split())
    _since(out)
    out.fact("RUNS", f"{out.who} runs their own {what}", value=what, importance=2,
             confidence=0.8)  # fmt: skip


@rule(
    "switched_to",
    r"(?i:\bI(?:'ve|\s+have)?\s+" + _SOON + r"(?:switched|changed)\s+careers?\s+(?:to|into)\s+)"
    r"(?P<field>[a-z][a-z -]{2,30}?)(?=\s*(?:[,.;:!?]|$)|\s+(?:after|last|this|in|and|but|so)\b)",
)
def _switched_to(m: re.Match[str], out: Emitter) -> None:
    """ "I switched careers to nursing": the field the person works in, since then."""
    field = " ".join(m["field"].split())
    _since(out)
    out.fact("WORKS_IN", f"{out.who} works in {field}", value=field, importance=2, confidence=0.75)


@rule(
    "have_had_since",
    r"(?i:\bI(?:'ve|\s+have)\s+(?:always\s+|actually\s+)?had\s+)(?P<what>(?i:" + _LASTING + r"|"
    r"anxiety|depression|ocd|ptsd|allergies|hay\s+fever))\b(?=\s+(?:since|for|ever|my\s+whole|"
    r"all\s+my)\b)",
    raw=True,
)
def _have_had_since(m: re.Match[str], out: Emitter) -> None:
    """ "I've had asthma since I was a kid", "I've had anxiety for years": a lasting condition
    (its start, when said, is the past: the condition is the person's now)."""
    what = " ".join(m["what"].lower().split())
    out.fact("CONDITION", f"{out.who} has {what}", value=what, importance=3, confidence=0.8)
