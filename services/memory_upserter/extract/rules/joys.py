"""Likes said by what a pastime gives the person (issue 28, round 9): "Art gives me so much joy",
"Clay brings me so much happiness", "Dancing makes me so happy", "Painting helps me explore my
identity", "Playing guitar helps me get my emotions out", "Pottery is a huge part of my life".

Soothing ("helps me relax") and what the person lives for ("is my escape") are
:mod:`.fondness`'s; these are the other effects conversation names. The subject is a pastime: a
gerund phrase ("Dancing", "Playing guitar") or a pastime's noun ("Art", "Clay", "Guitar") —
never a pronoun ("It brings me joy"), the other speaker's ("Your support makes me happy"), a
person ("Mel makes me happy"), a relative ("My kids make me happy": a relation, written where it
is named) or a thing seen ("Seeing my students succeed …", "This photo …"). Their place in the
rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.doing import _own
from services.memory_upserter.extract.rules.keeps import _like
from services.memory_upserter.extract.rules.pastimes import ACTIVITY
from services.memory_upserter.extract.rules.registry import rule

_OPENER = r"^\W*(?:(?i:and|but|so|yeah|yes|oh|honestly|plus|also|wow|man)\W+)*"
# A pastime as the clause's subject: a gerund phrase ("Playing my guitar") or one noun ("Art").
_PASTIME = r"(?P<thing>[A-Za-z][a-z]+ing(?:\s+(?:my\s+)?[a-z]+){0,2}|[A-Za-z][a-z]+(?:\s+[a-z]+)?)"
_ADVERB = r"(?:(?i:really|truly|just|always|honestly|definitely|also|still|totally)\s+)*"
_MUCH = r"(?:(?:so\s+much|such|a\s+lot\s+of|great|real|pure|true|endless)\s+)?"
_JOY = r"(?:joy|happiness|peace|comfort|calm|fulfil?lment|energy|purpose|freedom)"
_HAPPY = r"(?:(?:so|really|very|super|truly|incredibly)\s+)?(?:happy|calm|alive|free|peaceful)"
_EXPRESS = (
    r"(?:express|explore|understand|find|be|stay\s+true\s+to|get\s+(?:my\s+)?(?:emotions|"
    r"feelings|thoughts)\s+out|work\s+through|process|connect\s+with|show\s+my\s+feelings)"
)

# Pastimes said by a noun that is no gerund (the gerunds speak for themselves).
PASTIME_NOUNS = frozenset(
    """art music dance ballet clay pottery yoga pilates photography guitar piano violin drums
cello ukulele flute saxophone poetry writing reading painting drawing nature sports football
soccer basketball baseball tennis golf volleyball hockey chess theater theatre film films movies
cinema gardening cooking baking knitting crochet sewing fashion design surfing skiing climbing
meditation journaling travel travelling traveling hiking running swimming cycling fishing
camping singing gaming skating boxing karate woodworking calligraphy sculpture sculpting
comics animation""".split()
)
# Gerund-looking words that name no pastime of the person's.
_NOT_PASTIME = frozenset(
    """thing something nothing anything everything seeing knowing hearing having being
getting feeling morning evening wedding building ending beginning meeting spring ring king
bring sing sling sting wing swing""".split()
)


_DETERMINERS = frozenset(
    "the a an this that these those your his her their its our my some any every".split()
)
_ADVERBS = frozenset("really truly just always also still totally so very quite pretty".split())


def _pastime(thing: str) -> str | None:
    """The pastime the subject names, lower case; None when it names none."""
    words = thing.lower().split()
    while len(words) > 1 and words[-1] in _ADVERBS:
        words.pop()  # "cooking really [relaxing]": the adverb is the predicate's
    if words[0] in _NOT_PASTIME or words[0] in ("my", "our"):
        return None
    if len(words) == 1:
        head = words[0]
        gerund = head.endswith("ing") and len(head) > 5  # "dancing", never "king"
        return head if gerund or head in PASTIME_NOUNS or ACTIVITY.fullmatch(head) else None
    if len(words) == 2 and words[1] in PASTIME_NOUNS and words[0] not in _DETERMINERS:
        return " ".join(words)  # "contemporary dance", "abstract art"
    if not words[0].endswith("ing") or words[-1] in ("it", "them", "this", "that", "you"):
        return None  # "Playing guitar", never "Art class" as a phrase nor "Seeing it"
    return " ".join(words)


def _liked(out: Emitter, thing: str) -> None:
    what = _pastime(thing)
    if out.is_user and what is not None:
        _like(out, _own(what))


@rule(
    "gives_me_joy",
    rf"{_OPENER}{_PASTIME}\s+{_ADVERB}(?:(?:gives|brings|has\s+(?:given|brought))\s+me\s+"
    rf"{_MUCH}(?i:{_JOY})|makes\s+me\s+(?:feel\s+)?(?i:{_HAPPY}))\b",
)
def _gives_me_joy(m: re.Match[str], out: Emitter) -> None:
    """ "Art gives me so much joy", "Clay brings me so much happiness", "Dancing makes me so
    happy"."""
    _liked(out, m["thing"])


