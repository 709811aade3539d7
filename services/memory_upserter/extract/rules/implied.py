"""What the person's own words take for granted: the people their work is for ("seeing my
students succeed motivates me" — they teach; "my patients", "my clients", "my customers") and a
collection they keep ("I've got lots of kids' books - classics, stories from different
cultures", "I have tons of vinyl records").

A collection is a concrete plural: what one has "lots of" that is no thing to do, to feel or to
think (:data:`_NOT_KEPT`: "lots of questions", "a ton of work", "so many memories"). Their
place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.doing import _END, _own
from services.memory_upserter.extract.rules.registry import rule

_SERVED = {
    "students": ("DOES", "teaches students"),
    "pupils": ("DOES", "teaches pupils"),
    "patients": ("DOES", "cares for patients"),
    "clients": ("DOES", "works with clients"),
    "customers": ("DOES", "serves customers"),
    "employees": ("DOES", "employs staff"),
    "mentees": ("DOES", "mentors people"),
}


@rule(
    "my_students",
    r"(?i:\bmy\s+(?:(?:own|new|young|little|older|first|current|regular|lovely|amazing)\s+)*"
    r"(?P<who>students|pupils|patients|clients|customers|employees|mentees))\b",
)
def _my_students(m: re.Match[str], out: Emitter) -> None:
    """ "Seeing my students succeed motivates me": the person teaches."""
    if not out.is_user or out.clause_said:
        return
    predicate, what = _SERVED[m["who"].lower()]
    out.fact(predicate, f"{out.who} {what}", value=what, fact_type="habit", confidence=0.6)


# Works one makes oneself: "one of my paintings" — the person paints.
_MADE = {
    "painting": "paints", "paintings": "paints", "drawing": "draws", "drawings": "draws",
    "sketch": "sketches", "sketches": "sketches", "poem": "writes poetry", "poems": "writes poetry",
    "poetry": "writes poetry", "sculpture": "sculpts", "sculptures": "sculpts",
    "screenplay": "writes screenplays", "screenplays": "writes screenplays",
}  # fmt: skip


@rule(
    "my_works",
    r"(?i:\bmy\s+(?:(?:own|new|latest|recent|first|last|newest|favou?rite|best|current|"
    r"little|big|abstract|latest\s+few)\s+)*(?P<work>paintings?|drawings?|sketch(?:es)?|poems?|"
    r"poetry|sculptures?|screenplays?))\b(?!['’])",
)
def _my_works(m: re.Match[str], out: Emitter) -> None:
    """ "Here's one of my paintings", "my latest sketch": works of the person's own — they
    paint, draw, write poetry (never "my mom's paintings", "your paintings")."""
    if not out.is_user or out.clause_said:
        return
    what = _MADE[m["work"].lower()]
    out.fact("DOES", f"{out.who} {what}", value=what, fact_type="habit", confidence=0.6)


_NOT_KEPT = frozenset(
    """questions ideas things stuff work time fun friends people memories feelings emotions
