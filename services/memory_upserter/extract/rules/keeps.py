"""What the person has and keeps, said in passing: a pet named in apposition ("Oscar, my guinea
pig.") or after it ("I got a kitten, her name is Miso"), a pet of a breed ("a rescue greyhound
called Dash"), twins, a business they run ("my clothing store", "I run a small dog grooming
business"), and likes said the long way ("I've always had a love for horses", "jazz is my happy
place"). Their place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.doing import _BUSINESS, _PHRASE, _whole
from services.memory_upserter.extract.rules.registry import NAME, _name, _relationship, rule
from services.memory_upserter.extract.vocabulary import ROLES

_PETS = (*(r for r, label in ROLES.items() if label == "PET"), "guinea pig", "bird", "pup",
         "lizard", "gecko", "snake", "fish", "ferret", "tortoise", "greyhound", "labrador",
         "retriever", "terrier", "poodle", "spaniel", "beagle", "bulldog", "husky", "collie",
         "dachshund", "chihuahua", "pug", "cockatiel", "budgie")  # fmt: skip
_PET_ROLES = "|".join(sorted((re.escape(r) for r in _PETS), key=len, reverse=True))


def _like(out: Emitter, what: str, *, as_: str = "") -> None:
    """A like said some other way than "I like X": stated, but less firmly — never one of the
    words said to the assistant ("talking to you helps me relax"); ``as_``: what the person
    called it ("Dance is my stress relief": User likes dance as their stress relief)."""
    if not _TO_YOU.search(what):
        said = f" as their {as_}" if as_ else ""
        out.fact("LIKES", f"{out.who} likes {what}{said}", value=what, fact_type="preference",
                 confidence=0.7)  # fmt: skip


_TO_YOU = re.compile(r"(?i)\b(?:you|your|yours|yourself|u|ur|ya)\b")


@rule(
    "name_my_pet",
    rf"(?:^|(?<=[\s,:;-])){NAME}\s*,\s*(?i:my|our)\s+(?:(?i:[a-z]+)\s+){{0,2}}?"
    rf"(?P<role>(?i:{_PET_ROLES}))(?=\s*[.,!?;]|$)",
)
def _name_my_pet(m: re.Match[str], out: Emitter) -> None:
    """ "Oscar, my guinea pig.", "Max, my golden retriever, is the best", "Meet Bailey, our new
    puppy!": the name in apposition is the pet's."""
    name = _name(_GREETING.sub("", m["name"]))
    if name:
        pet(out, m["role"].lower(), name)


_GREETING = re.compile(r"^(?:Meet|Say\s+hi\s+to|This\s+is|Here(?:'s|\s+is)|Introducing)\s+")


def pet(out: Emitter, role: str, name: str) -> None:
    """A named pet of the person's, of a kind the relation vocabulary may not list."""
    if role in ROLES and ROLES[role] == "PET":
        _relationship(out, role, name)
        return
    handle = out.person(name, None, "Pet")
    out.fact("HAS_PET", f"{name} is {out.whose} {role}", obj=handle, memory_type="PEOPLE",
             fact_type="relationship", importance=2, confidence=0.9)  # fmt: skip


# The business word ends its noun phrase ("my store is …", "my store's …"): "my store card" and
# "my shop assistant" name something else.
_NOUN_ENDS = (
    r"(?=['’]s\b|\s*(?:[,.;:!?)\-—–]|$)|\s+(?i:is|was|has|had|and|but|in|on|at|for|to|with|from|"
    r"that|which|where|by|since|more|than|going|doing|been|lately|now|today|this|last|next|so|"
    r"as|or|it|I|up|off|from|after|before|because|not|again|too|yet|already|just|recently|ago|"
    r"back|there|here|together|online|will|would|can|could|should|must|might|may|did|does|do|"
    r"needs?|gets?|got|keeps?|makes?|takes?|looks?|feels?|seems?|went|goes|going|opened|opens|"
    r"last|first|grow|grew|grows|growing|a|an|the|my|our|some|all|every|into|over|through|"
    r"during|about|around|while|when|if|then|where|who|also|finally|soon|even|downtown|nearby|"
    r"locally)\b)"
)


