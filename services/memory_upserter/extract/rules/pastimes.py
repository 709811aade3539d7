"""Pastimes and groups told in conversation: one taken up ("I recently started pottery"), a
group joined ("I joined a local book club last month": a member since then), a habit said with
"go" or "take" ("I usually go hiking on weekends", "I take salsa classes every Tuesday"), a
family tradition, learning to do something ("I'm learning to play the violin"), a work of one's
own underway ("I'm writing a screenplay about my childhood") and volunteering ("I'm a volunteer
at the animal shelter"), and works liked or read ("I loved "Becoming Nicole" by Amy Ellis Nutt",
"I'm reading The Hobbit").

Closed lists of activities, groups and works: "I started a fight", "I joined the call" and "I'm
writing an email" write nothing here. Their place in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.due import find_due
from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.doing import _PHRASE, UNTIMED, _own, _whole
from services.memory_upserter.extract.rules.keeps import _like
from services.memory_upserter.extract.rules.registry import rule
from services.memory_upserter.extract.vocabulary import NOT_NAMES

# An activity named by a noun ("pottery", "a new hobby", "a cooking class").
ACTIVITY = re.compile(
    r"(?i)(?:a\s+new\s+hobby|yoga|pilates|pottery|painting|running|boxing|karate|judo|ballet|"
    r"salsa|photography|gardening|meditation|journaling|therapy|counseling|counselling|knitting|"
    r"crochet|swimming|tennis|golf|climbing|rock\s+climbing|cycling|surfing|skateboarding|"
    r"kickboxing|jiu[- ]jitsu|taekwondo|archery|fencing|calligraphy|woodworking|baking|"
    r"(?:an?\s+)?(?:new\s+)?(?:[\w-]+\s+){0,2}(?:class|classes|course|lessons|program|programme|"
    r"workout\s+routine|training))\b"
)
# Gerunds that name a pastime (what one takes up, does a lot of, does in spare time).
HOBBY_ING = re.compile(
    r"(?i)(?:baking|cooking|painting|drawing|sketching|writing|reading|running|jogging|hiking|"
    r"swimming|dancing|singing|knitting|sewing|crocheting|quilting|gardening|climbing|cycling|"
    r"biking|skating|skateboarding|surfing|fishing|camping|journaling|meditating|volunteering|"
    r"lifting|weightlifting|boxing|skiing|snowboarding|sculpting|woodworking|birdwatching|"
    r"bird\s+watching|collecting|coding|blogging|vlogging|photographing|composing|rowing|"
    r"kayaking|sailing|canoeing|gaming|bouldering|stargazing|scrapbooking|embroidering|"
    r"horse\s*back\s+riding|horse\s+riding|rock\s+climbing|traveling|travelling)"
    r"(?:\s+(?!(?:it|them|this|that|you|a|an|the|my|our|his|her|their|some|late|away|out|"
    r"around|home|back|for|to|with|in|at|on|again|more|less|now|today|tonight)\b)[a-z-]+){0,2}"
)
# A group one belongs to.
GROUP = re.compile(
    r"(?i)\b(?:club|band|choir|team|league|group|orchestra|crew|gym|society|church|community|"
    r"association|circle|troupe|ensemble|union|guild)\b"
)
_WORKS = (
    r"book|novel|screenplay|script|album|songs?|memoir|blog|app|website|game|video\s+game|"
    r"documentary|film|movie|podcast|comic|play|poems?|quilt|sweater|EP|thesis|collection|"
    r"series|business\s+plan|portfolio|mural|sculpture"
)


def _does(out: Emitter, text: str, value: str, confidence: float = 0.7) -> None:
    out.fact("DOES", f"{out.who} {text}", value=value, fact_type="habit", confidence=confidence)


@rule(
    "took_up",
    rf"(?i:\bI(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|also\s+|really\s+)?"
    rf"(?:started|took\s+up|taken\s+up|picked\s+up|got\s+(?:back\s+)?into|gotten\s+"
    rf"(?:back\s+|really\s+|so\s+)?into|began))\s+{_PHRASE}",
)
def _took_up(m: re.Match[str], out: Emitter) -> None:
    """ "I recently started pottery and I'm hooked!", "I've taken up surfing", "I got back into
    skateboarding": an activity since then (dated)."""
    what = _whole(_untimed(m["what"]), object_=False)
    if what is not None and re.fullmatch(r"(?i)(?:a|my)\s+(?:new\s+)?(?:hobby|pastime)", what):
        named = re.match(r"\s*[-–—:]\s*([^,.;:!?]+)", m.string[m.end() :])  # "a new hobby - x"
        what = _whole(_untimed(named.group(1)), object_=False) if named else None
    if what is None or out.clause_said:
        return
    if ACTIVITY.fullmatch(what) or HOBBY_ING.fullmatch(what):  # "I've gotten into baking bread"
        what = _own(what)
        out.valid_from = out.valid_from or out.now
        said = f"has been {what}" if re.match(r"[a-z]+ing\b", what) else f"took up {what}"
        _does(out, said, what, 0.75)  # "I've started taking guitar lessons": no "took up taking"


