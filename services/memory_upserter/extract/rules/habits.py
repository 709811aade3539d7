"""Habits read by the shape of the clause, not by a list of activities: a first-person verb in
the present with a word of frequency ("I donate blood every few months", "I go to church every
Sunday with my mom", "I still knit every winter", "I try to meditate every day"), the present
perfect progressive of any verb that is no feeling, thought or hardship ("I've been working on
my car in the garage a lot", "Been reading that book you recommended and painting to keep busy":
each coordinated activity on its own), things made oneself ("I brew my own beer", "I make my own
coconut milk ice cream") and "I play a lot of Street Fighter".

The verb is open; what keeps these precise is the frame: the subject is "I" (or a dropped one
at the sentence's start), the verb is in the present (or "been …ing"), and a word of frequency
or duration says the activity recurs. Verbs of feeling, thinking, saying, having and wanting
(:data:`_NOT_ACTS`) and the past ("I went there every summer", "used to") write nothing. A
fallback like :mod:`.doing`: a clause another rule wrote from writes nothing here. Their place
in the rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.doing import _END, _own, _whole
from services.memory_upserter.extract.rules.lately import _TODAY, _VAGUE
from services.memory_upserter.extract.rules.pastimes import ACTIVITY
from services.memory_upserter.extract.rules.registry import rule

# Verbs that say no activity of the person's: feelings, thoughts, speech, needs, being and
# having, and verbs that need another verb to say what is done.
_NOT_ACTS = frozenset(
    """am are is was were be been being have has had do does did get gets got can could will
would should must may might shall need needs want wants wish hope hopes think thinks feel
feels know knows guess mean means say says tell tells ask asks love loves like likes enjoy
enjoys hate hates miss misses see sees hear hears remember forget wonder worry worries
believe appreciate agree understand care cares try tries let lets make makes keep keeps find
finds seem seems look looks sound sounds talk talks chat text call message spend spends
check come comes just only even also really actually finally put take takes give gives use
uses used wake sleep eat eats
drink drinks live lives stay stays work works deal cope struggle handle manage face miss
text read reads cry cries laugh laughs smile smiles panic stress overthink""".split()
)
# A word of frequency after the activity: it recurs.
_OFTEN = (
    r"(?:every|each)\s+(?:(?:other|single|few|couple\s+of)\s+)?(?:day|morning|night|evening|"
    r"afternoon|week|weekend|month|year|summer|winter|spring|fall|autumn|season|holiday|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day|days|weeks|months|years)|"
    r"once\s+a\s+(?:day|week|month|year)|twice\s+a\s+(?:day|week|month|year)|"
    r"(?:(?:like|about|around|at\s+least)\s+)?(?:\w+\s+)?times\s+a\s+(?:day|week|month|year)|"
    r"daily|weekly|monthly|most\s+(?:days|nights|mornings|evenings|weekends|"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)days)|in\s+the\s+(?:evenings|mornings)|"
    r"when(?:ever)?\s+I\s+can\b|whenever\s+(?:the|we|I|it|there)\b|"
    r"on\s+(?:the\s+)?(?:weekends|(?:mon|tues|wednes|thurs|fri|satur|sun)days)|"
    r"in\s+my\s+(?:free|spare|down)\s+time|on\s+the\s+side|whenever\s+I\s+(?:can|get\s+the\s+"
    r"chance)|as\s+often\s+as\s+I\s+can"
)
# The person with their people: "we", "my family and I", "me and my kids".
_WE = r"(?:\b[Ww]e|\b(?i:my\s+\w+\s+and\s+I|me\s+and\s+my\s+\w+))"
_ADVERB = r"(?:also|still|usually|often|always|normally|regularly|sometimes|generally|really)"
_VERB = r"(?P<verb>[a-z]{2,}(?<!ed)(?<!ing))"
_PAST = frozenset(
    """went made took saw ran swam sang drew wrote rode ate drank gave got had did was were