_TO_OPEN = re.compile(
    r"(?i)\b(?:to\s+(?:open|start|launch|set\s+up)|opening|starting|launching|(?:spot|place|"
    r"location|space|name|investors?|funding)\s+for)\s+$"
)


@rule(
    "my_business",
    rf"(?i:\b(?:my|I\s+(?:run|own|opened|started|launched)\s+(?:my|an?))\s+(?:own\s+)?"
    rf"(?:new\s+|small\s+|little\s+|tiny\s+)?)"
    rf"(?P<kind>(?:(?!my\b|own\b)[a-z-]+\s+){{0,2}}?(?i:{_BUSINESS}))\b{_NOUN_ENDS}",
)
def _my_business(m: re.Match[str], out: Emitter) -> None:
    """ "my clothing store", "my own dance studio": a business the person runs (value: its
    words); a plain "my business" says less, but is still theirs. "My company" is not here:
    it is where people work (the employer rules)."""
    kind = re.sub(r"\s+", " ", m["kind"].lower()).replace("biz", "business")
    if _TO_OPEN.search(m.string[: m.start()]):
        return  # "a place to open my dance studio": a business still to come (a plan)
    if re.match(r"(?:favou?rite|local|old|first|last|next|whole|ideal|dream|future)\b", kind):
        return  # "my favourite store", "my local cafe": a place they go, not theirs
    out.fact("RUNS", f"{out.who} runs their own {kind}", value=kind, importance=2,
             confidence=0.75)  # fmt: skip


@rule(
    "love_for",
    r"(?i:\bI(?:'ve|\s+have)?\s+(?:always\s+)?(?:had|have|got|felt|feel)\s+(?:a|such\s+a)\s+"
    r"(?:real\s+|big\s+|huge\s+|deep\s+|strong\s+)?(?:love|passion|soft\s+spot|connection|"
    r"bond)\s+(?:for|to|with))\s+" + _PHRASE,
)
def _love_for(m: re.Match[str], out: Emitter) -> None:
    """ "I've always had a love for horses": a like, said the long way."""
    what = _whole(m["what"])
    if what is not None:
        _like(out, what)


@rule(
    "is_my_pick",
    r"(?:^|(?<=,\s)|(?<=\bbut\s))(?P<what>(?!(?i:it|that|this|he|she|they|you|there|what)\b)"
    r"[A-Za-z][\w-]*(?:\s+[\w-]+){0,5}?)\s+(?i:is|are)\s+(?i:(?:definitely\s+|still\s+)?my\s+"
    r"(?:top\s+pick|fave|favou?rite|passion|stress[- ](?:relief|buster)|happy\s+place|thing|"
    r"(?:main\s+|favou?rite\s+|biggest\s+|true\s+)?(?:hobby|hobbies|passions|outlet|escape|"
    r"go-to|jam)))"
    r"(?=\s*(?:[.!,;]|$)|\s+and\b)",
)
def _is_my_pick(m: re.Match[str], out: Emitter) -> None:
    """ "… but contemporary is my top pick", "Dance is my stress relief": a like."""
    what = _whole(m["what"], object_=False)
    if what is not None and out.is_user:
        called = re.search(r"(?i)\bmy\s+(.+)$", m.group(0))
        _like(out, what, as_=" ".join(called.group(1).lower().split()) if called else "")


@rule(
    "pet_named_after",
    rf"(?i:\b(?:I|we)(?:\s+have|'ve\s+got|\s+got|\s+adopted|\s+rescued)\s+(?:an?|another|two|"
    rf"three|a\s+couple\s+of)\s+(?:new\s+|little\s+|rescue\s+|baby\s+|sweet\s+|pet\s+)?"
    rf"(?P<role>{_PET_ROLES}|snake|gecko|lizard|ferret|tortoise|guinea\s+pig|budgie|hedgehog|"
    rf"goldfish|chinchilla)s?\b[^.!?]{{0,40}}?"
    rf"(?:\b(?:his|her|its|their)\s+names?\s+(?:is|are)|\b(?:called|named)))\s+{NAME}",
)
def _pet_named_after(m: re.Match[str], out: Emitter) -> None:
    """ "I got a kitten last week, her name is Miso", "a rescue greyhound called Dash", "I have
    two turtles named Tim and Tom" (each)."""
    role = m["role"].lower()
    second = _AND_NAME.match(m.string, m.end())
    for said in (m["name"], second.group(1) if second else None):
        name = _name(said) if said else None
        if name:
            pet(out, role, name)