def _untimed(what: str) -> str:
    """An activity's words without the time said after them ("pottery recently")."""
    return UNTIMED.sub("", what)


@rule(
    "joined_group",
    rf"(?i:\bI(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|also\s+)?joined)\s+{_PHRASE}",
)
def _joined_group(m: re.Match[str], out: Emitter) -> None:
    """ "I joined a local book club last month": a member since then."""
    what = _whole(_untimed(m["what"]))
    if what is None or not GROUP.search(what) or not re.match(r"(?i)(?:an?|the|my|our)\s", what):
        return
    what = _own(what)
    out.valid_from = out.valid_from or out.now
    out.fact("MEMBER_OF", f"{out.who} is a member of {what}", value=what, confidence=0.75)


_OFTEN = (
    r"(?:usually\s+|often\s+|always\s+|sometimes\s+|regularly\s+|still\s+|also\s+|love\s+to\s+)?"
)


@rule(
    "go_doing",
    rf"(?i:\b(?:I|we|my\s+(?:family|wife|husband|partner|kids|friends?|\w+)\s+and\s+I)\s+"
    rf"{_OFTEN}go)\s+(?P<act>(?i:[a-z]+ing))\b(?:\s+{_PHRASE})?",
)
def _go_doing(m: re.Match[str], out: Emitter) -> None:
    """ "I usually go hiking on weekends", "My family and I go camping every summer"."""
    act = m["act"].lower()
    when = find_due(out.sentence, out.now)
    if when is not None and when.at > out.now:
        return  # "I go shopping tomorrow": a plan, not a habit
    if act in ("going", "being", "thinking", "nothing", "something", "everything", "morning"):
        return
    what = _whole(m["what"], object_=False) if m["what"] else None
    if what and re.match(r"(?i)(?:on|every|each|at|in|during|a\s+lot|often)\b", what):
        what = None  # "go hiking on weekends": when, not what
    doing = _own(f"go {act}" + (f" {what}" if what else ""))
    _does(out, f"goes {doing.removeprefix('go ')}", doing)


@rule(
    "take_classes",
    r"(?i:\bI\s+(?:also\s+|still\s+|usually\s+|now\s+)?take)\s+(?P<what>(?:[\w-]+\s+){0,3}"
    r"(?:classes|lessons|a\s+class|a\s+course))\b",
)
def _take_classes(m: re.Match[str], out: Emitter) -> None:
    """ "I take salsa classes every Tuesday"."""
    what = " ".join(m["what"].split())
    _does(out, f"takes {_own(what)}", f"take {_own(what)}")


