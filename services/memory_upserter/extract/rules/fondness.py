"""Likes said the long way in conversation: held for long ("I've loved painting ever since I
was a kid", "I've been really into gardening", "I've always been passionate about veterans and
their rights"), what the person lives for ("dancing has been my escape", "my real muses: painting
and pottery", "Painting helps me destress", "Reading is my favorite way to unwind"), an interest
("I'm really interested in photography", "I'm getting into birdwatching") and a keen doer ("I'm
an avid hiker", "a huge animal lover").

A pronoun ("It helps me relax"), advice ("Trying new stuff is a great way to push yourself")
and another speaker's pastime ("Pottery's a great way to relax") write nothing. Their place in
the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.doing import _END, _PHRASE, _own, _whole
from services.memory_upserter.extract.rules.keeps import _like
from services.memory_upserter.extract.rules.lately import _PERFECT, _SINCE
from services.memory_upserter.extract.rules.pastimes import _NOT_WORK, ACTIVITY
from services.memory_upserter.extract.rules.registry import liked, rule
from services.memory_upserter.extract.vocabulary import NOT_NAMES

_LIVES_FOR = (
    r"escape|passion|therapy|outlet|stress[- ]?(?:buster|relief|reliever|fix)|sanctuary|"
    r"happy\s+place|safe\s+place|refuge|muse|lifeline|go-to|favou?rite\s+(?:thing|hobby|pastime)|"
    r"everything|whole\s+life|life|thing"
)
_SUBJECT_THING = r"(?P<thing>(?:[A-Za-z][a-z]+ing(?:\s+[a-z]+){0,3}|[A-Z][a-z]+))"


@rule(
    "lives_for",
    rf"^\W*(?:(?i:and|but|so|yeah|yes|oh|honestly|plus)\W+)*{_SUBJECT_THING}\s*(?:['’]s|\s+has|"
    rf"\s+is|\s+was|\s+have)\s+(?:(?:been|always|really|truly|just|become|kind\s+of|like)\s+)*"
    rf"my\s+(?:(?:biggest|real|true|one|only|main|own|little|personal|ultimate)\s+)*"
    rf"(?P<what>(?i:{_LIVES_FOR}))\b(?!\s+(?:to|of|for|that)\b)",
)
def _lives_for(m: re.Match[str], out: Emitter) -> None:
    """ "Dancing has been my stress-buster since childhood", "Painting is my escape"."""
    thing = m["thing"].lower()
    if thing.split()[0] in NOT_NAMES or thing in ("this", "that", "it", "family", "work"):
        return
    if m["what"].lower() in ("thing", "life", "everything") and not thing.endswith("ing"):
        return  # "Music is my life" is a like, "Work is my life" a complaint: gerunds only
    _like(out, thing, as_=m["what"].lower())


_ITEM = r"[a-z][a-z' -]{2,30}?"


@rule(
    "my_muses",
    rf"(?i:\bmy\s+(?:(?:real|true|biggest|two|three|main)\s+)*(?:muses?|passions?|"
    rf"favou?rite\s+hobbies|hobbies))\s*(?::|\s+are|\s+have\s+been)\s+"
    rf"(?P<items>{_ITEM}(?:\s*,\s*{_ITEM})*(?:,?\s+and\s+{_ITEM})?){_END}",
)
def _my_muses(m: re.Match[str], out: Emitter) -> None:
    """ "I've finally found my real muses: painting and pottery" — each one liked."""
    items = re.split(r"\s*,\s*(?:and\s+)?|\s+and\s+", m["items"].strip())
    wholes = [_whole(i, object_=False) for i in items]
    if all(w is not None and len(w.split()) <= 4 for w in wholes):
        for w in wholes:
            _like(out, str(w))


# Activities said in the present perfect progressive that :data:`.doing._ING` does not list.
@rule(
    "been_into",
    rf"{_PERFECT}\s+(?:(?i:really|so|super|totally|always|also|big\s+time)\s+)*(?i:into)\s+"
    rf"{_SINCE}",
)
def _been_into(m: re.Match[str], out: Emitter) -> None:
    """ "I've been really into gardening lately", "been into art since I was 17"."""
    what = liked(_whole(m["what"], object_=False))
    if what is not None and out.is_user:
        _like(out, _own(what))


@rule(
    "have_loved",
    rf"(?i:\bI(?:'ve|\s+have)\s+(?:always\s+|really\s+|just\s+)*(?:loved|enjoyed|adored|"
    rf"been\s+(?:passionate\s+about|a\s+(?:big\s+|huge\s+)?fan\s+of|obsessed\s+with)))\s+{_SINCE}",
)
def _have_loved(m: re.Match[str], out: Emitter) -> None:
    """ "I've loved painting ever since I was a kid", "I've always been passionate about
    veterans and their rights" (a like, said as the person said it)."""
    what = liked(_whole(m["what"], object_=False))
    if what is None or re.match(r"(?i)(?:every|each|our|the\s+time|this|that|those|all)\b", what):
        return  # "I've loved every minute", "I've loved our chats": no like of the person's
    what = _own(what)
    said = re.search(r"(?i)passionate\s+about|fan\s+of|obsessed\s+with", m.group(0))
    text = (
        f"{out.who} is {'a fan of' if 'fan' in said.group(0) else said.group(0).lower()} "
        if said
        else f"{out.who} likes "
    )
    out.fact("LIKES", text + what, value=what, fact_type="preference", confidence=0.7)