_AND_NAME = re.compile(r"\s+and\s+([A-Z][a-z]+)\b")


@rule(
    "my_pet_name",
    rf"(?i:\b(?:my|our)\s+(?:(?:new|little|baby|sweet|old|rescue)\s+)?)"
    rf"(?P<role>(?i:pup|guinea\s+pig|turtle|tortoise|hamster|bunny|rabbit|parrot|gecko|lizard|"
    rf"snake|ferret|budgie|cockatiel|(?:golden\s+)?retriever|labrador|terrier|poodle|spaniel|"
    rf"beagle|bulldog|husky|collie|dachshund|chihuahua|pug|greyhound))\s+{NAME}",
)
def _my_pet_name(m: re.Match[str], out: Emitter) -> None:
    """ "My pup Luna loves the beach", "my turtle Shelly": a pet the relation vocabulary does
    not list, named after its kind ("my dog Max" is the registry's)."""
    name = _name(m["name"])
    if name:
        pet(out, " ".join(m["role"].lower().split()), name)


_GOT_PET = re.compile(
    rf"(?i:(?:\b(?:I|we)(?:\s+have|'ve\s+got|\s+got|\s+adopted|\s+rescued)|(?:^|[.!?])\W*(?:just\s+)?"
    rf"(?:got|adopted|rescued))\s+(?:an?|another)\s+(?:new\s+|little\s+|rescue\s+|baby\s+|"
    rf"sweet\s+)?(?P<role>{_PET_ROLES})\b)\W*$"
)


@rule("pet_named_next", rf"(?i:^\W*(?:his|her|its)\s+name(?:\s+is|'s)\s+){NAME}")
def _pet_named_next(m: re.Match[str], out: Emitter) -> None:
    """ "i got a puppy! his name is biscuit": the pet of the sentence just before."""
    got = _GOT_PET.search(out.said_before[-200:])
    name = _name(m["name"])
    if got is not None and name:
        pet(out, got["role"].lower(), name)


@rule("twins", r"(?i:\b(?:my|our)\s+(?:little\s+)?twins)\b")
def _twins(m: re.Match[str], out: Emitter) -> None:
    out.fact("HAS_CHILDREN", f"{out.who} has twins", value="twins", memory_type="PEOPLE",
             fact_type="relationship", importance=2, confidence=0.85)  # fmt: skip


@rule(
    "fan",
    r"(?i:\bI(?:'m|\s+am)\s+(?:a|such\s+a)\s+(?:huge\s+|big\s+|massive\s+|real\s+|die-?hard\s+)?)"
    r"(?P<what>(?!fan\b)[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*)?)\s+(?i:fan)\b(?!\s+of)",
)
def _fan(m: re.Match[str], out: Emitter) -> None:
    """ "I'm a huge Chelsea fan": a like of the thing."""
    what = _whole(m["what"], object_=False)
    if what is not None:
        _like(out, what)


@rule(
    "member_of",
    r"(?i:\bI(?:'m|\s+am|(?:'ve|\s+have)\s+been)\s+(?:now\s+|also\s+)?(?:a\s+(?:proud\s+)?member\s+of|"
    r"part\s+of|(?P<in>in)(?=\s+(?:a|an|the|our|this)\s+(?:[\w-]+\s+){0,2}?(?:band|choir|"
    r"league|orchestra|crew|troupe|ensemble|[\w-]+\s+club|support\s+group)\b)))\s+" + _PHRASE,
)
def _member_of(m: re.Match[str], out: Emitter) -> None:
    """ "I'm part of a local running club", "I'm in a band with some friends", "I've been a
    member of the hiking club for years": a group the person belongs to."""
    said = re.split(r"(?i)\s+(?:that|who|which)\s", m["what"])[0]  # "a group [that meets …]"
    what = _whole(re.sub(r"(?i)\s+for\s+(?:years|ages|a\s+while|\w+\s+years)$", "", said))
    if what is not None and m["in"]:
        what = re.split(r"(?i)\s+(?:with|at|for|in)\s", what)[0]  # "a band [with some friends]"
    if what is not None and not re.match(
        r"(?i)(?:it|this|that|the\s+(?:problem|solution))\b", what
    ):
        out.fact("MEMBER_OF", f"{out.who} is a member of {what}", value=what, confidence=0.75)


