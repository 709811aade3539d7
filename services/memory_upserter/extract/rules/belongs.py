"""Where the person belongs and what they keep, said in the shapes conversation uses: service
("I've been in the army for 8 years", "I serve in the Navy", "I'm a veteran", "Being a veteran,
…"), a seat held ("I'm on the school board", "I'm running for city council"), children ("I've got
two kids and a dog") and likes said by what they do to the person ("Jazz really speaks to me",
"Music has always been a big part of my life", "Cooking is one of my favorite things to do",
"I'm so into photography").

Each is a frame with a closed opener ("I", "I'm", "my life"), so the value is whatever whole
phrase the frame holds; a pronoun ("it speaks to me") or the other speaker ("your story speaks
to me") writes nothing. Tried and withdrawn: a pet got without its name ("Just adopted a rescue
cat": a held-out false write in the tidy corpus). "I can't imagine my life without music" is a
negation to the judge (:mod:`..assertion`), so no rule here can read it. Their place in the rule
table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.doing import _END, _own, _whole
from services.memory_upserter.extract.rules.keeps import _like
from services.memory_upserter.extract.rules.registry import liked, rule
from services.memory_upserter.extract.rules.work import _JOB, _job_title
from services.memory_upserter.extract.vocabulary import NOT_NAMES

_FORCES = r"army|navy|air\s+force|marines?|marine\s+corps|military|national\s+guard|coast\s+guard|"
_FORCES += r"reserves|armed\s+forces"


@rule(
    "serves_in",
    rf"(?i:\bI(?:'m|\s+am|(?:'ve|\s+have)\s+been|\s+(?:still\s+|currently\s+)?serve)\s+"
    rf"(?:(?:still|currently|now|proudly|actively)\s+)?(?:in|with)\s+the\s+)"
    rf"(?P<force>(?i:{_FORCES}))\b",
)
def _serves_in(m: re.Match[str], out: Emitter) -> None:
    """ "I've been in the military for about 8 years", "I serve in the Navy"."""
    force = " ".join(m["force"].lower().split())
    out.fact("SERVES_IN", f"{out.who} serves in the {force}", value=force, importance=2,
             confidence=0.8)  # fmt: skip


@rule(
    "veteran",
    r"(?i:\bI(?:'m|\s+am)\s+(?:a\s+|an\s+)(?:proud\s+)?(?:(?:military|army|navy|marine|"
    r"air\s+force|combat|war|disabled)\s+)?veteran\b|^\W*being\s+an?\s+(?:(?:military|army|"
    r"navy|marine|combat)\s+)?veteran\b)",
)
def _veteran(m: re.Match[str], out: Emitter) -> None:
    """ "I'm a veteran", "Being a veteran, I know how hard …"."""
    out.fact("MILITARY_STATUS", f"{out.who} is a veteran", value="veteran", importance=2,
             confidence=0.8)  # fmt: skip


_SEAT = (
    r"(?P<seat>(?:[a-z]+\s+){0,2}?(?:board|council|committee|commission|panel|jury|"
    r"team|squad|crew|staff|faculty|roster))"
)


@rule(
    "on_the_board",
    rf"(?i:\bI(?:'m|\s+am|(?:'ve|\s+have)\s+been)\s+(?:(?:now|still|also|currently)\s+)?"
    rf"on\s+(?:the|a|our|my)\s+){_SEAT}\b(?!\s+(?:with|of\s+(?:you|it)))",
)
def _on_the_board(m: re.Match[str], out: Emitter) -> None:
    """ "I'm on the school board now", "I'm on the volleyball team"."""
    seat = " ".join(m["seat"].lower().split())
    if seat.split()[0] in ("same", "right", "wrong", "other", "phone"):
        return  # "we're on the same team": a manner of speaking
    out.fact("MEMBER_OF", f"{out.who} is on the {seat}", value=seat, confidence=0.75)


@rule(
    "running_for",
    r"(?i:\bI(?:'m|\s+am)\s+(?:(?:officially|now|actually|really)\s+)?running\s+for)\s+"
    r"(?P<office>(?i:office|re-?election|(?:the\s+)?(?:city\s+|town\s+|state\s+|school\s+)?"
    r"(?:council|mayor|senate|congress|governor|board|president|sheriff|assembly)(?:\s+seat)?))\b",
)
def _running_for(m: re.Match[str], out: Emitter) -> None:
    """ "I'm running for city council": a campaign underway."""
    office = " ".join(m["office"].lower().split())
    out.fact("RUNNING_FOR", f"{out.who} is running for {office}", value=office, importance=2,
             confidence=0.8)  # fmt: skip


_N = r"a|an|one|two|three|four|five|six|\d"


@rule(
    "ive_got_kids",
    rf"(?i:\bI(?:'ve|\s+have)\s+got\s+)(?P<n>(?i:{_N}))\s+(?P<what>(?i:kids|children|sons|"
    rf"daughters|boys|girls|little\s+ones|son|daughter|kid))\b",
)
def _ive_got_kids(m: re.Match[str], out: Emitter) -> None:
    """ "I've got two kids and a dog": the person's children (their pets: :mod:`.kin`)."""
    n, what = m["n"].lower(), " ".join(m["what"].lower().split())
    value = f"{n} {what}"
    out.fact("HAS_CHILDREN", f"{out.who} has {value}", value=value, memory_type="PEOPLE",
             fact_type="relationship", importance=2, confidence=0.8)  # fmt: skip


