"""The offline extractor's first rules (:mod:`.registry` holds the registry): who the speaker
is — home, work, diet, allergies, likes, projects, what they did — and the people in their
life (a role and a name, where a person lives or works)."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.doing import _own
from services.memory_upserter.extract.rules.registry import (
    _CAP,
    _ROLES,
    _STOP,
    LIKED,
    NAME,
    NOT_THINGS,
    ORG,
    PLACE,
    ROLE,
    SUBJECT,
    THING,
    _article,
    _name,
    _place,
    _subject,
    _thing,
    liked,
    listed,
    role_named,
    rule,
)

# --- who the speaker is and what they say of themselves --------------------------------------


@rule(
    "name",
    rf"(?i:\bmy\s+(?:full\s+|first\s+|real\s+)?name(?:\s+is|'s)|\bcalls?\s+me|\bI(?:'m|"
    rf"\s+am)\s+called|\bI\s+go\s+by)\s+{NAME}",
)
def _my_name(m: re.Match[str], out: Emitter) -> None:
    name = _name(m["name"])
    if name and out.is_user:
        out.fact("NAME", f"User's name is {name}", value=name, importance=3, confidence=0.95)


@rule(
    "lives_in",
    r"(?i:\b(?:I|we)(?:\s+(?:still\s+)?live|(?:'ve|\s+have)\s+lived|\s+am\s+living|"
    r"'m\s+living|'re\s+"
    r"living|\s+are\s+living|(?:'ve|\s+have)\s+been\s+living|\s+reside|'m\s+"
    r"based|\s+am\s+based|'re\s+based|(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|"
    r"finally\s+)?(?:moved|relocated)(?:\s+back(?:\s+home)?)?(?:\s+from\s+[^,.;:!?]+?)?)(?:\s+with\s+(?:my|our)\s+(?:\w+\s+){0,2}?\w+)?\s+"
    r"(?:in|to))\s+" + PLACE,
)
def _lives_in(m: re.Match[str], out: Emitter) -> None:
    near = re.search(
        rf"\b(?:near|outside(?:\s+of)?|close\s+to)\s+({_CAP}(?:\s+{_CAP})*)$", m["place"]
    )
    place = _place(near.group(1) if near else m["place"])  # "a small village outside of Utrecht"
    if place:
        out.entity(place, "Location")
        out.fact("LIVES_IN", f"{out.who} lives in {place}", obj=place, importance=2, confidence=0.9)


def _work(m: re.Match[str], out: Emitter) -> None:
    org, role = _name(m["org"]), (m["role"] or "").strip() or None
    if org:
        out.entity(org, "Org")
        out.fact("WORKS_AT", f"{out.who} works at {org}", obj=org, importance=2, confidence=0.9)
    if role and not NOT_THINGS.match(role):
        out.fact(
            "JOB_TITLE",
            f"{out.who} works as {_article(role)}",
            value=role,
            importance=2,
            confidence=0.85,
        )


rule(
    "works_at",
    rf"(?i:\bI(?:\s+work|(?:'ve|\s+have)\s+been\s+working)\s+(?:at|for)\s+(?:the\s+)?)"
    rf"{ORG}(?:\s+(?i:as)\s+(?i:an?\s+)?{ROLE}"
    rf"{_STOP})?",
)(_work)
rule(
    "works_as",
    rf"(?i:\bI\s+work\s+as\s+(?:an?\s+)?){ROLE}(?:(?=\s+(?i:at|for)\s)\s+(?i:at|"
    rf"for)\s+{ORG}|{_STOP})",
)(_work)
rule("role_at", rf"(?i:\bI(?:'m|\s+am)\s+an?\s+){ROLE}\s+(?i:at|for)\s+{ORG}")(_work)


_DIETS = r"vegetarian|vegan|pescatarian|pescetarian|keto|gluten[- ]free|halal|kosher"


@rule(
    "so_diet",
    rf"(?i:(?:^\W*|\s)(?<!not\s)so\s+(?:i'?m\s+|im\s+)?(?:an?\s+)?(?:now\s+)?(?P<diet>{_DIETS}))"
    r"(?=\s*(?i:now)?\W*$)",
)
def _so_diet(m: re.Match[str], out: Emitter) -> None:
    """ "actually i eat fish now, so pescatarian": the clause ends on the person's diet (not
    someone else's: "she eats fish so pescatarian")."""
    if not re.search(r"(?i)\b(?:he|she|they|we|my\s+\w+|\w+'s)\b", m.string[: m.start()]):
        _diet(m, out)