_WORKS = (
    r"screenplay|screenplays|script|scripts|novel|manuscript|memoir|album|thesis|dissertation|"
    r"podcast|petition|campaign|fundraiser|documentary|short\s+film|comic|exhibition|art\s+show|"
    r"portfolio|thriller|poetry\s+collection|cookbook|recipe\s+book"
)


@rule(
    "my_work",
    rf"(?i:\bmy\s+(?:(?:own|new|first|next|latest|recent|full|last|current|little)\s+)*)"
    rf"(?P<kind>(?:(?!my\b)[a-z-]+\s+)?(?i:{_WORKS}))\b{_NOUN_ENDS}|"
    rf"(?i:\bthe\s+)(?P<started>(?i:{_WORKS}))(?i:\s+I(?:'ve|\s+have)?\s+(?:started|written|wrote|"
    rf"made|launched|organi[sz]ed))\b",
)
def _my_work(m: re.Match[str], out: Emitter) -> None:
    """ "my recent screenplay", "the petition I started": a work of the person's own."""
    kind = " ".join((m["kind"] or m["started"]).lower().split())
    if re.match(r"(?:favou?rite|fave|old)\b", kind):
        return
    out.fact("WORKS_ON", f"{out.who} works on their {kind}", value=kind, memory_type="PROJECT",
             importance=2, confidence=0.75)  # fmt: skip


_ONE_PERSON = frozenset("son daughter wife husband partner boyfriend girlfriend".split())
_HOUSEHOLD = (
    r"kids|children|family|fam|son|daughter|wife|husband|partner|boys|girls|boyfriend|girlfriend"
)


@rule(
    "family_likes",
    rf"(?i:\b(?:my|our)\s+(?:little\s+)?(?P<who>{_HOUSEHOLD})\s+(?:all\s+|really\s+|absolutely\s+)?"
    rf"(?:love|loves|like|likes|enjoy|enjoys|adore|adores))\s+{_PHRASE}",
)
def _family_likes(m: re.Match[str], out: Emitter) -> None:
    """ "my kids love painting": what the person's household likes (the household is
    unnamed, so the fact is the person's: FAMILY_LIKES, its words saying whose)."""
    what = _whole(m["what"], object_=False)
    if re.search(r"(?i)\bme\s+and\s+$", m.string[: m.start()]):
        return  # "me and my wife enjoy hiking": the person's own like (we_like)
    if what is not None and not re.match(r"(?i)(?:it|that|this|them|you)\b", what):
        who = "family" if m["who"].lower() == "fam" else m["who"].lower()
        if who in _ONE_PERSON:  # "my husband loves football": his like, not the household's
            one = out.entity(who.capitalize(), "Person")
            out.fact("LIKES", f"{one} likes {what}", subject=one, value=what,
                     fact_type="preference", confidence=0.7)  # fmt: skip
            return
        verb = "like" if who in ("kids", "children", "boys", "girls") else "likes"
        out.fact("FAMILY_LIKES", f"{out.whose.capitalize()} {who} {verb} {what}", value=what,
                 memory_type="PEOPLE", fact_type="preference", confidence=0.7)  # fmt: skip


@rule(
    "we_like",
    rf"(?i:\b(?:me\s+and\s+my\s+(?:{_HOUSEHOLD})|my\s+(?:{_HOUSEHOLD})\s+and\s+(?:I|me))\s+"
    rf"(?:really\s+|both\s+|all\s+)?(?:love|like|enjoy|adore))\s+{_PHRASE}",
)
def _we_like(m: re.Match[str], out: Emitter) -> None:
    """ "me and my wife enjoy hiking": the person likes it too."""
    what = _whole(m["what"], object_=False)
    if what is not None and not re.match(r"(?i)(?:it|that|this|them|you|each)\b", what):
        _like(out, what)
