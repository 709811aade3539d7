"""What the person does and lives for, said in passing in a long, chatty turn: an activity as
the subject of its sentence ("Searching for a studio location has been tricky"), one kept up
lately ("I've been going to the gym a lot", "I've been really into gardening"), one begun
("Started to learn all these marketing tools"), a like held for long ("I've loved painting ever
since I was a kid"), and what the person lives for ("dancing has been my escape", "my real
muses: painting and pottery").

The present perfect progressive ("I've been …ing") is a word of duration itself: what it names
has gone on for a while. The verbs are a closed list of activities, never a feeling, a thought
or a hardship ("I've been thinking", "I've been going through a lot"); the value is the whole
phrase (:func:`.doing._whole`). A fallback like :mod:`.doing`: a clause another rule wrote from
writes nothing here. Their place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.doing import _END, _ING, _PHRASE, _own, _whole
from services.memory_upserter.extract.rules.keeps import _like
from services.memory_upserter.extract.rules.pastimes import ACTIVITY
from services.memory_upserter.extract.rules.registry import liked, rule
from services.memory_upserter.extract.vocabulary import NOT_NAMES


@rule(
    "gerund_has_been",
    rf"^\W*(?P<verb>(?i:{_ING}))\s+(?P<what>[^,.;:!?\u2014\u2013]{{3,90}}?)\s*(?:['’]s|\s+has)"
    rf"\s+been\s+(?:(?:a|an|so|really|pretty|super|quite|very|kind\s+of|a\s+bit|such\s+a)\s+)*"
    rf"(?P<how>[a-z-]+)",
)
def _gerund_has_been(m: re.Match[str], out: Emitter) -> None:
    """ "Searching for a dance studio location has been tricky", "Opening the studio's been a
    great experience": the activity is the person's, underway (has been)."""
    verb = " ".join(m["verb"].lower().split())
    what = _whole(m["what"])
    if what is None or not out.is_user or verb in ("having", "doing", "making", "taking"):
        return
    doing = f"{verb} {_own(what)}"
    out.fact("DOES", f"{out.who} is {doing}", value=doing, fact_type="habit", confidence=0.7)


_BASE = (
    r"learn|play|paint|write|study|practi[cs]e|volunteer|teach|train|work\s+on|cook|bake|read|"
    r"dance|sing|draw|knit|swim|hike|run|collect|meditate|journal|take|use|build|make|"
    r"do\s+(?:yoga|pilates)|go\s+to\s+(?:the\s+gym|therapy|church|classes)"
)


@rule(
    "started_to",
    rf"(?:(?i:\b(?:I|we)(?:'ve|\s+have)?\s+)|^\W*|(?<=[.!?]\s))(?i:(?:just\s+|recently\s+|"
    rf"finally\s+|also\s+)?(?:started|began|begun)\s+to)\s+(?P<verb>(?i:{_BASE}))\s+{_PHRASE}",
)
def _started_to(m: re.Match[str], out: Emitter) -> None:
    """ "Started to learn all these marketing and analytics tools to push the biz forward"."""
    said = re.split(r"\s+(?:to|so\s+that|in\s+order\s+to)\s+(?=[a-z])", m["what"])[0]
    what = _whole(said)
    if what is None or out.clause_said:
        return
    doing = _own(f"{' '.join(m['verb'].lower().split())} {what}")
    out.fact("DOES", f"{out.who} started to {doing}", value=doing, fact_type="habit",
             confidence=0.7)  # fmt: skip