_SOOTHES = (
    r"relax|de-?stress|unwind|calm\s+down|stay\s+(?:sane|grounded|calm|focused|positive|"
    r"balanced|centered|motivated)|cope|clear\s+my\s+(?:head|mind)|recharge|escape|going|sane|"
    r"grounded|centered|balanced"
)


@rule(
    "helps_me",
    rf"^\W*(?:(?i:and|but|so|yeah|yes|oh|honestly|plus)\W+)*{_SUBJECT_THING}\s+(?:(?i:really|"
    rf"always|just|also|definitely)\s+)?(?:(?:helps|keeps|has\s+(?:really\s+)?(?:helped|kept))\s+"
    rf"me\s+(?:to\s+)?(?i:{_SOOTHES})|(?P<calms>relaxes|calms|soothes|grounds)\s+me)\b",
)
def _helps_me(m: re.Match[str], out: Emitter) -> None:
    """ "Painting helps me destress after a long day", "dancing has kept me going", "Cooking
    relaxes me"."""
    thing = _thing_case(m["thing"])
    if m["calms"] and thing[:1].isupper():
        return  # "Blue calms me", "Sam relaxes me": a colour, a person — no pastime said
    if thing.split()[0].lower() not in NOT_NAMES and thing.lower() not in (
        "this", "that", "it", "work", "family"
    ):  # fmt: skip
        _like(out, _own(thing))  # "Playing my guitar helps me relax": their guitar


def _thing_case(thing: str) -> str:
    """An activity in lower case ("Painting" → "painting"); a name as written ("Tilly")."""
    return thing.lower() if re.search(r"ing\b", thing) or thing.lower() in _COMMON else thing


_COMMON = frozenset(
    "dance music art yoga painting writing reading cooking baking running fashion nature "
    "photography pottery gardening hiking travel sports football basketball soccer".split()
)


_OPENER = r"^\W*(?:(?i:and|but|so|yeah|yes|oh|honestly|plus)\W+)*"
_HAS_BEEN = r"(?:['’]s\s+been|\s+has\s+(?:always\s+)?been)"
_GOOD = r"(?:fun|great|good|nice|perfect|healthy|lovely|amazing|awesome|cool)"


