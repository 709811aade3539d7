"""What the person does, said in passing in a long, chatty turn: an activity as the subject of
its sentence ("Searching for a studio location has been tricky"), one kept up lately ("I've been
going to the gym a lot", "been trying out new recipes") and one begun ("Started to learn all
these marketing tools"). Likes said the long way are :mod:`.fondness`'s.

The present perfect progressive ("I've been …ing") is a word of duration itself: what it names
has gone on for a while. The verbs are a closed list of activities, never a feeling, a thought
or a hardship ("I've been thinking", "I've been going through a lot"); the value is the whole
phrase (:func:`.doing._whole`). A fallback like :mod:`.doing`: a clause another rule wrote from
writes nothing here. Their place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.doing import _END, _ING, _PHRASE, _own, _whole
from services.memory_upserter.extract.rules.pastimes import ACTIVITY
from services.memory_upserter.extract.rules.registry import rule


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
    r"making|knitting|sewing|crafting|gaming|streaming|blogging|vlogging|posting|doing|teaching|"
    r"tutoring|volunteering|nursing|mentoring"
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
    r"knitting|sewing|crafting|gaming|blogging|vlogging|training|eating\s+(?:healthier|better|clean)|"
    r"teaching|tutoring|volunteering|nursing|mentoring|coaching"
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