_LIVES_FOR = (
    r"escape|passion|therapy|outlet|stress[- ]?(?:buster|relief|reliever)|sanctuary|happy\s+place|"
    r"safe\s+place|refuge|muse|lifeline|go-to|favou?rite\s+(?:thing|hobby|pastime)|"
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
    _like(out, thing)


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
_LATELY = (
    r"going\s+to\s+(?:the\s+gym|yoga|pilates|classes|church|therapy|counseling|counselling|"
    r"meetings|the\s+(?:park|beach|library|pool|studio|shelter)|(?:a\s+)?(?:support\s+group|"
    r"dance|art|cooking|pottery|painting|yoga)\s*(?:class(?:es)?|group)?)|trying\s+out|"
    r"trying\s+new|exploring|hiking|biking|cycling|swimming|cooking|baking|dancing|singing|"
    r"travel(?:l)?ing\s+(?:to|around|with)|watching|listening\s+to|experimenting\s+with|"
    r"getting\s+into|journaling|meditating|working\s+out|hitting\s+the\s+gym|spending\s+(?:a\s+lot\s+"
    r"of\s+|more\s+|lots\s+of\s+|so\s+much\s+)?time\s+(?:with|on|at|in)|taking\s+care\s+of|"
    r"hanging\s+out\s+with|visiting|working\s+with|building|fixing\s+up|"
    r"restoring|training|coaching|helping\s+(?:out\s+)?(?:at|with)|saving\s+(?:money|up)|"
    r"keeping\s+up\s+with|eating|cutting\s+(?:back|down)\s+on|avoiding|skipping|walking|jogging|running|"
    r"playing|writing|reading|painting|drawing|photographing|shooting|filming|recording|"
    r"making|knitting|sewing|crafting|gaming|streaming|blogging|vlogging|posting|doing"
)
_TODAY = re.compile(
    r"(?i)\b(?:all\s+(?:day|morning|night|afternoon|evening|week|weekend)|today|tonight|"
    r"this\s+(?:morning|afternoon|evening)|since\s+(?:this\s+morning|noon|breakfast))\b"
)
# Time words a phrase may end on ("trying out abstract stuff recently"): not the activity's.
_TRAILING = re.compile(r"(?i)(?:\s+(?:recently|lately|these\s+days|nowadays|again|a\s+lot|"
                       r"more|so\s+much|all\s+the\s+time))+\s*$")  # fmt: skip
_VAGUE = re.compile(r"(?i)(?:(?:some|my|our|new|other|different|all\s+the|the)\s+)?(?:options?|"
                    r"ideas?|possibilities|stuff|things|everything|it\s+all)")  # fmt: skip
_PERFECT = r"(?i:\b(?:I|we)(?:'ve|\s+have)\s+been|(?:^|(?<=[.!?]\s)|(?<=,\s)just\s+)been)"
# A phrase that also ends before "ever since" ("I've loved painting ever since I was a kid").
_SINCE = rf"(?P<what>[^,.;:!?\u2014\u2013]{{3,90}}?)(?:(?=\s+ever\s+since\b)|{_END})"
# Activities whole without an object ("I've been going to the gym a lot lately").
_ALONE = re.compile(
    r"going\s+to\s.*|hiking|biking|cycling|swimming|cooking|baking|dancing|singing|journaling|"
    r"meditating|working\s+out|hitting\s+the\s+gym|walking|jogging|running|painting|drawing|"
    r"knitting|sewing|crafting|gaming|blogging|vlogging|training|eating\s+(?:healthier|better|clean)"
)


@rule(
    "been_doing",
    rf"{_PERFECT}\s+(?:(?i:really|so|also|just|mostly|still|busy|actually|finally|regularly|"
    rf"constantly|always)\s+)*(?P<verb>(?i:{_LATELY}))(?:\s+{_SINCE}|{_END}|(?=\s+(?i:a\s+lot|a\s+bit|more|again|"
    rf"regularly|often|loads|heaps)\b))",
)
def _been_doing(m: re.Match[str], out: Emitter) -> None:
    """ "I've been going to the gym a lot lately", "been trying out new recipes"."""
    verb = " ".join(m["verb"].lower().split())
    what = _whole(_TRAILING.sub("", m["what"]), object_=False) if m["what"] else None
    if what is not None and _VAGUE.fullmatch(what):
        return  # "I've been exploring options": no activity one can name
    if out.clause_said or not out.is_user or (what is None and not _ALONE.fullmatch(verb)):
        return
    if verb == "doing" and (what is None or not ACTIVITY.fullmatch(what)):
        return  # "I've been doing yoga", never "doing ok"
    if _TODAY.search(m.string):
        return  # "I've been working in the garden all day": this day's, not a habit
    doing = _own(f"{verb} {what or ''}".strip())
    out.fact("DOES", f"{out.who} has been {doing}", value=doing, fact_type="habit",
             confidence=0.7)  # fmt: skip


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
    rf"always|just|also|definitely)\s+)?(?:helps|keeps|has\s+(?:really\s+)?(?:helped|kept))\s+"
    rf"me\s+(?:to\s+)?(?i:{_SOOTHES})\b",
)
def _helps_me(m: re.Match[str], out: Emitter) -> None:
    """ "Painting helps me destress after a long day", "dancing has kept me going"."""
    thing = _thing_case(m["thing"])
    if thing.split()[0].lower() not in NOT_NAMES and thing.lower() not in (
        "this", "that", "it", "work", "family"
    ):  # fmt: skip
        _like(out, thing)


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
    rf"super|so)\s+)?{_GOOD}\s+way\s+to\s+\w+",
)
def _favourite_way(m: re.Match[str], out: Emitter) -> None:
    """ "Reading is my favorite way to unwind", "Painting's a fun way to express my feelings",
    "Cooking's been a great way to relax" — the person's own way; "Pottery's a great way to
    relax" (of the other speaker's hobby) and "Trying new stuff is a great way to push
    yourself" (advice) are not."""
    _liked_activity(out, m["thing"] or m["mine"] or m["lived"], activity_only=False)


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
