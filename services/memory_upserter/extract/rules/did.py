"""What the person did, as a dated one-off event (``DID``): "I went to a support group
yesterday", "I bought air tickets to Toronto". The object is a whole phrase (:mod:`..phrase`),
dated by the day said (a past one; "just": the turn's) and otherwise undated — told today is
not done today; never an event of a vague or early past ("last summer", "at uni", childhood),
never a piece of one ("made for", "a gym near"), never
what is to come. Joining or starting an activity or a group is a state (:mod:`.pastimes`),
joining an organisation is where the person works (:mod:`.profile`)."""

from __future__ import annotations

import re
from datetime import datetime

from services.memory_upserter.extract import assertion, phrase, tone
from services.memory_upserter.extract.coming import SEASON
from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.pastimes import ACTIVITY, GROUP
from services.memory_upserter.extract.rules.registry import THING, _thing, rule

_FRAGMENT = re.compile(
    r"(?i)(?:\b(?:for|about|with|by|of|to|into|recently|together|too|again|"
    r"one|it|them|this|that|some|bits?|while|last\s+\w+|near|from|at|in|on|like|around|"
    r"over|off|out|up|my|our|their|the|a|an)$|…|\b(?:this|these)\b)"
)  # "made for", "wrote a few bits", "making this treat" (a thing in a picture): no event
_FRAGMENT_START = re.compile(
    r"(?i)(?:about|while|for|another\s+(?:one|time)|the\s+first|a\s+few|up|the\s+(?:impact|point|difference|"
    r"value|importance|beauty|power|need|good|bright\s+side|light|way)|an?\s+(?:\w+\s+)?"
    r"(?:difference|impact))\b"
)  # "saw the impact I could make": a realisation, not an event


_CUT_TIME = re.compile(
    r"(?i)\s(?:\w+\s+)?(?:days?|nights?|weekends?|weeks?|months?|years?|ages|a\s+while)$"
)
_SEASON = re.compile(rf"(?i)\b{SEASON}\b")  # "last summer" dates a state, and is no event's day


# What one enters and competes in: "I entered a video game tournament" (never "the room").
_CONTEST = (
    r"(?:\s+[\w'-]+){1,4}?\s+(?:tournament|competition|contest|race|marathon|show|championship)"
)


@rule(
    "did",
    rf"(?i:\b(?:I|we)\s+(?:just\s+|recently\s+|finally\s+|also\s+)?(?P<verb>went\s+to|"
    rf"visited|joined|started|adopted|bought|attended|signed\s+up\s+for|graduated\s+"
    rf"from|ran|painted|wrote|read|met|took|made|finished|tried|watched|learned|won|"
    rf"volunteered\s+at|volunteered\s+for|celebrated|hiked|baked|cooked|built|"
    rf"played|completed|got\s+back\s+from|went\s+on|saw|started\s+learning|"
    rf"picked\s+up|gave|received|donated|organized|hosted|performed\s+at|got\s+accepted\s+"
    rf"(?:for|to|into)|competed\s+in|entered(?={_CONTEST})|went(?=\s+(?!missing\b)[a-z]+ing\b)|"
    rf"had(?=\s+(?:my|a|an|our)\s+(?:first\s+|last\s+)?(?:[\w-]+\s+)?(?:lesson|class|gig|recital|"
    rf"match|game|practice|session|tournament|competition|concert|performance)s?\b)))\s+{THING}",
)
def _did(m: re.Match[str], out: Emitter) -> None:
    """What the speaker did, dated by the time said (imports set ``now`` to the message time); in a
    sentence about childhood ("the camera I had as a kid, I took plenty of beach pics") it is
    the past, never dated today."""
    if assertion.childhood(out.sentence) or (
        (out.valid_from is None or _SEASON.search(out.sentence)) and tone.vague_past(out.sentence)
    ):
        return  # the past, or no day said ("last summer", "at uni"): never dated today
    said = m["thing"] + phrase.object_tail(m.string, m.end())  # "air tickets" + " to Toronto"
    thing = _thing(re.split(r"(?i)\s+(?:that|which|who)\s+(?:was|were|is|are)\b", said)[0])
    if not thing or re.match(r"(?i)(?:bed|sleep|work|home|working\b.*)$", thing):
        return
    verb = m["verb"].lower()
    if _FRAGMENT.search(thing) or _FRAGMENT_START.match(thing) or _trifle(verb, thing, out):
        return  # "made for", "saw while hiking", "wrote a few bits": a piece of an event
    if verb in ("finished", "stopped", "kept", "quit") and re.fullmatch(r"(?i)[a-z]+ing", thing):
        return  # "I finished writing [my first novel]": the object is past the gerund
    if verb in ("joined", "started") and re.match(r"(?:at\s+|with\s+)?[A-Z]", thing):
        return  # joining an organisation is where the person works (profile.employer)
    if verb == "started" and re.match(
        r"(?i)(?:[a-z]+ing\b|my\s+own\b|(?:a\s+)?(?:new\s+)?job\b)", thing
    ):
        return  # an activity since then (doing.started_doing), a business, a job: states
    if verb in ("joined", "started") and (ACTIVITY.fullmatch(thing) or GROUP.search(thing)):
        return  # "I recently started pottery", "I joined a book club": states (pastimes)
    if out.valid_from is not None and out.valid_from > out.now:
        return  # "I signed up for a pottery class next week": what is to come is no event
    just = re.search(r"(?i)\bjust\b", m.group(0)) is not None  # "I just got back": today
    _did_at(out, _happened(m, thing, out), out.valid_from or (out.now if just else None))


def _trifle(verb: str, thing: str, out: Emitter) -> bool:
    """ "went camping with my fam two weekends [ago]" (a time phrase cut short); "I had a game
    tonight", "I had a class at 9" (no day said, no first): no event to keep."""
    if _CUT_TIME.search(thing):
        return True
    first = re.match(r"(?i)(?:my|a|an|our)\s+first\b", thing)
    return verb == "had" and out.valid_from is None and not first


def _happened(m: re.Match[str], thing: str, out: Emitter) -> str:
    if out.is_user:  # "tried my newest recipe": the user's, said in the third person
        thing = re.sub(r"\bmy\b", "their", re.sub(r"\bmyself\b", "themselves", thing))
    return f"{' '.join(m['verb'].lower().split())} {thing}"


def _did_at(out: Emitter, happened: str, said_at: datetime | None) -> None:
    """The event, dated by the time said (a past one, or "just": the turn's day); with no
    time said it is undated — "I went to Paris" told today did not happen today."""
    clause_from, out.valid_from = out.valid_from, said_at
    if said_at is None:
        out.fact("DID", f"{out.who} {happened}", value=happened, confidence=0.7)
    else:
        day = said_at.date().isoformat()
        out.fact("DID", f"{out.who} {happened} (on {day})", value=f"{happened} @ {day}",
                 confidence=0.7)  # fmt: skip
    out.valid_from = clause_from
