"""School told in conversation: what and where the person studies ("I'm studying psychology at
NYU", "I'm getting my master's in education"), the year they are in ("I'm in my final year of
college", "I'm a junior in high school") and a degree they hold ("I graduated with a degree in
nursing last year", dated then). Their place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.registry import ORG, _name, rule

_FIELD = r"(?P<field>[a-z][a-z-]+(?:\s+(?:and\s+)?[a-z][a-z-]+){0,2}?)"
_FIELD_END = (
    r"(?=\s*(?:[,.;:!?]|$)|\s+(?:at|in|and|but|so|because|now|this|next|right|tonight|today|"
    r"tomorrow|with|for)\b)"
)
# Not a field: a preposition, a pronoun or a word of manner ("studying at the library", "hard").
_NOT_FIELDS = frozenset(
    "at in on with for from the a an my our it that this hard late abroad all online now "
    "tonight today together alone again more".split()
)


@rule(
    "studying_at",
    rf"(?i:\bI(?:'m|\s+am)\s+(?:currently\s+|now\s+|still\s+)?(?:studying|majoring\s+in|doing\s+a\s+"
    rf"degree\s+in|getting\s+(?:my|a)\s+(?:bachelor'?s|master'?s|phd|degree|diploma)\s+in)\s+)"
    rf"{_FIELD}{_FIELD_END}(?:\s+(?i:at)\s+(?:the\s+)?{ORG})?",
)
def _studying_at(m: re.Match[str], out: Emitter) -> None:
    """ "I'm studying psychology at NYU": the field, and the school when named."""
    field = " ".join(m["field"].lower().split())
    if field.split()[0] in _NOT_FIELDS:
        return
    out.fact("STUDIES", f"{out.who} studies {field}", value=field, importance=2, confidence=0.8)
    school = _name(m["org"])
    if school:
        out.entity(school, "Org")
        out.fact("STUDIES_AT", f"{out.who} studies at {school}", obj=school, importance=2,
                 confidence=0.8)  # fmt: skip


@rule(
    "school_year",
    r"(?i:\bI(?:'m|\s+am)\s+(?:now\s+|currently\s+)?(?:in\s+my\s+(?P<nth>first|second|third|fourth|"
    r"final|last|senior|junior|sophomore)\s+year\s+(?:of|at|in)\s+|an?\s+(?P<grade>freshman|"
    r"sophomore|junior|senior)\s+(?:in|at)\s+)(?P<school>high\s+school|college|uni|university|"
    r"grad\s+school|med\s+school|law\s+school|nursing\s+school))\b",
)
def _school_year(m: re.Match[str], out: Emitter) -> None:
    """ "I'm in my final year of college", "I'm a junior in high school"."""
    school = " ".join(m["school"].lower().split())
    year = f"{m['nth'].lower()} year" if m["nth"] else m["grade"].lower()
    out.fact("STUDENT", f"{out.who} is in their {year} of {school}" if m["nth"] else
             f"{out.who} is a {year} in {school}", value=f"{year}, {school}", importance=2,
             confidence=0.85)  # fmt: skip


@rule(
    "degree_in",
    rf"(?i:\bI\s+(?:just\s+|recently\s+|finally\s+)?(?:graduated|finished\s+school|got\s+my\s+"
    rf"(?:degree|diploma))\s+(?:from\s+[^,.;:!?]+?\s+)?with\s+an?\s+(?:(?:bachelor'?s|master'?s|"
    rf"associate'?s)\s+)?(?:degree|diploma|ba|bs|ma|ms|phd)\s+in\s+){_FIELD}{_FIELD_END}",
)
def _degree_in(m: re.Match[str], out: Emitter) -> None:
    """ "I graduated with a degree in nursing last year": a degree the person holds."""
    field = " ".join(m["field"].lower().split())
    out.fact("DEGREE", f"{out.who} has a degree in {field}", value=field, importance=2,
             confidence=0.85)  # fmt: skip