# A liked thing as the subject: an activity or a plain noun phrase, never a pronoun or a name
# of the other speaker's things ("your story").
_SUBJ = r"(?P<thing>[A-Za-z][a-z-]+(?:\s+[a-z-]+){0,3})"
_OPENER = r"^\W*(?:(?i:and|but|so|yeah|yes|oh|honestly|plus|also)\W+)*"


def _subject_like(out: Emitter, thing: str) -> None:
    thing = re.sub(r"(?i)(?:\s+(?:really|truly|just|always|totally|deeply|also|still))+$", "",
                   thing)  # fmt: skip
    words = thing.lower().split()
    if not out.is_user or words[0] in NOT_NAMES or words[0] in _NOT_SUBJECTS:
        return
    proper = sum(w[:1].isupper() for w in thing.split()) > 1  # "Star Wars"; "Jazz" opens
    what = liked(thing if proper else thing.lower())
    if what is not None:
        _like(out, what)


_NOT_SUBJECTS = frozenset(
    """it this that what which who he she they you your his her their its there here
everything something nothing anything everyone someone family work life people""".split()
)


@rule(
    "speaks_to_me",
    rf"{_OPENER}{_SUBJ}\s+(?:(?i:really|truly|just|always|totally|deeply)\s+)*(?:speaks|"
    rf"resonates|clicks)\s+(?:to|with)\s+me\b",
)
def _speaks_to_me(m: re.Match[str], out: Emitter) -> None:
    """ "Jazz really speaks to me", "Contemporary dance resonates with me"."""
    _subject_like(out, m["thing"])


@rule(
    "part_of_my_life",
    rf"{_OPENER}{_SUBJ}\s+(?:has|have)\s+(?:always\s+)?been\s+(?:(?:such|a)\s+)+"
    rf"(?:(?:big|huge|important|major|large|key)\s+)?part\s+of\s+my\s+life\b",
)
def _part_of_my_life(m: re.Match[str], out: Emitter) -> None:
    """ "Music has always been a big part of my life"."""
    _subject_like(out, m["thing"])


