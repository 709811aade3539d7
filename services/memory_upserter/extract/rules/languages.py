"""Basic self-statements in Portuguese, Spanish, French and German: where the person lives,
their name and their employer. Anything else in those languages writes nothing: a rule that
half-reads a sentence writes a fragment, and fragments are worse than nothing."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.registry import _name, _place, rule

_WORDS = r"[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){0,2}?"
_END = r"(?=\s*(?:[,.;:!?]|$|\s(?:e|y|et|und|mas|pero|mais|aber|com|con|avec|mit)\b))"


@rule(
    "lives_in_other",
    rf"(?i:\b(?:eu\s+)?moro\s+(?:em|no|na)|\b(?:yo\s+)?vivo\s+en|\bj'habite\s+(?:à|a|en)|"
    rf"\bje\s+vis\s+(?:à|a|en)|\bich\s+wohne\s+in|\bich\s+lebe\s+in)\s+(?P<place>{_WORDS}){_END}",
)
def _lives_in_other(m: re.Match[str], out: Emitter) -> None:
    place = _place(m["place"])
    if place:
        out.entity(place, "Location")
        out.fact("LIVES_IN", f"{out.who} lives in {place}", obj=place, importance=2, confidence=0.8)


@rule(
    "name_other",
    rf"(?i:\bmeu\s+nome\s+é|\bme\s+llamo|\bmi\s+nombre\s+es|\bje\s+m'appelle|\bich\s+heiße|"
    rf"\bich\s+heisse|\bmein\s+name\s+ist)\s+(?P<name>[^\W\d_][\w'-]*){_END}",
)
def _name_other(m: re.Match[str], out: Emitter) -> None:
    name = _name(m["name"])
    if name and out.is_user:
        name = name[:1].upper() + name[1:]
        out.fact("NAME", f"User's name is {name}", value=name, importance=3, confidence=0.85)


@rule(
    "works_at_other",
    rf"(?i:\bich\s+arbeite\s+bei|\bje\s+travaille\s+chez|\btrabalho\s+(?:na|no)|\btrabajo\s+en)"
    rf"\s+(?P<org>{_WORDS}){_END}",
)
def _works_at_other(m: re.Match[str], out: Emitter) -> None:
    org = m["org"].strip()
    if org and not re.match(r"(?i)(?:un|una|uma|um|une|le|la|el|der|die|das|einer?)\b", org):
        org = " ".join(w[:1].upper() + w[1:] for w in org.split())
        out.entity(org, "Org")
        out.fact("WORKS_AT", f"{out.who} works at {org}", obj=org, importance=2, confidence=0.8)