thoughts plans projects bills errands homework emails messages meetings problems issues reasons
options choices tasks chores responsibilities changes opportunities experiences stories
support love energy money debt pressure stress news updates photos pictures pics videos
notes tips advice lessons mistakes hours days weeks years months places calls texts""".split()
)
_PLENTY = r"lots\s+of|tons\s+of|a\s+ton\s+of|a\s+bunch\s+of|loads\s+of|so\s+many|a\s+lot\s+of|"
_PLENTY += r"a\s+(?:huge\s+|big\s+|whole\s+|small\s+)?collection\s+of|plenty\s+of|dozens\s+of"


@rule(
    "lots_of",
    rf"(?i:\bI(?:'ve|\s+have)?\s+(?:got|have|own|keep)\s+(?:(?:so|such)\s+)?(?:{_PLENTY})\s+)"
    rf"(?P<what>(?:[\w']+(?:-[\w']+)*\s+){{0,2}}?[a-z]{{3,}}s)(?![\w'])(?=\s*(?:[-,.;:!?]|$)|{_END})",
)
def _lots_of(m: re.Match[str], out: Emitter) -> None:
    """ "I've got lots of kids' books": a collection the person keeps."""
    what = " ".join(m["what"].split())
    words = what.lower().split()
    if (
        not out.is_user
        or out.clause_said
        or words[-1] in _NOT_KEPT
        or words[0] in ("my", "your", "the", "these")
    ):
        return
    if re.search(r"(?i)\b(?:you|your|them|it|to|of|for|with|and)\b", what):
        return
    out.fact("OWNS", f"{out.who} has lots of {what}", value=what, confidence=0.65)


# Things one keeps for good: a home, a vehicle, an instrument, a place online, a mark.
_OWNABLE = (
    r"garden|backyard|yard|house|home|apartment|condo|cabin|cottage|farm|ranch|pool|car|truck|"
    r"van|motorcycle|motorbike|bike|boat|rv|camper|piano|guitar|violin|drum\s+kit|keyboard|"
    r"camera|telescope|blog|website|channel|podcast|newsletter|tattoo|tattoos|black\s+belt|"
    r"greenhouse|workshop|studio|library|aquarium|treehouse|vineyard|orchard|beehives?|"
    r"food\s+truck|tesla|jeep|harley"
)


@rule(
    "have_a_thing",
    rf"(?i:\bI(?:'ve|\s+have)?\s+(?:also\s+|still\s+|now\s+|finally\s+|just\s+)*(?:got|have|own)\s+"
    rf"(?:(?:a|an|two|three|my\s+own)\s+))(?P<what>(?:[\w'-]+\s+){{0,3}}?(?i:{_OWNABLE}))(?![\w'-])"
    rf"(?P<tail>\s+(?i:about|on|of|in|for)\s+[a-z][\w'-]*(?:\s+[a-z][\w'-]*){{0,2}})?"
    rf"(?=\s*(?:[,.;:!?)]|$)|\s+(?:that|which|where|and|but|so|in|at|on|with|for|from|to|I|"
    rf"downtown|here|there|now|too)\b)",
)
def _have_a_thing(m: re.Match[str], out: Emitter) -> None:
    """ "I have a vegetable garden in my backyard", "I have a YouTube channel about cooking",
    "I've got a new camera!": something the person keeps."""
    what = _own(" ".join(f"{m['what']}{m['tail'] or ''}".split()))
    if not out.is_user or out.clause_said or _CROSS.search(m["what"]):
        return
    if re.match(r"(?i)(?:friend|neighbou?r|sister|brother|mom|dad|cousin)'s\b", what):
        return  # "I have a friend's car for the week": someone else's
    out.fact("OWNS", f"{out.who} has a {what}" if not what[:1].isdigit() else f"{out.who} has "
             f"{what}", value=what, confidence=0.7)  # fmt: skip


_INSTRUMENT = (
    r"violin|guitar|piano|cello|ukulele|drums|bass|saxophone|sax|flute|keyboard|trumpet|"
    r"clarinet|harp|banjo|viola|accordion|harmonica"
)


@rule(
    "my_instrument",
    rf"(?i:\b(?:play(?:s|ing)?|practi[cs](?:e|es|ing)|picked\s+up)\s+my\s+(?:(?:old|new|trusty|"
    rf"acoustic|electric|beloved)\s+)?)(?P<inst>(?i:{_INSTRUMENT}))\b(?!['’]s)",
)
def _my_instrument(m: re.Match[str], out: Emitter) -> None:
    """ "…running, reading, or playing my violin", "I picked up my guitar again": the person
    plays their own instrument."""
    before = m.string[max(0, m.start() - 40) : m.start()]  # bounded: linear in the message
    if out.is_user and not out.clause_said and _MINE.search(before):
        inst = m["inst"].lower()
        out.fact("DOES", f"{out.who} plays the {inst}", value=f"play the {inst}",
                 fact_type="habit", confidence=0.65)  # fmt: skip


# The person plays it: "I …", a list of their doings ("running, reading, or playing my violin").
_MINE = re.compile(r"(?i)(?:\bI(?:'m|'ve\s+been|\s+am|\s+was|\s+have\s+been)?\s+(?:\w+\s+)?|"
                   r"[,;:–—-]\s*(?:or\s+|and\s+)?|^\W*)$")  # fmt: skip


_CROSS = re.compile(r"(?i)\b(?:a|an|the|to|of|for|with|and|or|my|your|his|her|their|it|that)\b")


@rule(
    "have_a_degree",
    r"(?i:\bI\s+(?:also\s+|now\s+)?(?:have|hold|earned|got)\s+(?:a|an|my)\s+(?:(?:bachelor'?s|"
    r"master'?s|masters|phd|doctorate|associate'?s|graduate|college|law|medical)\s+)?(?:degree\s+)?"
    r"(?:in|from)\s+)(?P<field>[a-z][a-z -]{2,30}?)(?=\s*(?:[,.;:!?]|$)|\s+(?:from|at|and|but|so|"
    r"which|that|too)\b)",
)
def _have_a_degree(m: re.Match[str], out: Emitter) -> None:
    """ "I have a degree in biology", "I have a master's in education"."""
    said = m.group(0).lower()
    if not re.search(r"degree|bachelor|master|phd|doctorate|associate", said):
        return  # "I have a lot in common": no degree said
    field = " ".join(m["field"].split())
    out.fact("DEGREE", f"{out.who} has a degree in {field}", value=field, importance=2,
             confidence=0.8)  # fmt: skip
