"""Self-statements about the person's life: children and pets, a spouse, what they avoid
eating, favourites and what they are a fan of, what they build or train for, where they stay,
and where a person works. Their place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.basics import likes
from services.memory_upserter.extract.rules.registry import (
    _CAP,
    _STOP,
    NAME,
    SUBJECT,
    THING,
    _article,
    _name,
    _place,
    _relationship,
    _subject,
    _thing,
    role_named,
    rule,
)
from services.memory_upserter.extract.vocabulary import ROLES

_NUMBER = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_PET_ROLES = "|".join(r for r, label in ROLES.items() if label == "PET")


@rule(
    "have_named",
    rf"(?i:\b(?:I|we)(?:\s+have|'ve\s+got|\s+have\s+got|\s+got|'ve)\s+(?:an?|another)\s+"
    rf"(?:new\s+|little\s+|older\s+|younger\s+|big\s+|baby\s+)?)(?P<role>[a-z-]+)(?:\s*,\s*|\s+)"
    rf"(?i:named|called)\s+{NAME}",
)
def _have_named(m: re.Match[str], out: Emitter) -> None:
    name = _name(m["name"])
    if name and m["role"].lower() in ROLES:
        _relationship(out, m["role"], name)


rule(
    "my_role_is",
    rf"(?i:\b(?:my|our)\s+(?:new\s+)?(?P<role>{'|'.join(map(re.escape, ROLES))})"
    rf"(?:'s\s+name)?\s+is\s+(?:called\s+|named\s+)?){NAME}(?!\s+(?i:years|and\s+I))",
)(role_named)
rule("our_pet", rf"(?i:\bour\s+(?P<role>{_PET_ROLES}))(?:\s*,\s*|\s+){NAME}")(role_named)


# "i have 2 kids and a dog", "we have two dogs and a cat": the counted things listed after
# "have" before the last one a rule reads; each rule also writes its own kind among them
_LISTED = (
    r"(?P<items>(?:(?:an?|one|two|three|four|five|six|\d)\s+[a-z]+(?:\s+[a-z]+)?\s*"
    r"(?:,\s*and|,|and|&)\s+){0,3})"
)
_PETS = (
    r"dog|cat|puppy|kitten|parrot|hamster|rabbit|bunny|horse|turtle|fish|snake|bird|"
    r"(?:golden\s+|labrador\s+)?retriever|labrador|beagle|poodle|terrier|spaniel|bulldog|husky|"
    r"collie|dachshund|chihuahua|pug|greyhound"
)
_KIDS = r"kids?|children|child|sons?|daughters?|grandchildren|grandkids"
_PET_ITEM = re.compile(rf"(?i)\b(?P<n>an?|two|three|four|\d)\s+(?P<pet>{_PETS})s?\b")
_KID_ITEM = re.compile(
    rf"(?i)\b(?P<n>an?|one|two|three|four|five|six|\d)\s+(?:little\s+|young\s+|grown\s+)?"
    rf"(?P<what>{_KIDS})\b"
)


@rule(
    "have_pet",
    r"(?i:\b(?:I|we)(?:\s+have|'ve\s+got|\s+have\s+got|\s+own)\s+"
    + _LISTED
    + rf"(?P<n>an?|two|three|four|\d)\s+(?P<pet>{_PETS})s?)\b"
    r"(?!\s*(?:,\s*)?(?i:named|called|allerg))"
    r"(?!\s+(?i:walkers?|sitters?|trainers?|groomers?|food|bed|park|show|toy|hair)\b)",
)
def _have_pet(m: re.Match[str], out: Emitter) -> None:
    for pet in (*_PET_ITEM.finditer(m["items"]), m):
        out.fact(
            "HAS_PET",
            f"{out.who} has {pet['n'].lower()} {_counted(pet['n'], pet['pet'])}",
            value=pet["pet"].lower(),
            memory_type="PEOPLE",
            fact_type="relationship",
            importance=1,
            confidence=0.85,
        )


def _counted(n: str, pet: str) -> str:
    """ "two dogs", "three puppies": the noun as its count asks ("two dog" is a fragment)."""
    pet = pet.lower()
    if n.lower() in ("a", "an") or pet == "fish":
        return pet
    return pet[:-1] + "ies" if pet.endswith("y") else pet + "s"


@rule(
    "children",
    r"(?i:\b(?:I|we)(?:\s+have|'ve\s+got|\s+have\s+got)\s+"
    + _LISTED
    + r"(?P<n>an?|one|two|three|four|five|six|\d)\s+(?:little\s+|young\s+|grown\s+)?"
    rf"(?P<what>{_KIDS})\b)(?!\s*(?:,\s*)?(?i:named|called))",
)
def _children(m: re.Match[str], out: Emitter) -> None:
    for kids in (*_KID_ITEM.finditer(m["items"]), m):
        n = kids["n"].lower()
        count = 1 if n in ("a", "an", "one") else _NUMBER.get(n) or int(n)
        what = kids["what"].lower()
        out.fact(
            "HAS_CHILDREN",
            f"{out.who} has {count} {what}",
            value=f"{count} {what}",
            memory_type="PEOPLE",
            fact_type="relationship",
            importance=2,
            confidence=0.85,
        )


@rule("married_to", rf"(?i:\bI(?:'m|\s+am)\s+(?:happily\s+)?(?:married|engaged)\s+to)\s+{NAME}")
def _married_to(m: re.Match[str], out: Emitter) -> None:
    name = _name(m["name"])
    if name:
        _relationship(out, "spouse", name)


@rule(
    "avoids",
    rf"(?i:\bI\s+(?:don't|do\s+not|can't|cannot|never)\s+(?P<verb>eat|drink))\s+"
    rf"(?P<food>meat|pork|beef|fish|seafood|dairy|eggs|gluten|sugar|chicken|"
    rf"animal\s+products|red\s+meat|shellfish|nuts|peanuts|alcohol|coffee|caffeine|booze|"
    rf"beer|wine|milk|soda){_STOP}",
)
def _avoids(m: re.Match[str], out: Emitter) -> None:
    food = m["food"].lower()
    out.fact(
        "AVOIDS",
        f"{out.who} doesn't {m['verb'].lower()} {food}",
        value=food,
        fact_type="preference",
        importance=2,
        confidence=0.85,
    )


@rule(
    "favorite",
    rf"(?i:\bmy\s+(?:all[- ]time\s+)?favou?rite\s+)(?P<kind>[a-z]+(?:\s+[a-z]+)?)\s+"
    rf"(?i:is|are)\s+{THING}",
)
def _favorite(m: re.Match[str], out: Emitter) -> None:
    thing, kind = _thing(m["thing"]), m["kind"].lower()
    if kind.split()[0] in ("thing", "things", "activity", "pastime"):
        return  # "my favorite thing is spending time with my family": a like (fondness), whole
    if thing:
        out.fact(
            "FAVORITE",
            f"{out.who}'s favorite {kind} is {thing}",
            value=f"{kind}: {thing}",
            fact_type="preference",
            confidence=0.8,
        )


@rule(
    "fan_of",
    rf"(?i:\bI(?:'m|\s+am)\s+(?:(?:a|such\s+a)\s+(?:(?:huge|big|massive|real)\s+)?fan\s+of"
    rf"(?:\s+both)?|really\s+into|into|"
    rf"passionate\s+about|obsessed\s+with))\s+{THING}",
)
def fan_of(m: re.Match[str], out: Emitter) -> None:
    """Being a fan of something is liking it: the same fact as :mod:`.basics`' "I love ..."."""
    likes(m, out)


