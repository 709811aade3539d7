"""Standing facts said the everyday way (issue 28, round 10): the shapes English gives them
whatever the conversation — a pet said by having it ("we've got a pup and a kitty"), a sibling
placed in the family ("my younger sister", "my twin brother"), parents said by where they live
("my parents live in Ohio"), a spouse said by marrying them ("I married my high school
sweetheart, Dan"), a job got by being hired or promoted ("I got hired at Microsoft", "promoted
to team lead"), a job said with its place ("I work at a hospital as a nurse"), a lasting
condition said as an adjective ("I'm diabetic") and a time in a place ("I've been in Denver
since 2019"), and being married ("I'm married", "we've been married").

Conservative as :mod:`.kin`: an unnamed sibling is written only when an adjective places them
("my sister lives in Rome" says where a sister lives); a place needs its capital; a time in a
place needs "for" or "since" (a stay, not a visit). Their place in the rule table:
:mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.keeps import pet
from services.memory_upserter.extract.rules.profile import _JOBS
from services.memory_upserter.extract.rules.registry import (
    _CAP,
    _STOP,
    NAME,
    ORG,
    _article,
    _name,
    _place,
    _relationship,
    rule,
)
from services.memory_upserter.extract.rules.work import _job_title

# Pets said the familiar way; "a dog", "two cats" are read by :mod:`.keeps` and :mod:`.talk`.
_PET_WORDS = {
    "pup": "dog", "pups": "dogs", "puppies": "dogs", "doggo": "dog",
    "doggy": "dog", "kitty": "cat", "kitties": "cats", "kittens": "cats",
}  # fmt: skip
_PET = "|".join(sorted(map(re.escape, _PET_WORDS), key=len, reverse=True))
_COUNT = r"(?:an?|one|two|three|four|2|3|4)"


def _pet(out: Emitter, word: str) -> None:
    value = _PET_WORDS[" ".join(word.lower().split())]
    if any(k[0] == "user" and k[1] == "HAS_PET" for k in out.facts):
        return  # a pet written from this turn already (named, or by another rule)
    said = value if value.endswith("s") else _article(value)
    out.fact("HAS_PET", f"{out.who} has {said}", value=value, memory_type="PEOPLE",
             fact_type="relationship", importance=2, confidence=0.8)  # fmt: skip


@rule(
    "have_pets",
    rf"(?i:\b(?:I|we)(?:'ve|\s+have)?\s+(?:got|have|own|adopted|rescued)\s+{_COUNT}\s+"
    rf"(?:(?:new|little|rescue|sweet|cute|fluffy|old|baby)\s+)*)(?P<pet>(?i:{_PET}))\b"
    rf"(?![-'’]|\s+(?i:allerg|hair|food|toy|sitter|walker|lover|person|bed|litter|treat|"
    rf"door|flap|bowl|costume|video|meme|pic|photo|calendar|mug|shirt))"
    rf"(?:\s+and\s+{_COUNT}\s+(?P<pet2>(?i:{_PET}))\b)?",
)
def _have_pets(m: re.Match[str], out: Emitter) -> None:
    """ "We've got a pup and a kitty", "I have two cats": the person's pets (unnamed)."""
    if out.is_user:
        _pet(out, m["pet"])
        if m["pet2"]:
            _pet(out, m["pet2"])


_SIB_ADJ = r"little|younger|older|big|baby|twin|kid|eldest|oldest|youngest"


@rule(
    "sibling_placed",
    rf"(?i:\bmy\s+(?P<adj>{_SIB_ADJ})\s+(?P<role>brother|sister))\b(?![-'’])"
    rf"(?!\s*,?\s+{_CAP})",
)
def _sibling_placed(m: re.Match[str], out: Emitter) -> None:
    """ "My little sister just started college", "my twin brother lives in Spain": the person
    has a sibling, placed by the adjective (not "my sister lives in Rome": see the docstring)."""
    if not out.is_user or re.search(r"(?i)\bnot\b|\bthink\b|\bif\b", m.string[: m.start()]):
        return
    role, adj = m["role"].lower(), m["adj"].lower()
    adj = {"big": "older", "little": "younger", "baby": "younger", "kid": "younger"}.get(adj, adj)
    predicate = "HAS_SISTER" if role == "sister" else "HAS_BROTHER"
    if any(k[0] == "user" and k[1] == predicate and f.object for k, f in out.facts.items()):
        return
    text = f"{out.who} has {_article(adj)} {role}"
    out.fact(predicate, text, value=f"{adj} {role}", memory_type="PEOPLE",
             fact_type="relationship", importance=2, confidence=0.8)  # fmt: skip


@rule(
    "parents_live",
    rf"(?i:\bmy\s+parents\s+(?:still\s+|both\s+)?(?:live|are\s+living|moved|are\s+(?:based|back))"
    rf"\s+(?:in|to)\s+)(?P<place>{_CAP}(?:\s+{_CAP}){{0,2}}){_STOP}",
)
def _parents_live(m: re.Match[str], out: Emitter) -> None:
    """ "My parents live in Ohio": the person has parents, said with where they live (no entity
    is named after the role, as :mod:`.kin`)."""
    place = _place(m["place"])
    if place and out.is_user:
        out.fact("HAS_PARENTS", f"{out.whose} parents live in {place}", value="parents",
                 memory_type="PEOPLE", fact_type="relationship", importance=2,
                 confidence=0.8)  # fmt: skip


@rule(
    "married_someone",
    rf"(?i:\bI\s+(?:just\s+|finally\s+)?(?:married|wed)\s+(?:my\s+(?:[a-z]+\s+){{0,3}}?"
    rf"(?:sweetheart|love|partner|boyfriend|girlfriend|best\s+friend|soulmate),?\s+)?){NAME}",
)
def _married_someone(m: re.Match[str], out: Emitter) -> None:
    """ "I married my high school sweetheart, Dan, eight years ago": the person's spouse."""
    name = _name(m["name"])
    if name and out.is_user:
        _relationship(out, "spouse", name)


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
    r"studio|lab|firm|agency|startup|nonprofit|charity|center|centre|daycare|pharmacy|garage)"
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
    "married_status",
    r"(?i:\b(?:I(?:'m|\s+am)\s+(?:happily\s+)?married|we(?:'ve|\s+have)\s+been\s+married))\b"
    r"(?!\s+to\b)",
)
def _married_status(m: re.Match[str], out: Emitter) -> None:
    out.fact("MARITAL_STATUS", f"{out.who} is married", value="married", importance=2)


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
    "adopted_from_shelter",
    rf"(?i:\b(?:I|we)\s+(?:just\s+|finally\s+)?(?:adopted|rescued)\s+){NAME}"
    rf"(?=\s+(?i:from\s+(?:a|an|the|our|my)\s+(?:\w+\s+)?(?:shelter|rescue|pound|breeder)))",
)
def _adopted_from_shelter(m: re.Match[str], out: Emitter) -> None:
    """ "We adopted Bella from a shelter two years ago": a pet, named."""
    name = _name(m["name"])
    if name and out.is_user:
        kind = re.search(r"(?i)\b(dog|cat|puppy|kitten|rabbit|bunny|horse)\b", m.string)
        pet(out, kind.group(1).lower() if kind else "pet", name)