kept bought brought taught thought caught fought found felt left lost met paid sold told
spent sent built grew knew threw flew wore won""".split()
)


def _habit(out: Emitter, verb: str, what: str, often: str, *, making: bool = False) -> None:
    if out.clause_said or not out.is_user:
        return
    verb, what = verb.lower(), what.strip()
    doing_a_pastime = verb == "do" and ACTIVITY.fullmatch(what)  # "I do pottery on the side"
    if (verb in _NOT_ACTS and not (making and verb == "make") and not doing_a_pastime) or (
        verb in _PAST
    ):
        return
    if verb in ("go", "goes") and not re.match(r"(?i)(?:to\s+(?!bed\b|sleep\b|work\b)|\w+ing\b|"
                                               r"for\s+an?\s+(?:\w+\s+)?(?:run|walk|swim|jog|"
                                               r"hike|ride|bike\s+ride)\b)", what):  # fmt: skip
        return  # "I go to church every Sunday", "I go running / for a run every morning"
    to = re.match(r"(?i)to\s+", what) if verb in ("go", "goes") else None
    said = _whole(what[to.end() :] if to else what, object_=False) if what else ""
    if said is None:
        return
    said = f"to {said}" if to else said
    does = verb + ("es" if re.search(r"(?:s|sh|ch|x|z|o)$", verb) else "s")
    if re.search(r"[^aeiou]y$", verb):
        does = verb[:-1] + "ies"
    doing = _own(f"{verb} {said}".strip())
    text = _own(f"{does} {said}".strip())
    said_often = _own(" ".join(often.split())).lower()  # "in their free time", "whenever they can"
    out.fact("DOES", f"{out.who} {text} {said_often}".strip(), value=doing, fact_type="habit",
             confidence=0.7)  # fmt: skip


@rule(
    "often",
    rf"(?:{_WE}|(?i:\bI))(?i:\s+(?:{_ADVERB}\s+)*(?:try\s+to\s+|like\s+to\s+|get\s+to\s+)?)"
    rf"(?-i:{_VERB})"
    rf"(?P<what>(?:\s+(?!(?i:every|each|once|twice|daily|weekly|monthly|on\s+(?:the\s+)?"
    rf"weekends)\b)[\w'-]+){{0,8}}?)\s+(?P<often>(?i:{_OFTEN}))\b",
    raw=True,
)
def _often(m: re.Match[str], out: Emitter) -> None:
    """ "I donate blood every few months", "I try to meditate every day"."""
    what = re.split(r"(?i)\s+(?:with|at|in|on|before|after)\s+(?:my|the|our|a)\b", m["what"])
    kept = m["what"] if len(what) == 1 or len(what[0].split()) == 0 else what[0]
    if re.search(r"(?i)\b(?:you|your|it|that|this|them)\b", kept):
        return  # "I think about it every day", "I see you every week": no activity of theirs
    _habit(out, m["verb"], m["what"] if not kept.strip() else kept, m["often"])


# "a while ago" is no "while" clause
_END_AGO = _END.replace("while|", r"while(?!\s+ago)|")
assert _END_AGO != _END
_AGO = re.compile(r"(?i)\s+(?:(?:a|some)\s+while|ages|a\s+(?:week|month|year))\s+ago$")
# "been …ing" of any verb: these are no activity.
_NOT_ING = frozenset(
    """thinking feeling wondering hoping meaning trying going dealing struggling waiting
worrying missing loving enjoying wanting getting having being doing looking seeing hearing
talking chatting telling saying asking telling considering planning reflecting stressing
dying living staying sleeping resting crying laughing smiling busy feeling keeping""".split()
)


@rule(
    "been_any",
    r"(?:(?i:\bI(?:'ve|\s+have)\s+)|^\W*|(?<=[.!?]\s))(?i:been)\s+"
    r"(?:(?i:really|also|just|mostly|still|actually|finally|regularly|slowly)\s+)*"
    r"(?P<verb>[a-z]{3,}ing)\s+(?P<what>[^,.;:!?\u2014\u2013]{3,90}?)" + _END_AGO,
)
def _been_any(m: re.Match[str], out: Emitter) -> None:
    """ "I've been working on my car in the garage a lot", "Been reading that book you
    recommended and painting": the activities, each whole."""
    if out.clause_said or not out.is_user or m["verb"].lower() in _NOT_ING:
        return
    if _TODAY.search(m.string):
        return  # "I've been working in the garden all day": this day's, not a habit
    said = re.sub(r"(?i)(?:\s+(?:a\s+lot|lately|recently|so\s+much|more|again|loads))+$", "",
                  m["what"])  # fmt: skip
    said = re.sub(r"(?i)\s+(?:(?:a|some)\s+while\s+ago|ages\s+ago|before)$", "", said)
    said = re.sub(r"(?i)\b(?:you|u)\s+(?:recommended|suggested|told\s+me\s+about|mentioned)\b",
                  "", said).strip()  # fmt: skip
    parts = re.split(r"\s+and\s+(?=[a-z]+ing\b)", said)
    first = [f"{m['verb'].lower()} {parts[0]}", *parts[1:]]
    for doing in first:
        verb, _, what = doing.partition(" ")
        what = _AGO.sub("", what)
        whole = _whole(what, object_=False) if what.strip() else ""
        if whole is None or verb in _NOT_ING or re.search(r"(?i)\b(?:you|your)\b", whole):
            continue
        bare = re.sub(r"(?i)^(?:on|with|at|in|for|about|into)\s+", "", whole)
        if _VAGUE.fullmatch(whole) or _VAGUE.fullmatch(bare) or (bare and _whole(bare) is None):
            continue  # "exploring options", "working on a project / something exciting"
        value = _own(f"{verb} {whole}".strip())
        out.fact("DOES", f"{out.who} has been {value}", value=value, fact_type="habit",
                 confidence=0.7)  # fmt: skip