@rule(
    "favourite_way",
    rf"{_OPENER}{_SUBJECT_THING}\s*(?:['’]s|\s+is|{_HAS_BEEN})\s+my\s+(?:favou?rite|go-to|best)\s+"
    rf"(?:way|thing)\s+to\s+\w+|"
    rf"{_OPENER}{_SUBJECT_THING.replace('<thing>', '<mine>')}\s*(?:['’]s|\s+is|{_HAS_BEEN})"
    rf"\s+an?\s+(?:(?:really|super|so)\s+)?{_GOOD}\s+way\s+to\s+(?:\w+\s+){{0,4}}?(?:my|me|myself)\b|"
    rf"{_OPENER}{_SUBJECT_THING.replace('<thing>', '<lived>')}{_HAS_BEEN}\s+an?\s+(?:(?:really|"
    rf"super|so)\s+)?{_GOOD}\s+way\s+to\s+\w+|"
    rf"{_OPENER}{_SUBJECT_THING.replace('<thing>', '<forme>')}\s*(?:['’]s|\s+is|{_HAS_BEEN})\s+"
    rf"an?\s+(?:(?:really|super|so)\s+)?{_GOOD}\s+way\s+for\s+me\s+to\s+\w+",
)
def _favourite_way(m: re.Match[str], out: Emitter) -> None:
    """ "Reading is my favorite way to unwind", "Painting's a fun way to express my feelings",
    "Cooking's been a great way to relax" — the person's own way; "Pottery's a great way to
    relax" (of the other speaker's hobby) and "Trying new stuff is a great way to push
    yourself" (advice) are not; "Gaming is a great way for me to unwind" is."""
    said = m["thing"] or m["mine"] or m["lived"] or m["forme"]
    _liked_activity(out, said, activity_only=False)


@rule(
    "soothing",
    rf"{_OPENER}{_SUBJECT_THING}(?:{_HAS_BEEN}|\s*(?:['’]s|\s+is)(?=.*\bfor\s+me\b))\s+"
    rf"(?:(?:so|really|very|super|always|just|incredibly)\s+)*(?i:relaxing|calming|therapeutic|"
    rf"soothing|fulfilling|rewarding|meditative)\b",
)
def _soothing(m: re.Match[str], out: Emitter) -> None:
    """ "Pottery has been so calming", "Running is so therapeutic for me" (an activity only)."""
    _liked_activity(out, m["thing"], activity_only=True)


def _liked_activity(out: Emitter, said: str, *, activity_only: bool) -> None:
    thing = said.lower()
    if activity_only and not (thing.endswith("ing") or ACTIVITY.fullmatch(thing)):
        return  # "Jazz is so relaxing for me" may be a passing remark
    if thing.split()[0] not in NOT_NAMES:
        _like(out, thing)


@rule(
    "favourite_thing_is",
    rf"(?i:\bmy\s+(?:absolute\s+)?favou?rite\s+(?:thing|things|activity|hobby|pastime)(?:\s+to\s+do)?"
    rf"(?:\s+in\s+(?:my\s+free\s+time|the\s+world))?\s+(?:is|are|has\s+to\s+be)\s+(?:to\s+)?)"
    rf"{_PHRASE}",
)
def _favourite_thing_is(m: re.Match[str], out: Emitter) -> None:
    """ "My favorite thing to do is go to the beach with my family"."""
    what = liked(_whole(m["what"], object_=False))
    if what is not None and not out.clause_said:
        _like(out, _own(re.sub(r"(?i)^go\s+(?:to\s+)?", "going to ", what)))


@rule(
    "passionate_about",
    rf"(?i:\bI(?:'m|\s+am)\s+(?:really\s+|so\s+|very\s+|super\s+|incredibly\s+|truly\s+|"
    rf"also\s+)?passionate\s+about)\s+{_SINCE}",
)
def _passionate_about(m: re.Match[str], out: Emitter) -> None:
    """ "I'm really passionate about environmental issues"."""
    what = liked(_whole(m["what"], object_=False))
    if what is not None and not re.match(r"(?i)(?:what|how|this|that|it)\b", what):
        what = _own(what)
        out.fact("LIKES", f"{out.who} is passionate about {what}", value=what,
                 fact_type="preference", confidence=0.7)  # fmt: skip


# "photography and want to learn more": the phrase ends where a verb of the person's begins
_AND_VERB = re.compile(
    r"(?i)\s+(?:and|but)\s+(?:want|would|hope|plan|wish|need|love|like|really|am|have|can|will|"
    r"think|try|wanna|gonna|started|decided)\b"
)


