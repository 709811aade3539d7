"""The person's household said the everyday way (issue 28, round 10): a pet said by having it
("we've got a pup and a kitty") or adopted by name ("we adopted Bella from a shelter"), a
sibling placed in the family ("my younger sister", "my twin brother"), parents said by where
they live or come from ("my parents live in Ohio"), a spouse said by marrying them ("I married
my high school sweetheart, Dan"), a marriage said by its anniversary, a relative said late ("my
late father"), a relation named after it is had ("I have a girlfriend, her name is Maria"), a
child born ("my wife just gave birth to our second son") and being married ("I'm married").

Conservative as :mod:`.kin`: an unnamed sibling is written only when an adjective places them
("my sister lives in Rome" says where a sister lives); no entity is named after a role. Their
place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.family import timeless_relationship
from services.memory_upserter.extract.rules.keeps import _PET_ROLES, pet
from services.memory_upserter.extract.rules.registry import (
    _CAP,
    _STOP,
    NAME,
    _article,
    _name,
    _place,
    _relationship,
    rule,
)
from services.memory_upserter.extract.vocabulary import NAMED_BY_ROLE, ROLES

# Pets said the familiar way; "a dog", "two cats" are read by :mod:`.keeps` and :mod:`.talk`.
# Pets said the familiar way; "a dog", "two cats" are read by :mod:`.keeps` and :mod:`.talk`.
_PET_WORDS = {
    "pup": "dog", "pups": "dogs", "puppies": "dogs", "doggo": "dog",
    "doggy": "dog", "kitty": "cat", "kitties": "cats", "kittens": "cats",
}  # fmt: skip
_PET = "|".join(sorted(map(re.escape, _PET_WORDS), key=len, reverse=True))
_COUNT = r"(?:an?|one|two|three|four|2|3|4)"


def _pet(out: Emitter, word: str) -> None:
    value = _PET_WORDS[" ".join(word.lower().split())]
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
    if out.is_user and not any(k[0] == "user" and k[1] == "HAS_PET" for k in out.facts):
        for word in (m["pet"], m["pet2"]):  # none if a pet was written from this turn already
            if word:
                _pet(out, word)


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
    rf"(?i:\bmy\s+parents\s+(?:still\s+|both\s+)?(?P<verb>live|are\s+living|moved|are\s+(?:based|"
    rf"back)|are\s+(?:originally\s+)?from|come\s+from)\s+(?:(?:in|to)\s+)?)"
    rf"(?P<place>{_CAP}(?:\s+{_CAP}){{0,2}}){_STOP}",
)
def _parents_live(m: re.Match[str], out: Emitter) -> None:
    """ "My parents live in Ohio": the person has parents, said with where they live (no entity
    is named after the role, as :mod:`.kin`)."""
    place = _place(m["place"])
    if place and out.is_user:
        said = "are from" if "from" in m["verb"].lower() else "live in"
        out.fact("HAS_PARENTS", f"{out.whose} parents {said} {place}", value="parents",
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
    "married_status",
    r"(?i:\b(?:I(?:'m|\s+am)\s+(?:happily\s+)?married|we(?:'ve|\s+have)\s+been\s+married))\b"
    r"(?!\s+to\b)",
)
def _married_status(m: re.Match[str], out: Emitter) -> None:
    out.fact("MARITAL_STATUS", f"{out.who} is married", value="married", importance=2)


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


_LATE = (
    "mom|mum|mother|dad|father|grandma|grandmother|grandpa|grandfather|husband|wife|brother|sister"
)


@rule("my_late", rf"(?i:\bmy\s+late\s+(?P<role>{_LATE}))\b(?:\s*,?\s+{NAME})?")
def _my_late(m: re.Match[str], out: Emitter) -> None:
    """ "My late father taught me to fish": the relative, who has passed away."""
    if not out.is_user:
        return
    role = m["role"].lower()
    name = _name(m["name"]) or NAMED_BY_ROLE.get(role) or role.capitalize()
    person = timeless_relationship(out, role, name)
    out.fact("DECEASED", f"{name}, {out.whose} {role}, passed away", subject=person,
             value="passed away", memory_type="PEOPLE", importance=3, confidence=0.8)  # fmt: skip


_NAMED_ROLES = "|".join(sorted((re.escape(r) for r in ROLES), key=len, reverse=True))


@rule(
    "have_a_role_named",
    rf"(?i:\bI\s+(?:have|'ve\s+got|have\s+got)\s+an?\s+(?:\w+\s+)?(?P<role>{_NAMED_ROLES})\s*"
    rf"(?:,|\s+and)\s+(?:his|her|their)\s+name(?:'s|\s+is)\s+){NAME}",
)
def _have_a_role_named(m: re.Match[str], out: Emitter) -> None:
    """ "I have a girlfriend, her name is Maria": the relation, named."""
    name = _name(m["name"])
    if name and out.is_user:
        _relationship(out, m["role"], name)


@rule(
    "wedding_anniversary",
    r"(?i:\b(?:our|my)\s+(?:\w+\s+)?(?:wedding\s+)?anniversary|\bour\s+(?:\w+\s+)?"
    r"wedding\s+anniversary)\b",
)
def _wedding_anniversary(m: re.Match[str], out: Emitter) -> None:
    """ "We just celebrated our 5th wedding anniversary": the person is married."""
    if out.is_user and re.search(r"(?i)wedding|married|husband|wife", m.string):
        out.fact("MARITAL_STATUS", f"{out.who} is married", value="married", importance=2)


_BORN = {"son": "son", "boy": "son", "daughter": "daughter", "girl": "daughter"}


@rule(
    "gave_birth",
    r"(?i:\b(?:I|my\s+(?:wife|partner|girlfriend))\s+(?:just\s+|recently\s+)?gave\s+birth\s+to\s+"
    r"(?:an?|our|my)\s+(?:(?:first|second|third|baby|little|beautiful|healthy)\s+)*)"
    r"(?P<child>son|boy|daughter|girl)\b(?:\s*,?\s+{NAME})?".replace("{NAME}", NAME),
)
def _gave_birth(m: re.Match[str], out: Emitter) -> None:
    """ "My wife just gave birth to our second son": the person's child."""
    if not out.is_user:
        return
    role = _BORN[m["child"].lower()]
    name = _name(m["name"])
    if name:
        _relationship(out, role, name)
    else:
        out.fact(f"HAS_{role.upper()}", f"{out.who} has {_article(role)}", value=role,
                 memory_type="PEOPLE", fact_type="relationship", importance=2)  # fmt: skip