@rule(
    "my_own",
    r"(?i:\bI\s+(?:(?:also|still|usually|often|always|even)\s+)*)(?P<verb>make|brew|bake|grow|"
    r"build|sew|knit|roast|bottle|cure|design|write|record|produce|mix|print|raise|cut|"
    r"fix|repair|tailor|cook)\s+(?P<what>(?i:my|our)\s+own\s+[^,.;:!?]{3,60}?)" + _END,
)
def _my_own(m: re.Match[str], out: Emitter) -> None:
    """ "I brew my own beer at home", "I make my own coconut milk ice cream"."""
    what = re.sub(r"(?i)\s+(?:at|in)\s+(?:home|the\s+\w+)$", "", m["what"])
    _habit(out, m["verb"], what, "")


@rule(
    "plays_a_lot_of",
    r"(?i:\bI\s+(?:(?:also|still|usually|really)\s+)*play\s+(?:a\s+lot|lots|tons|loads)\s+of)\s+"
    r"(?P<what>[^,.;:!?]{3,50}?)" + _END,
)
def _plays_a_lot_of(m: re.Match[str], out: Emitter) -> None:
    """ "I play a lot of Street Fighter", "I play lots of chess"."""
    _habit(out, "play", m["what"], "")


# A bare plural after a present verb says what the person does as a rule: "I write
# screenplays", "I compete in gaming tournaments", "I fix old cars". Not a bare plural: an
# adverb or a word of amount ending in -s, and things too vague to name an activity.
_NOT_PLURAL = frozenset(
    """always sometimes perhaps nevertheless thanks yes lots tons loads this is was has us its
things stuff people times days weeks months years questions ideas thoughts feelings emotions
memories mistakes reasons problems issues words calls texts messages emails news guys folks
friends others ones bits pieces odds ends hours minutes seconds miles plans""".split()
)
_DETERMINERS = frozenset(
    """the a an my your his her their our its this that these those some any all no every
each other more most many much few several it them him me you us what which""".split()
)


@rule(
    "bare_plural",
    rf"(?:{_WE}|(?i:\bI))(?i:\s+(?:(?:also|usually|mostly|mainly|often|sometimes|still|really|"
    rf"only|even|regularly|always|actually)\s+)*)(?-i:{_VERB})\s+(?P<prep>(?:in|on|with|for|at)\s+)?"
    rf"(?P<what>(?:[a-z][\w'-]*\s+){{0,2}}[a-z]{{3,}}s)(?![\w'-])(?=\s*(?:[,.;:!?)]|$)|{_END}|"
    rf"\s+(?:in|on|at|for|with|from|around|during)\s)",
)
def _bare_plural(m: re.Match[str], out: Emitter) -> None:
    """ "I write screenplays", "I compete in gaming tournaments": the person's habit."""
    words = m["what"].lower().split()
    if words[0] in _DETERMINERS or words[-1] in _NOT_PLURAL or words[-1].endswith(("ss", "us")):
        return
    if any(w in _DETERMINERS or w in ("and", "or", "but", "to", "of") for w in words):
        return
    _habit(out, m["verb"], f"{m['prep'] or ''}{m['what']}", "", making=True)