@rule(
    "tradition",
    rf"(?i:\b(?:our|a|my)\s+(?:family\s+|little\s+|annual\s+|yearly\s+)?tradition\s+(?:of|is\s+"
    rf"to|is))\s+{_PHRASE}",
)
def _tradition(m: re.Match[str], out: Emitter) -> None:
    """ "We have a tradition of baking cookies every Christmas"."""
    what = _whole(m["what"], object_=False)
    if what is not None and out.is_user:
        _does(out, f"has a tradition of {_own(what)}", f"tradition: {_own(what)}")


@rule(
    "learning_to",
    r"(?i:\bI(?:'m|\s+am|'ve\s+been|\s+have\s+been)\s+(?:currently\s+|still\s+|also\s+)?"
    r"(?:learning|teaching\s+myself)\s+(?:how\s+)?to)\s+(?P<verb>[a-z]+)\s+" + _PHRASE,
)
def _learning_to(m: re.Match[str], out: Emitter) -> None:
    """ "I'm learning to play the violin"."""
    what = _whole(m["what"], object_=False)
    if what is not None:
        doing = _own(f"learning to {m['verb'].lower()} {what}")
        _does(out, f"is {doing}", doing)


@rule(
    "making_a_work",
    rf"(?i:\bI(?:'m|\s+am|'ve\s+been|\s+have\s+been)\s+(?:currently\s+|still\s+|also\s+|finally\s+)?"
    rf"(?P<verb>writing|making|building|recording|filming|designing|developing|creating|"
    rf"producing|knitting|sewing|composing|painting|drafting))\s+(?P<what>(?:an?|my|our)\s+"
    rf"(?:(?:new|first|second|own|little|big|short|\w+)\s+){{0,2}}(?i:{_WORKS})\b"
    rf"(?:\s+(?:about|on|for)\s+[^,.;:!?]{{3,60}}?(?=\s*(?:[,.;:!?]|$|\s(?:and|but|so|which|"
    rf"that)\b)))?)",
)
def _making_a_work(m: re.Match[str], out: Emitter) -> None:
    """ "I'm writing a screenplay about my childhood": a work underway (a project)."""
    if out.clause_said:
        return  # "I'm writing a novel": the project rules (basics) said it
    what = _own(" ".join(m["what"].split()))
    verb, value = m["verb"].lower(), re.sub(r"(?i)^(?:an?|their)\s+", "", what)
    out.fact("WORKS_ON", f"{out.who} is {verb} {what}", value=value, memory_type="PROJECT",
             importance=2, confidence=0.75)  # fmt: skip


@rule(
    "finishing_a_work",
    rf"(?i:(?:\bI(?:'m|\s+am|'ve\s+been|\s+have\s+been)?\s+|,\s*|^\W*)(?:trying|working|hoping|aiming)"
    rf"\s+to\s+(?P<verb>finish|publish|complete|edit|release|polish)\s+(?P<what>my\s+"
    rf"(?:(?:new|first|second|latest|own|\w+)\s+){{0,2}}?(?i:{_WORKS})))\b(?!['’]s)",
)
def _finishing_a_work(m: re.Match[str], out: Emitter) -> None:
    """ "…trying to finish my script", "I'm hoping to publish my book": a work of one's own,
    underway (never "finish my homework": the work is one of :data:`_WORKS`)."""
    if out.clause_said:
        return
    what = _own(" ".join(m["what"].split()))
    value = re.sub(r"(?i)^their\s+", "", what)
    out.fact("WORKS_ON", f"{out.who} is working on {what}", value=value, memory_type="PROJECT",
             importance=2, confidence=0.7)  # fmt: skip


