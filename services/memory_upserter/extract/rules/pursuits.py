"""Pastimes said in the plain shapes the closed verb lists of :mod:`.doing` miss (issue 28,
round 9): what the person does a lot of ("I do a lot of baking these days", "I do martial
arts") and what they do in their spare time, whatever the verb ("I make jewelry in my spare
time", "In my free time I restore old bikes").

A pastime's gerund (:data:`.pastimes.HOBBY_ING`) or noun (:data:`.pastimes.ACTIVITY`) only:
"I do a lot of thinking", "I do my best", "I do the dishes" are no pastime. Spare time is the
person's own ("in my spare time"); a verb of thought or wish ("I wish I had more spare time",
"I think in my free time …") writes nothing. A fallback: a clause another rule wrote from
writes nothing here. Their place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.doing import _PHRASE, _own, _whole
from services.memory_upserter.extract.rules.pastimes import ACTIVITY, HOBBY_ING
from services.memory_upserter.extract.rules.registry import rule

_SPORTS = re.compile(r"(?i)(?:martial\s+arts|crossfit|parkour|triathlons?)")


@rule(
    "do_a_lot_of",
    r"(?i:\bI\s+(?:also\s+|still\s+|usually\s+|mostly\s+)?do\s+(?:(?:a\s+lot|lots|tons|"
    r"a\s+bunch|a\s+ton|a\s+bit)\s+of\s+|some\s+)?)" + _PHRASE,
)
def _do_a_lot_of(m: re.Match[str], out: Emitter) -> None:
    """ "I do a lot of baking these days", "I do martial arts"."""
    what = _whole(re.sub(r"(?i)\s+(?:these\s+days|nowadays|lately|now)$", "", m["what"]))
    if what is None or out.clause_said or not out.is_user:
        return
    if HOBBY_ING.fullmatch(what) or ACTIVITY.fullmatch(what) or _SPORTS.fullmatch(what):
        what = _own(what.lower())
        out.fact("DOES", f"{out.who} does {what}", value=what, fact_type="habit", confidence=0.7)


_NOT_DOING = (
    r"am|was|have|had|think|feel|guess|hope|wish|want|need|mean|know|believe|wonder|miss|hate|"
    r"can|could|would|will|should|might|must|do|don't|did|get|got|like|love|just|try|used"
)
_SPARE = r"(?i:in\s+(?:my|our)\s+(?:spare|free|down|off)\s*time)"


@rule(
    "in_my_spare_time",
    rf"(?i:\bI\s+(?:(?:also|usually|often|mostly|sometimes)\s+)?)(?!(?i:{_NOT_DOING})\b)"
    rf"(?P<verb>[a-z]{{3,}})\s+(?P<what>[a-z][\w' -]{{2,60}}?)\s+{_SPARE}|"
    rf"{_SPARE},?\s+(?i:I\s+(?:(?:also|usually|often|mostly|sometimes)\s+)?)"
    rf"(?!(?i:{_NOT_DOING})\b)(?P<verb2>[a-z]{{3,}})\s+(?P<what2>[a-z][\w' -]{{2,60}}?)"
    rf"(?=\s*(?:[,.;:!?]|$))",
)
def _in_my_spare_time(m: re.Match[str], out: Emitter) -> None:
    """ "I make jewelry in my spare time", "In my free time I restore old bikes"."""
    verb, what = (m["verb"] or m["verb2"]).lower(), _whole(m["what"] or m["what2"])
    if what is None or out.clause_said or not out.is_user or verb.endswith(("ed", "ing")):
        return
    does = _third_person(verb)
    what = _own(what)
    out.fact("DOES", f"{out.who} {does} {what} in their spare time", value=f"{verb} {what}",
             fact_type="habit", confidence=0.7)  # fmt: skip


def _third_person(verb: str) -> str:
    """ "make" → "makes", "watch" → "watches", "study" → "studies"."""
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    if re.search(r"(?:s|sh|ch|x|z|o)$", verb):
        return verb + "es"
    return verb + "s"


@rule(
    "putting_work_into",
    r"(?i:\bI(?:'m|\s+am|(?:'ve|\s+have)\s+been)\s+(?:(?:really|still|also|currently)\s+)?"
    r"(?:putting|pouring|investing)\s+(?:in\s+)?(?:(?:a\s+lot\s+of|lots\s+of|so\s+much|all\s+(?:of\s+)?"
    r"my|my|long|extra|more)\s+)?(?P<effort>work|time|effort|energy|hours|heart(?:\s+and\s+soul)?)"
    r"\s+(?:in|into|on)\s+(?P<what>(?:my|our|the)\s+[a-z][\w' -]{2,50}?))"
    r"(?=\s*(?:[,.;:!?]|$|\s(?:even|despite|because|'cause|and|but|so|these|lately|right)\b))",
)
def _putting_work_into(m: re.Match[str], out: Emitter) -> None:
    """ "I'm putting in a lot of work on my business", "I've been putting so much time into my
    garden": a work of the person's underway (never "this"/"that", a thing only pointed at)."""
    what = _whole(m["what"])
    if what is None or not out.is_user:
        return
    what = _own(what)
    out.fact("WORKS_ON", f"{out.who} is putting a lot of {m['effort'].lower()} into {what}",
             value=what, memory_type="PROJECT", confidence=0.7)  # fmt: skip


@rule(
    "i_grow",
    r"(?i:\bI\s+(?:also\s+|still\s+|usually\s+|mostly\s+)?grow\s+)(?!(?i:up|old|older|tired|"
    r"weary|more|less|into|out|apart|closer|fond|used|stronger|bored|impatient|sick|to|it|them|"
    r"a\s+lot|so|as)\b)" + _PHRASE,
)
def _i_grow(m: re.Match[str], out: Emitter) -> None:
    """ "I grow tomatoes and herbs": a garden kept (never "I grow tired of it")."""
    what = _whole(m["what"])
    if what is not None and out.is_user and not out.clause_said:
        what = _own(what)
        out.fact("DOES", f"{out.who} grows {what}", value=f"grow {what}", fact_type="habit",
                 confidence=0.7)  # fmt: skip


@rule(
    "spend_time_at",
    r"(?i:\bI\s+(?:also\s+|still\s+|usually\s+)?spend\s+(?:a\s+lot\s+of|lots\s+of|so\s+much|"
    r"most\s+of\s+my|all\s+(?:of\s+)?my|a\s+ton\s+of)\s+(?:free\s+|spare\s+)?time\s+)"
    r"(?P<where>(?i:at|in|on|by)\s+(?i:the|my|our)\s+[a-z][\w' -]{2,40}?)(?=\s*(?:[,.;:!?]|$|\s"
    r"(?:and|but|so|because|with|when|these|lately|now)\b))",
)
def _spend_time_at(m: re.Match[str], out: Emitter) -> None:
    """ "I spend a lot of time at the beach": where the person's free time goes."""
    where = _whole(m["where"], object_=False)
    if where is not None and out.is_user and not out.clause_said:
        where = _own(where)
        out.fact("DOES", f"{out.who} spends a lot of time {where}", value=f"time {where}",
                 fact_type="habit", confidence=0.7)  # fmt: skip