@rule(
    "diet",
    rf"(?i:\bI(?:'m|\s+am)\s+(?:an?\s+|strictly\s+|fully\s+|now\s+)?(?P<diet>{_DIETS}))\b",
)
def _diet(m: re.Match[str], out: Emitter) -> None:
    diet = m["diet"].lower()
    out.fact(
        "DIET",
        f"{out.who} is {diet}",
        value=diet,
        fact_type="preference",
        importance=2,
        confidence=0.9,
    )


@rule("intolerance", r"(?i:\bI(?:'m|\s+am)\s+(?P<what>lactose|gluten)[- ]intolerant)")
def _intolerance(m: re.Match[str], out: Emitter) -> None:
    what = m["what"].lower()
    out.fact(
        "INTOLERANCE", f"{out.who} is {what} intolerant", value=what, importance=3, confidence=0.95
    )


_ASIDE = re.compile(
    r"(?:un)?fortunately|sadly|seriously|honestly|apparently|literally|obviously|basically|"
    r"actually|luckily|thankfully|unluckily|ironically|weirdly|funnily\s+enough|of\s+course|"
    r"i\s+(?:guess|think|know)|though|haha|sigh|ugh"
)


def _allergies(m: re.Match[str], out: Emitter) -> None:
    for item in re.split(r"\s*(?:,|\band\b|\bor\b)\s*", m["things"].strip()):
        item = re.sub(r"\s+(?:as\s+well|too|also)$", "", item.strip().lower())
        if _ASIDE.fullmatch(item):
            continue  # "I'm allergic to cats, sadly": the aside is no allergen
        if item and len(item) <= 60 and "allerg" not in item and len(item.split()) <= 4:
            out.fact(
                "ALLERGY",
                f"{out.who} is allergic to {item}",
                value=item,
                importance=3,
                confidence=0.95,
            )


rule(
    "allergic_to",
    r"(?i:\bI(?:'m|\s+am)\s+(?:only\s+|just\s+|also\s+)?(?:very\s+|severely\s+|deathly\s+|seriously\s+|super\s+|so\s+|"
    r"extremely\s+|highly\s+|mildly\s+|kinda\s+|a\s+(?:bit|little)\s+|really\s+)?"
    r"allergic\s+to)\s+(?P<things>[^.;!?]+?)(?=\s*(?:[.;!?]|$|\s(?:"
    r"but|because|so|since|though)\b))",
)(_allergies)
rule("allergy", r"(?i:\bI\s+have\s+an?)\s+(?P<things>[a-z]+(?:\s+[a-z]+)?)(?i:\s+allergy)\b")(
    _allergies
)


_SHOWN = re.compile(r"(?i)\b(?:photos?|pics?|pictures?|shots?|images?|looks?|painting)\b")


@rule(
    "likes",
    rf"(?i:\b(?:I|we)\s+(?:really\s+|absolutely\s+|just\s+|also\s+|all\s+)?(?:love|like|enjoy|"
    rf"adore))\s+{LIKED}",
)
def likes(m: re.Match[str], out: Emitter) -> None:
    """A like; "I love the colours" said of a picture is praise for it, not a like."""
    thing = liked(m["thing"])
    if thing and re.match(r"(?i)(?:all\s+)?the\s", thing) and _SHOWN.search(out.message):
        return
    for each in [thing, *listed(m)] if thing else []:
        out.fact("LIKES", f"{out.who} likes {_own(each)}", value=each, fact_type="preference",
                 confidence=0.7)  # fmt: skip