@rule(
    "interested_in",
    rf"(?i:\bI(?:'m|\s+am|(?:'ve|\s+have)\s+been|(?=\s+(?:recently\s+|just\s+|finally\s+)?got\b))"
    rf"\s+(?:really\s+|very\s+|so\s+|super\s+|also\s+|always\s+|mostly\s+|recently\s+|just\s+|"
    rf"finally\s+)*(?P<how>interested\s+in|getting\s+(?:really\s+)?into|fascinated\s+by|"
    rf"hooked\s+on|obsessed\s+with|got\s+(?P<keen>(?:really|so|super|totally|big\s+time)\s+)?into))"
    rf"\s+{_SINCE}",
)
def _interested_in(m: re.Match[str], out: Emitter) -> None:
    """ "I'm really interested in photography", "I'm getting into birdwatching lately"."""
    said = _AND_VERB.split(m["what"], maxsplit=1)[0]
    what = liked(_whole(said, object_=False))
    if what is None or re.match(r"(?i)(?:what|how|this|that|it|your|you)\b", what):
        return
    if m["how"][:3].lower() == "got" and not m["keen"]:
        return  # "I got into college", "got into arguing": no taste; "got really into yoga" is
    what, how = _own(what), " ".join(m["how"].lower().split())
    how = "getting into" if how.startswith("getting") else "got into" if how[:3] == "got" else how
    out.fact("LIKES", f"{out.who} is {how} {what}", value=what, fact_type="preference",
             confidence=0.7)  # fmt: skip


# A keen doer: "an avid hiker" likes hiking; "a huge animal lover" likes animals.
_DOERS = {
    "reader": "reading", "hiker": "hiking", "runner": "running", "cook": "cooking",
    "baker": "baking", "gamer": "gaming", "traveler": "traveling", "traveller": "travelling",
    "swimmer": "swimming", "cyclist": "cycling", "climber": "climbing", "gardener": "gardening",
    "dancer": "dancing", "singer": "singing", "golfer": "golf", "surfer": "surfing",
    "skier": "skiing", "knitter": "knitting", "camper": "camping", "skater": "skating",
    "birder": "birdwatching", "foodie": "food", "bookworm": "reading",
}  # fmt: skip
_DOER = "|".join(_DOERS)


@rule(
    "keen_doer",
    rf"(?i:\bI(?:'m|\s+am|(?:'ve|\s+have)\s+always\s+been)\s+(?:such\s+)?an?\s+)(?:"
    rf"(?i:big|huge|avid|keen|passionate|total|serious|real|massive|die-hard|lifelong|"
    rf"enthusiastic)\s+(?P<doer>(?i:{_DOER}))|(?P<thing>[a-z][a-z-]+(?:\s+[a-z-]+)?)\s+"
    rf"(?i:lover|enthusiast|nerd|geek|buff|junkie|fanatic)|(?P<plain>(?i:bookworm|foodie)))\b",
)
def _keen_doer(m: re.Match[str], out: Emitter) -> None:
    """ "I'm an avid hiker" (likes hiking), "I'm a huge animal lover" (likes animals)."""
    doer = (m["doer"] or m["plain"] or "").lower()
    thing = _DOERS[doer] if doer else re.sub(r"^(?:big|huge|total|real|massive)\s+", "", m["thing"])
    if thing.split()[0] in NOT_NAMES or thing in ("book", "tech", "music", "animal", "nature"):
        thing = {"book": "books", "animal": "animals"}.get(thing, thing)
    _like(out, thing)


@rule(
    "my_love_for",
    r"(?i:\bmy\s+(?:(?:huge|deep|big|great|lifelong|real|true|own|growing)\s+)?(?:love|passion)\s+"
    r"(?:for|of))\s+" + _PHRASE,
)
def _my_love_for(m: re.Match[str], out: Emitter) -> None:
    """ "I just think about my love for dance and how it makes me feel", "my passion for
    cooking" — never "my love for you"."""
    said = re.split(
        r"(?i)\s+and\s+(?:how|what|why|when|where|the\s+way)\b|\s+(?:started|began|is|was|has|have|"
        r"comes|came|grew|goes|keeps|helps|makes|took|led|got)\b",
        m["what"],
    )[0]
    said = re.sub(r"(?i)(?:\s+(?:even|still|too|also|really))+$", "", said)  # "reading even [more]"
    what = liked(_whole(said, object_=False))
    if what is not None and not _NOT_WORK.match(what):
        _like(out, _own(what))