@rule(
    "my_work_out",
    rf"(?i:\bmy\s+(?:(?:new|first|second|latest|debut|next|own)\s+)+)(?P<what>(?i:{_WORKS}|single|"
    rf"record))\s+(?i:(?:is\s+)?(?:comes?|coming)\s+out|drops|(?:is\s+)?(?:being\s+)?released|"
    rf"(?:is\s+)?launching|premieres)\b",
)
def _my_work_out(m: re.Match[str], out: Emitter) -> None:
    """ "My new album comes out next month!", "my debut novel is being released in May": a work
    of the person's own, underway."""
    if out.clause_said:
        return  # "my debut novel": another rule said it whole
    what = " ".join(m["what"].lower().split())
    out.fact("WORKS_ON", f"{out.who} is working on their {what}", value=what,
             memory_type="PROJECT", importance=2, confidence=0.7)  # fmt: skip


@rule("volunteer_at", r"(?i:\bI(?:'m|\s+am)\s+(?:also\s+|still\s+)?an?\s+volunteer)\s+" + _PHRASE)
def _volunteer_at(m: re.Match[str], out: Emitter) -> None:
    """ "I'm a volunteer at the animal shelter"."""
    what = _whole(m["what"], object_=False)
    if what is not None and re.match(r"(?i)(?:at|with|for)\s", what):
        _does(out, f"volunteers {_own(what)}", f"volunteer {_own(what)}")


@rule(
    "collection",
    r"(?i:\bI(?:\s+have|'ve\s+got|\s+have\s+got|\s+own)\s+(?:a|quite\s+a)\s+(?:(?:big|huge|small|little|"
    r"growing|massive|nice|decent)\s+)?collection\s+of)\s+" + _PHRASE,
)
def _collection(m: re.Match[str], out: Emitter) -> None:
    """ "I have a big collection of vinyl records": the person collects them."""
    what = _whole(m["what"], object_=False)
    if what is not None:
        _does(out, f"collects {_own(what)}", f"collect {_own(what)}")


_WORK = (
    r"(?P<work>[A-Z0-9][\w'’-]*(?:\s+(?:[A-Z0-9][\w'’-]*|of|the|a|an|and|in|on|to|for|at|with|"
    r"from)){0,6})"
)
_NOT_WORK = re.compile(
    r"(?i)(?:it|this|that|them|you|him|her|everything|everyone|every|tv|netflix|youtube|hulu|"
    r"tiktok|instagram|the\s+news|the\s+game)\b"
)


@rule(
    "loved_work",
    rf"(?i:\bI\s+(?:really\s+|absolutely\s+|just\s+|totally\s+)?(?:loved|adored|enjoyed))\s+{_WORK}"
    rf"(?:\s+by\s+(?P<by>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){{0,3}}))?(?=\s*(?:[,.;:!?)]|$|\s(?:and|but|so|"
    rf"because|too|as)\b))",
)
def _loved_work(m: re.Match[str], out: Emitter) -> None:
    """ "I loved "Becoming Nicole" by Amy Ellis Nutt": a work the person liked (a title, its
    quotes kept off by :func:`..assertion.unquoted`); "I loved it" names nothing."""
    work = m["work"].strip()
    if work.lower() in NOT_NAMES or _NOT_WORK.match(work) or re.search(r"['’]s$", work):
        return
    by = f" by {m['by']}" if m["by"] else ""
    _like(out, work + by)


@rule(
    "reading_a_work",
    rf"(?i:\bI(?:'m|\s+am|'ve\s+been|\s+have\s+been)\s+(?:currently\s+|also\s+|still\s+|finally\s+)?"
    rf"(?P<verb>reading|re-reading|rereading|watching|rewatching|binge-watching|listening\s+to))\s+"
    rf"{_WORK}(?=\s*(?:[,.;:!?)]|$|\s(?:and|but|so|because|again|right|now|lately|these)\b))",
)
def _reading_a_work(m: re.Match[str], out: Emitter) -> None:
    """ "I'm currently reading "The Lean Startup"": what the person is reading or watching."""
    work = m["work"].strip()
    if work.lower() in NOT_NAMES or _NOT_WORK.match(work):
        return
    doing = f"{' '.join(m['verb'].lower().split())} {work}"
    out.fact("DOES", f"{out.who} is {doing}", value=doing, fact_type="habit", confidence=0.7)
