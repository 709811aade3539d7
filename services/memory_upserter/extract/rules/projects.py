"""A project known by its object, whatever the verb: "I'm wrapping up the business plan", "I'm
sprucing up my biz plan", "I'm editing my screenplay", "I'm restoring an old car", "I've been
fixing up the house", "I'm having trouble with my business project", "I'm stuck on my thesis".

The verb of a present progressive is open (any "-ing" but the feelings, thoughts and
consumption of :data:`_NOT_MAKING`: "I'm reading the book", "I'm loving my new car"); what makes
it a project is its object, a thing that takes weeks to make (:data:`_WORKS`: a plan, a book, a
website, a house). This minute's doing ("I'm making my lunch") names no such thing. Their place
in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.doing import _own
from services.memory_upserter.extract.rules.registry import rule

_WORKS = (
    r"plans?|business\s+plan|biz\s+plan|project|projects|pitch|proposal|book|novel|memoir|"
    r"screenplay|script|scripts|play|album|ep|songs?|podcast|channel|blog|website|site|app|"
    r"game|thesis|dissertation|portfolio|collection|garden|house|kitchen|basement|"
    r"apartment|car|truck|bike|boat|studio|shop|store|business|startup|company|brand|"
    r"campaign|course|curriculum|documentary|film|movie|short\s+film|comic|zine|"
    r"manuscript|resume|cv|application|applications|research|paper|article|series|"
    r"renovation|wedding|nursery|fundraiser|charity|foundation|nonprofit|clinic|program|"
    r"programme|routine|choreography|show|exhibit|exhibition|mural|sculpture|quilt"
)
_NOT_MAKING = frozenset(
    """thinking feeling wondering hoping meaning trying going dealing struggling waiting
worrying missing loving enjoying wanting getting having being doing looking seeing hearing
talking chatting telling saying asking considering reflecting reading watching listening
checking visiting leaving taking catching driving riding selling buying renting sharing
showing sending posting liking hating cleaning moving attending celebrating living staying
sleeping sitting lying standing""".split()
)
_DET = r"(?:my|our|the|a|an|this|that|some|his|her)"
_VAGUE = re.compile(
    r"(?i)(?:(?:new|big|side|secret|little|personal|cool|fun|exciting|"
    r"other|own|few|couple|current|latest|next)\s+)*(?:projects?|plans?)"
)
_WORK_END = re.compile(rf"(?i)(?:^|\s)(?:{_WORKS})$")
_CROSSING = re.compile(r"(?i)\b(?:to|for|with|of|about|on|in|at|and|or|from|is|was|my|the|a|an)\b")


def _work(what: str) -> str | None:
    """The work's noun phrase, whole: no preposition or clause inside it ("plan for the house"
    is no work called "house"), a works noun last."""
    what = " ".join(what.split())
    if _VAGUE.fullmatch(what):
        return None  # "a new project": which one is not said
    return what if not _CROSSING.search(what) and _WORK_END.search(" " + what) else None


def _said_work(out: Emitter, work: str) -> bool:
    """Another rule already wrote this clause's work ("I'm working on my novel", "I'm prepping
    for my dance studio")."""
    said = list(out.facts.values())[out.clause_start :]
    return any(f.predicate == "WORKS_ON" or (f.value or "").endswith(work) for f in said)


@rule(
    "making_a_work",
    rf"(?i:\b(?:I(?:'m|\s+am)|I(?:'ve|\s+have)\s+been|we(?:'re|\s+are)|we(?:'ve|\s+have)\s+"
    rf"been)\s+(?:(?:still|currently|also|now|just|finally|slowly|busy|really|almost|"
    rf"nearly)\s+)*)(?P<verb>[a-z]{{3,}}ing(?:\s+(?:up|on|out|down|together|through|over|"
    rf"with|for|into))?)\s+(?:(?i:all)\s+)?(?P<det>(?i:{_DET}))\s+(?P<what>(?:[\w'-]+\s+){{0,3}}"
    rf"(?i:{_WORKS}))(?![\w'-])",
)
def _making_a_work(m: re.Match[str], out: Emitter) -> None:
    """ "I'm wrapping up the business plan": the person is at work on it."""
    verb = " ".join(m["verb"].lower().split())
    work = _work(m["what"])
    if verb.split()[0] in _NOT_MAKING or not out.is_user or work is None or _said_work(out, work):
        return
    if m["det"].lower() in ("his", "her", "that", "this") or re.search(
        r"(?i)\b(?:your|you|his|her|their)\b", m["what"]
    ):
        return  # someone else's
    what = f"{m['det'].lower()} {work}"
    if re.match(r"(?i)(?:the|a|an)\s+(?:house|home|car|kitchen|garden|show|movie|game|film)$",
                what):  # fmt: skip
        if verb.split()[0] not in ("fixing", "renovating", "restoring", "remodeling",
                                   "building", "redoing", "designing", "planting"):  # fmt: skip
            return  # "I'm watching the show", "I'm driving the car": no project
    doing = _own(f"{verb} {what}")
    out.fact("WORKS_ON", f"{out.who} is {doing}", value=work, memory_type="PROJECT",
             importance=2, confidence=0.7)  # fmt: skip


@rule(
    "stuck_on_a_work",
    rf"(?i:\bI(?:'m|\s+am|(?:'ve|\s+have)\s+been)\s+(?:(?:still|really|kind\s+of|a\s+bit)\s+)*"
    rf"(?:having\s+(?:some\s+)?(?:trouble|issues|problems)\s+with|stuck\s+on|struggling\s+with|"
    rf"making\s+(?:good\s+|some\s+|great\s+)?progress\s+(?:on|with)|busy\s+with|swamped\s+with)"
    rf"\s+(?P<det>my|our)\s+)(?P<what>(?:[\w'-]+\s+){{0,3}}(?i:{_WORKS}))(?![\w'-])",
)
def _stuck_on_a_work(m: re.Match[str], out: Emitter) -> None:
    """ "I'm having trouble with my business project", "making progress on my novel"."""
    work = _work(m["what"])
    if not out.is_user or work is None or _said_work(out, work):
        return
    if re.search(r"(?i)\b(?:house|home|car|apartment|truck|bike)$", work):
        return  # "trouble with my car": a nuisance, not a work
    what = _own(f"{m['det'].lower()} {work}")
    out.fact("WORKS_ON", f"{out.who} is working on {what}", value=work, memory_type="PROJECT",
             importance=2, confidence=0.7)  # fmt: skip