@rule(
    "helps_me_express",
    rf"{_OPENER}{_PASTIME}\s+{_ADVERB}(?:helps|has\s+helped|lets|allows)\s+me\s+(?:to\s+)?"
    rf"(?i:{_EXPRESS})\b",
)
def _helps_me_express(m: re.Match[str], out: Emitter) -> None:
    """ "Painting helps me explore my identity", "Playing guitar helps me get my emotions out"."""
    _liked(out, m["thing"])


@rule(
    "is_part_of_my_life",
    rf"{_OPENER}{_PASTIME}\s*(?:['’]s|\s+is|\s+has\s+become)\s+{_ADVERB}(?:such\s+)?an?\s+"
    rf"(?:(?:big|huge|important|major|large|key|massive)\s+)?part\s+of\s+(?:my\s+life|who\s+I\s+am|"
    rf"me)\b",
)
def _is_part_of_my_life(m: re.Match[str], out: Emitter) -> None:
    """ "Pottery is a huge part of my life", "Music's a big part of who I am"."""
    _liked(out, m["thing"])


@rule(
    "my_thing",
    rf"{_OPENER}{_PASTIME}\s*(?:['’]s|\s+is|\s+has\s+(?:always\s+)?been)\s+(?:(?i:mostly|"
    rf"definitely|totally|really|kind\s+of|more|always|just)\s+)*my\s+(?:(?:main|real|favou?rite|"
    rf"whole)\s+)?thing\b(?!\s+(?:to|of|for|that)\b)",
)
def _my_thing(m: re.Match[str], out: Emitter) -> None:
    """ "Guitar's mostly my thing", "Pottery is definitely my thing"."""
    _liked(out, m["thing"])


_UNWIND = r"(?:recharge|unwind|relax|de-?stress|cope|escape|decompress|switch\s+off|reset|chill)"


@rule(
    "how_i_unwind",
    rf"{_OPENER}{_PASTIME}\s*(?:['’]s|\s+is|\s+has\s+(?:always\s+)?been)\s+{_ADVERB}(?:how\s+I\s+"
    rf"(?i:{_UNWIND})|my\s+(?:(?:main|favou?rite|go-to|best)\s+)?way\s+of\s+(?i:coping|unwinding|"
    rf"relaxing|de-?stressing|escaping|recharging|dealing\s+with\s+\w+))\b",
)
def _how_i_unwind(m: re.Match[str], out: Emitter) -> None:
    """ "Hiking is how I recharge", "Writing has always been my way of coping"."""
    _liked(out, m["thing"])


@rule(
    "something_i_love",
    rf"{_OPENER}{_PASTIME}\s*(?:['’]s|\s+is|\s+has\s+(?:always\s+)?been)\s+{_ADVERB}(?:something|"
    rf"one\s+thing)\s+I(?:['’]ve|\s+have)?\s+(?:always\s+|really\s+|truly\s+)*(?:loved|enjoyed|"
    rf"love|enjoy|been\s+passionate\s+about)\b",
)
def _something_i_love(m: re.Match[str], out: Emitter) -> None:
    """ "Reading is something I've always loved"."""
    _liked(out, m["thing"])