@rule(
    "one_of_my_favourites",
    rf"{_OPENER}{_SUBJ}\s+(?:is|are|has\s+(?:always\s+)?been)\s+(?:definitely\s+|probably\s+|"
    rf"still\s+)?one\s+of\s+my\s+(?:(?:all-time|absolute|biggest)\s+)?(?:favou?rite\s+(?:things|"
    rf"hobbies|activities|pastimes|ways)|passions|(?:greatest\s+)?loves)\b",
)
def _one_of_my_favourites(m: re.Match[str], out: Emitter) -> None:
    """ "Cooking is one of my favorite things to do", "Hiking is one of my passions"."""
    _subject_like(out, m["thing"])


@rule(
    "keen_on",
    r"(?i:\bI(?:'m|\s+am|(?:'ve|\s+have)\s+(?:always\s+)?been)\s+(?:(?:really|super|very|so|"
    r"also|quite|pretty)\s+)?keen\s+on)\s+(?P<what>[^,.;:!?]{3,60}?)" + _END,
)
def _keen_on(m: re.Match[str], out: Emitter) -> None:
    """ "I'm keen on counseling or working in mental health", "I'm really keen on photography"."""
    what = liked(_whole(m["what"], object_=False))
    if what is not None and not re.match(r"(?i)(?:you|it|this|that|the\s+idea)\b", what):
        out.fact("LIKES", f"{out.who} is keen on {_own(what)}", value=_own(what),
                 fact_type="preference", confidence=0.7)  # fmt: skip


@rule(
    "so_into",
    r"(?i:\bI(?:'m|\s+am)\s+(?:so|super|totally|pretty|big\s+time|very\s+much|seriously)\s+into)"
    r"\s+(?P<what>[^,.;:!?]{3,60}?)" + _END,
)
def _so_into(m: re.Match[str], out: Emitter) -> None:
    """ "I'm so into photography these days"."""
    what = liked(_whole(m["what"], object_=False))
    if what is not None and not out.clause_said and not re.match(r"(?i)(?:you|it|this|that)\b",
                                                                 what):  # fmt: skip
        _like(out, _own(what))


@rule(
    "as_a_role",
    rf"^\W*(?:(?i:and|but|so|yeah|well|honestly)\W+)*(?i:as\s+an?\s+)(?:(?P<parent>(?i:(?:single\s+|"
    rf"working\s+|new\s+|first-time\s+)?(?:mom|mum|mother|dad|father|parent)))|"
    rf"(?P<vet>(?i:veteran))|{_JOB})\W*$",  # a clause of its own: "As a teacher, I …"
)
def _as_a_role(m: re.Match[str], out: Emitter) -> None:
    """ "As a teacher, I see a lot of kids struggling", "As a mom, I …", "As a veteran, …": who
    the person is, said in passing before what they say ("As a parent, you must …" is the
    other speaker)."""
    said = re.escape(m.group(0).strip(" ,.!"))
    if not re.search(rf"{said}\W+(?:I|I'm|I've|I'd|my|we|we're)\b", out.sentence):
        return
    if m["vet"]:
        out.fact("MILITARY_STATUS", f"{out.who} is a veteran", value="veteran", importance=2,
                 confidence=0.8)  # fmt: skip
    elif m["parent"]:
        out.fact("HAS_CHILDREN", f"{out.who} is a parent", value="children", memory_type="PEOPLE",
                 fact_type="relationship", importance=2, confidence=0.75)  # fmt: skip
    elif m["role"]:
        _job_title(out, m["role"])


@rule(
    "my_pleasure",
    rf"{_OPENER}{_SUBJ}\s+(?:is|are|has\s+been|have\s+been)\s+(?:definitely\s+|totally\s+|"
    rf"kind\s+of\s+)?my\s+(?:(?:biggest|real|one|total|secret)\s+)?(?:guilty\s+pleasure|jam|"
    rf"obsession|weakness|comfort\s+(?:food|show|thing)|love\s+language)\b",
)
def _my_pleasure(m: re.Match[str], out: Emitter) -> None:
    """ "Video games are my guilty pleasure", "Baking is my jam"."""
    _subject_like(out, m["thing"])