@rule(
    "dislikes",
    rf"(?i:\bI\s+(?:really\s+)?(?:hate|dislike|can't\s+stand|cannot\s+stand|"
    rf"don't\s+like|do\s+not\s+like))\s+{THING}",
)
def _dislikes(m: re.Match[str], out: Emitter) -> None:
    thing = _thing(m["thing"])
    if thing:
        out.fact(
            "DISLIKES",
            f"{out.who} dislikes {thing}",
            value=thing,
            fact_type="preference",
            confidence=0.7,
        )


@rule(
    "working_on",
    rf"(?i:\bI(?:'m|\s+am)\s+(?:currently\s+|still\s+|now\s+)?working\s+on\s+"
    rf"(?:the\s+|a\s+|an\s+|my\s+|our\s+)?){THING}",
)
def _working_on(m: re.Match[str], out: Emitter) -> None:
    said = re.sub(r"(?i)\s+(?:about|for|with|of|on|in|at|to|from|by)$", "", m["thing"])
    thing = _thing(re.sub(r"(?i)\s+project$", "", said))  # "a screenplay about [my …]"
    generic = r"(?i)(?:new|big|side|secret|little|personal|cool|one|project|something|it)"
    if thing and not re.fullmatch(generic, thing):
        project = out.entity(thing, "Project")
        out.fact(
            "WORKS_ON",
            f"{out.who} is working on {thing}",
            obj=project,
            memory_type="PROJECT",
            importance=2,
            confidence=0.85,
        )


# --- people ------------------------------------------------------------------------------------


rule(
    "my_role_name",
    rf"(?i:\bmy\s+(?:other\s+|little\s+|big\s+|older\s+|younger\s+|baby\s+|twin\s+|eldest\s+|"
    rf"youngest\s+)?(?P<role>{_ROLES}))(?!'s)(?:\s*,\s*|\s+(?i:is\s+called|named|"
    rf"called)\s+|\s+){NAME}",
)(role_named)
# a noun after a role word is what it makes ("a dog walker", "a sister company"), not a name
_NOT_A_NAME = (
    r"(?i:walkers?|sitters?|trainers?|groomers?|food|bed|park|show|toys?|hair|company|"
    r"friendly|person|people)"
)
rule(
    "have_a_role_name",
    rf"(?i:\b(?:I|we)(?:\s+have|'ve\s+got|\s+have\s+got|\s+got)\s+an?\s+(?:older\s+|younger\s+|little\s+|"
    rf"big\s+|twin\s+)?(?P<role>{_ROLES}))(?!'s)(?!\s+{_NOT_A_NAME}\b)"
    rf"(?:\s*,\s*|\s+(?i:named|called)\s+|\s+){NAME}",
)(role_named)  # "i have a colleague marta silva", "I've got a sister, Ana"
rule("name_is_my_role", rf"{NAME}\s+(?i:is\s+my)\s+(?i:(?P<role>{_ROLES}))\b(?!'s)")(role_named)


@rule(
    "person_lives_in",
    rf"{SUBJECT}\s+(?i:(?:just\s+|recently\s+|finally\s+|also\s+|now\s+)?(?:lives|is\s+living|"
    rf"moved|has\s+moved|relocated))\s+(?i:in|to)\s+" + PLACE,
)
def _person_lives_in(m: re.Match[str], out: Emitter) -> None:
    place = _place(m["place"])
    person = _subject(m, out) if place else None
    if person and place:
        out.entity(place, "Location")
        out.fact(
            "LIVES_IN",
            f"{person} lives in {place}",
            subject=person,
            obj=place,
            memory_type="PEOPLE",
            importance=2,
            confidence=0.85,
        )


@rule("person_works_at", rf"{SUBJECT}\s+(?i:works|is\s+working)\s+(?i:at|for)\s+{ORG}")
def _person_works_at(m: re.Match[str], out: Emitter) -> None:
    org = _name(m["org"])
    person = _subject(m, out) if org else None
    if person and org:
        out.entity(org, "Org")
        out.fact(
            "WORKS_AT",
            f"{person} works at {org}",
            subject=person,
            obj=org,
            memory_type="PEOPLE",
            importance=2,
            confidence=0.85,
        )
