"""Basic self-statements in Portuguese, Spanish, French and German (and where an Italian
speaker lives: "abito a Roma"): where the person lives,
their name, their employer, their job ("trabajo como enfermera"), a vegetarian or vegan diet
and a named pet ("tengo un perro que se llama Toby"). Anything else in those languages writes
nothing: a rule that half-reads a sentence writes a fragment, and fragments are worse than
nothing."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.registry import _name, _place, rule

_WORDS = r"[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){0,2}?"
_END = r"(?=\s*(?:[,.;:!?]|$|\s(?:e|y|et|und|mas|pero|mais|aber|com|con|avec|mit)\b))"


@rule(
    "lives_in_other",
    rf"(?i:\b(?:eu\s+)?moro\s+(?:em|no|na)|\b(?:yo\s+)?vivo\s+en|\bj'habite\s+(?:à|a|en)|"
    rf"\bje\s+vis\s+(?:à|a|en)|\bich\s+wohne\s+in|\bich\s+lebe\s+in|\b(?:io\s+)?abito\s+(?:a|in)|"
    rf"\b(?:io\s+)?vivo\s+a)\s+(?P<place>{_WORDS}){_END}",
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
    rf"(?i:\b(?:ich|und)\s+arbeite\s+bei|\bje\s+travaille\s+chez|\btrabalho\s+(?:na|no)|\btrabajo\s+en)"
    rf"\s+(?P<org>{_WORDS}){_END}",
)
def _works_at_other(m: re.Match[str], out: Emitter) -> None:
    org = m["org"].strip()
    if org and not re.match(r"(?i)(?:un|una|uma|um|une|le|la|el|der|die|das|einer?)\b", org):
        org = " ".join(w[:1].upper() + w[1:] for w in org.split())
        out.entity(org, "Org")
        out.fact("WORKS_AT", f"{out.who} works at {org}", obj=org, importance=2, confidence=0.8)


@rule(
    "job_other",
    r"(?i:\btrabajo\s+como|\btrabalho\s+como|\bje\s+suis|\bich\s+bin|\bsoy|\bsou)\s+"
    r"(?:une?\s+|una?\s+|uma?\s+)?(?P<job>enfermer[oa]|enfermeir[oa]|médic[oa]|medic[oa]|profesora?|professora?|"
    r"abogad[oa]|ingenier[oa]|engenheir[oa]|infirmière|infirmier|médecin|avocate?|ingénieure?|"
    r"krankenschwester|arzt|ärztin|lehrerin|lehrer|ingenieurin|ingenieur|anwältin|anwalt)\b",
)
def _job_other(m: re.Match[str], out: Emitter) -> None:
    job = m["job"].lower()
    out.fact("JOB_TITLE", f"{out.who} works as {job}", value=job, importance=2, confidence=0.8)


# by the first four letters: "vegano"[:5] is "vegan", which no five-letter key named (a
# KeyError that failed the whole judge on "soy vegano")
_DIETS = {"vege": "vegetarian", "végé": "vegetarian", "vega": "vegan", "véga": "vegan"}


@rule(
    "diet_other",
    r"(?i:\b(?:ich\s+bin|soy|sou|je\s+suis)\s+(?P<diet>vegetarier(?:in)?|veganer(?:in)?|"
    r"vegetarian[oa]|vegan[oa]|végétarienne|végétarien|végane|vegan))\b",
)
def _diet_other(m: re.Match[str], out: Emitter) -> None:
    diet = _DIETS[m["diet"][:4].lower()]
    out.fact("DIET", f"{out.who} is {diet}", value=diet, importance=2, confidence=0.8)


@rule(
    "pet_other",
    r"(?i:\b(?:tengo|tenho|j'ai|ich\s+habe)\s+(?:un|uma?|une?|einen|eine)\s+(?P<kind>perro|gato|"
    r"cachorro|cão|chien|chat|hund|katze)\s+(?:que\s+se\s+llama|chamad[oa]|qui\s+s'appelle|"
    r"namens|llamad[oa])|\bmi\s+(?P<kind2>perro|gato)\s+se\s+llama)\s+(?P<name>[^\W\d_][\w'-]*)",
)
def _pet_other(m: re.Match[str], out: Emitter) -> None:
    name = _name(m["name"][:1].upper() + m["name"][1:])
    if name:
        handle = out.person(name, None, "Pet")
        out.fact("HAS_PET", f"{name} is {out.whose} pet", obj=handle, memory_type="PEOPLE",
                 fact_type="relationship", importance=2, confidence=0.85)  # fmt: skip