@rule(
    "pet_named_after",
    rf"(?i:\b(?:I|we)\s+(?:just\s+)?(?:got|adopted|rescued)\s+an?\s+(?:new\s+|little\s+|rescue\s+)*"
    rf"(?P<role>puppy|kitten|dog|cat|bunny|rabbit|hamster)\b[^.!?]{{0,40}}?\b(?:named|called)\s+"
    rf"(?:him|her|it)\s+){NAME}",
)
def _pet_named_after(m: re.Match[str], out: Emitter) -> None:
    """ "I got a kitten last week, named him Pickles": the pet, by the name given."""
    name = _name(m["name"])
    if name and out.is_user:
        _relationship(out, m["role"], name)


@rule(
    "pregnant_for",
    r"(?i:\b(?:I(?:'m|\s+am)\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine)\s+"
    r"(?:weeks?|months?)\s+pregnant|(?:I(?:'m|\s+am)|we(?:'re|\s+are))\s+having\s+(?P<what>twins|"
    r"triplets|a\s+(?:baby\s+)?(?:boy|girl))))\b",
)
def _pregnant_for(m: re.Match[str], out: Emitter) -> None:
    """ "I'm 7 months pregnant", "we're having twins": a baby on the way."""
    if out.is_user:
        what = " ".join((m["what"] or "a baby").lower().split())
        out.fact("EXPECTING", f"{out.who} is expecting {what}", value="baby", importance=3)


@rule(
    "pet_is_called",
    rf"(?i:\b(?:my|our)\s+(?:[a-z]+\s+)?(?P<role>{_PET_ROLES})\s+"
    rf"(?:is|'s)\s+(?:called|named)\s+){NAME}",
)
def _pet_is_called(m: re.Match[str], out: Emitter) -> None:
    """ "Our golden retriever is called Sunny": a pet, of a kind the vocabulary may not list."""
    name = _name(m["name"])
    if name and out.is_user:
        pet(out, " ".join(m["role"].lower().split()), name)


_KIND = re.compile(r"(?i)\b(dog|cat|puppy|kitten|bunny|rabbit|hamster|parrot)s?\b")


@rule(
    "fur_baby",
    r"(?i:\bmy\s+(?:little\s+|sweet\s+)?(?P<many>fur\s*-?\s*bab(?:y|ies)|furry\s+(?:friends?|"
    r"bab(?:y|ies)|companions?)|four-legged\s+(?:friends?|companions?)|fur\s*kids?))\b",
)
def _fur_baby(m: re.Match[str], out: Emitter) -> None:
    """ "Here's my furry friend!", "my fur babies": the person's pet(s), of the kind the message
    names if it does ("…a photo of a dog")."""
    if not out.is_user or any(k[0] == "user" and k[1] == "HAS_PET" for k in out.facts):
        return
    kind = _KIND.search(out.message[:2000])  # bounded: a long message stays linear
    plural = re.search(r"(?i)ies|friends|companions|kids", m["many"])
    value = kind.group(1).lower() if kind else "pet"
    value = value + "s" if plural else value
    said = value if plural else _article(value)
    out.fact("HAS_PET", f"{out.who} has {said}", value=value, memory_type="PEOPLE",
             fact_type="relationship", importance=2, confidence=0.75)  # fmt: skip