@rule(
    "my_hobby",
    rf"{_OPENER}{_PASTIME}\s*(?:['’]s|\s+is|\s+has\s+become)\s+{_ADVERB}(?:one\s+of\s+my\s+"
    rf"(?:(?:favou?rite|main|many)\s+)?hobbies|my\s+(?:(?:new|latest|main|favou?rite|big)\s+)?"
    rf"(?:hobby|obsession))\b|(?i:\bmy\s+(?:(?:new|latest|main|current)\s+)?hobby\s+"
    rf"(?:is|these\s+days\s+is|right\s+now\s+is)\s+){_PASTIME.replace('thing', 'after')}\b",
)
def _my_hobby(m: re.Match[str], out: Emitter) -> None:
    """ "Photography is my new hobby", "Cooking is one of my hobbies", "My new hobby is
    birdwatching" — a pastime of the person's."""
    what = _pastime(m["thing"] or m["after"])
    if out.is_user and what is not None:
        out.fact("DOES", f"{out.who} has {_own(what)} as a hobby", value=_own(what),
                 fact_type="habit", confidence=0.75)  # fmt: skip


@rule(
    "a_lifesaver",
    rf"{_OPENER}{_PASTIME}\s*(?:['’]s|\s+is|\s+has\s+(?:really\s+)?been)\s+{_ADVERB}(?:such\s+)?an?\s+"
    rf"(?:(?:total|real|huge|big|absolute)\s+)?(?:game[\s-]?changer|life[\s-]?saver|blessing)\s+for\s+me\b",
)
def _a_lifesaver(m: re.Match[str], out: Emitter) -> None:
    """ "Yoga has been a game changer for me", "Running is a lifesaver for me"."""
    _liked(out, m["thing"])


_FOUND = r"(?:relaxing|calming|soothing|therapeutic|fun|rewarding|fulfilling|meditative|freeing)"


@rule(
    "i_find_it",
    rf"(?i:\bI\s+(?:(?:really|always|honestly|also|just)\s+)?(?:find|found)\s+)"
    rf"{_PASTIME.replace('[A-Za-z]', '[a-z]')}\s+(?i:(?:so|really|very|super|incredibly|"
    rf"quite|pretty|deeply)\s+)?(?i:{_FOUND})\b|"
    rf"(?i:\bI\s+(?:(?:really|always|honestly|also|just)\s+)?(?:find|get|take)\s+(?:so\s+much|"
    rf"a\s+lot\s+of|such|great|real)?\s*(?:joy|peace|comfort|happiness|pleasure)\s+(?:in|from|"
    rf"out\s+of)\s+){_PASTIME.replace('thing', 'source').replace('[A-Za-z]', '[a-z]')}\b",
)
def _i_find_it(m: re.Match[str], out: Emitter) -> None:
    """ "I find cooking really relaxing", "I get so much joy out of gardening"."""
    _liked(out, m["thing"] or m["source"])


@rule(
    "never_gets_old",
    rf"{_OPENER}{_PASTIME}\s+(?:(?:never\s+gets\s+old|means\s+(?:everything|the\s+world|so\s+much)"
    rf")(?:\s+(?:for|to)\s+me)?)(?=\s*(?:[.!,;]|$))",
)
def _never_gets_old(m: re.Match[str], out: Emitter) -> None:
    """ "Painting never gets old for me", "Music means everything to me"."""
    _liked(out, m["thing"])


_DOES_FOR_ME = (
    rf"(?:speaks\s+to\s+me|resonates\s+with\s+me|(?:brings|gives)\s+me\s+{_MUCH}{_JOY}|makes\s+me\s+"
    rf"(?:feel\s+)?{_HAPPY}|helps\s+me\s+(?:to\s+)?(?:{_EXPRESS}|{_UNWIND})|keeps\s+me\s+(?:sane|"
    rf"going|grounded|calm))"
)
# The sentence opens on a pastime described ("Clay is incredible", "Contemporary dance is so
# expressive"): the "it" of its next clause.
_DESCRIBED = re.compile(rf"{_OPENER}{_PASTIME}\s*(?:['’]s|\s+is|\s+are|\s+has\s+been)\s")


@rule(
    "it_does_for_me",
    rf"(?:^\W*|,\s*)(?i:and\s+)?(?i:it)\s+{_ADVERB}(?i:{_DOES_FOR_ME})\b",
)
def _it_does_for_me(m: re.Match[str], out: Emitter) -> None:
    """ "Contemporary dance is so expressive and graceful - it really speaks to me", "Clay is
    incredible, it brings me so much joy": "it" is the pastime the sentence opened on (never one
    of another sentence, nor "This song is great, it speaks to me": no pastime)."""
    opened = _DESCRIBED.match(out.sentence)
    if opened is not None and out.sentence.find(m.group(0).strip(" ,")) > opened.end():
        _liked(out, opened["thing"])