@rule(
    "building",
    r"(?i:\bI(?:'m|\s+am)\s+(?:currently\s+|still\s+)?(?:building|writing|developing|"
    r"making|launching|starting)\s+(?:a\s+|an\s+|my\s+|our\s+)?(?:own\s+|new\s+)?)"
    r"(?P<thing>(?:[a-z-]+\s+){0,3}?(?:app|book|novel|startup|business|company|"
    r"website|game|podcast|blog|album|thesis|course|platform|tool|shop|store|"
    r"house|garden|channel))\b",
)
def _building(m: re.Match[str], out: Emitter) -> None:
    thing = m["thing"].strip()
    project = out.entity(thing, "Project")
    out.fact(
        "WORKS_ON",
        f"{out.who} is working on {_article(thing)}",
        obj=project,
        memory_type="PROJECT",
        importance=2,
        confidence=0.8,
    )


@rule(
    "training_for",
    r"(?i:\bI(?:'m|\s+am)\s+(?:currently\s+|now\s+)?(?:training|preparing)\s+for)\s+"
    r"(?:a\s+|an\s+|the\s+|my\s+(?:first\s+)?)?(?P<event>[^,.;:!?]{3,60}?)"
    r"(?=\s*(?:[,.;:!?]|$|\s(?:and|but|so|because|with|next|this|in)\b))",
)
def _training_for(m: re.Match[str], out: Emitter) -> None:
    event = m["event"].strip()
    out.fact(
        "TRAINING_FOR",
        f"{out.who} is training for {_article(event)}",
        value=event,
        memory_type="PROJECT",
        importance=2,
        confidence=0.8,
    )
    out.todo("GOAL", f"Complete {_article(event)}", dated=False)


@rule(
    "staying_in",
    rf"(?i:\bI(?:'m|\s+am)\s+(?:staying|visiting|travelling|traveling|in\s+town)"
    rf"(?:\s+(?:in|at))?)\s+(?P<place>{_CAP}[^,.;:!?]*?){_STOP}",
)
def _staying_in(m: re.Match[str], out: Emitter) -> None:
    place = _place(m["place"])
    if place:
        out.entity(place, "Location")
        out.fact("STAYING_IN", f"{out.who} is staying in {place}", obj=place, confidence=0.85)


@rule(
    "person_works_in",
    rf"{SUBJECT}\s+(?i:works|is\s+working)(?:\s+(?i:with\s+me))?\s+(?i:in)\s+"
    rf"(?P<place>{_CAP}[^,.;:!?]*?){_STOP}",
)
def _person_works_in(m: re.Match[str], out: Emitter) -> None:
    place = _place(m["place"])
    person = _subject(m, out) if place else None
    if person and place:
        out.entity(place, "Location")
        out.fact(
            "WORKS_IN",
            f"{person} works in {place}",
            subject=person,
            obj=place,
            memory_type="PEOPLE",
            confidence=0.85,
        )


@rule(
    "person_diet",
    rf"{SUBJECT}\s+(?i:is|'s)\s+(?i:(?:now\s+|also\s+|strictly\s+)?(?:a\s+)?)"
    rf"(?P<diet>(?i:vegan|vegetarian|pescatarian))\b",
)
def _person_diet(m: re.Match[str], out: Emitter) -> None:
    """ "my friend Jo is vegan": the named person's diet (a role alone names nobody)."""
    if m["subj_role"] and not m["subj_named"] or m["pron"]:
        return
    person = _subject(m, out)
    if person and person != "user":
        diet = m["diet"].lower()
        out.fact("DIET", f"{person} is {diet}", subject=person, value=diet, confidence=0.8)
