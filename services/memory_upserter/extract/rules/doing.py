"""What the person does, said in passing: an activity underway ("I'm learning the piano", "I've
been looking into counseling jobs", "Researching adoption agencies — …"), one they do as a habit
("I mentor a transgender teen", "I play guitar"), and one they started ("I started playing acoustic
guitar about five years ago": dated by its time phrase, never today). The past ("I used to …")
writes nothing here: it is no current state. An activity set in the future
("I'm hosting a dance competition next month") is a plan: a todo, not a fact.

The verbs are a closed list of activities, never a feeling or a pleasantry ("I'm doing ok",
"I'm thinking of you"); the value is the whole phrase to the clause's end, and a phrase that
ends on a preposition or a pronoun is a fragment and writes nothing. Their place in the rule
table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.due import find_due
from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.profile import _LANGS
from services.memory_upserter.extract.rules.registry import rule

# An activity underway, as a present participle.
_ING = (
    r"learning|studying|researching|looking\s+into|mentoring|teaching|coaching|volunteering|"
    r"practi[cs]ing|rehearsing|preparing\s+for|prepping\s+for|getting\s+ready\s+for|"
    r"organi[sz]ing|putting\s+together|hosting|running|expanding|writing|reading|painting|"
    r"drawing|playing|taking|saving\s+(?:up\s+)?for|renovating|creating|setting\s+up|"
    r"opening|growing|raising|campaigning\s+for|applying\s+(?:to|for)|searching\s+for|"
    r"looking\s+for|on\s+the\s+hunt\s+for|recovering\s+from|pursuing|focusing\s+on|"
    r"following|planning|designing|knitting|gardening|sprucing\s+up|tweaking|wrapping\s+up|"
    r"offering|doing|attending|collecting|fostering|caring\s+for|looking\s+after|helping\s+out"
    r"(?:\s+(?:at|with))?|working\s+(?:on|towards?|out\s+at)|training\s+(?:at|in)|making|"
    r"turning|majoring\s+in|having|throwing|holding|finishing(?:\s+up)?|trying\s+out|"
    r"experimenting\s+with"
)
# Activities that last by their nature: "I'm learning the piano" is ongoing. Any other verb of
# the list ("I'm reading", "I'm taking the bus home") may be this minute's, and says an activity
# only with a word of duration ("been", "still", "lately", "these days", "for months", "since").
_LASTING = re.compile(
    r"(?:learning|studying|researching|looking\s+into|mentoring|teaching|coaching|volunteering|"
    r"practi[cs]ing|rehearsing|preparing\s+for|prepping\s+for|organi[sz]ing|putting\s+together|"
    r"hosting|expanding|saving(?:\s+up)?\s+for|renovating|setting\s+up|campaigning\s+for|"
    r"applying\s+(?:to|for)|searching\s+for|on\s+the\s+hunt\s+for|recovering\s+from|"
    r"pursuing|designing|knitting|gardening|fostering|caring\s+for|looking\s+after|"
    r"working\s+(?:on|towards?)|training\s+(?:at|in)|turning|majoring\s+in|creating)$"
)
_DURATION = re.compile(
    r"(?i)\b(?:been|still|lately|these\s+days|recently|currently|for\s+(?:weeks|months|years|"
    r"ages|a\s+while)|since|every|each|regularly|often)\b"
)
_TAKEN = re.compile(r"(?i)(?:an?\s+|some\s+)?(?:\w+\s+){0,3}(?:class|classes|course|lessons?)\b")
# Activities said with a place or a time after them ("volunteering at the food bank").
_INTRANSITIVE = frozenset(
    "volunteering teaching coaching mentoring training running painting writing reading "
    "playing drawing".split()
)
# What a business the person runs is called (:mod:`.keeps` writes it; "I run a bakery" is no
# habit).
_BUSINESS = (
    r"store|shop|business|biz|studio|bakery|restaurant|cafe|café|startup|salon|boutique|"
    r"agency|blog|podcast|channel|farm"
)
# A habit, in the plain present ("I mentor …").
_HABIT = (
    r"mentor|teach|coach|volunteer|practi[cs]e|play|paint|knit|garden|bake|cook|"
    r"run|swim|hike|dance|sing|collect|foster|tutor|train"
)
_S = {"teach": "teaches", "coach": "coaches", "do": "does", "practise": "practises"}
_END = (
    r"(?=\s*(?:[,.;:!?)(\u2014\u2013]|\s-\s|$|\s(?:and\s+(?:I|it|we|my|they|it's|that)|but|"
    r"because|'cause|cause|so|since|though|although|when|while|if|which|who|"
    r"as(?!\s+an?\s+(?:career|job|hobby|profession|side))|to\s+(?:help|get|make|stay|keep|show|"
    r"share|relax|unwind|de-?stress|cope|clear|feel|be)|on\s+(?:the\s+)?weekends?|on\s+\w+days|lately|right\s+now|these\s+days|at\s+the\s+moment|now|too|as\s+well|again|more|"
    r"every|with\s+(?:you|them|her|him)|in\s+the\s+(?:past|last)\s+\w+|(?:this|last|next)\s+"
    r"(?:week|weekend|month|year|summer|winter|spring|fall)|for\s+(?:a\s+while|weeks|months|"
    r"years|ages|\w+\s+(?:days|weeks|months|years)))\b))"
)
_PHRASE = rf"(?P<what>[^,.;:!?\u2014\u2013]{{3,90}}?){_END}"
_FRAGMENT = re.compile(
    r"(?i)(?:\b(?:for|about|with|by|of|to|into|from|at|in|on|the|a|an|my|our|your|his|her|"
    r"their|this|that|it|them|some|one|up|out|all|these|those|stuff|things?|something|few|"
    r"ton|bit|lot|more|and|or|how|what|why|when|where)$)"
)
# A gerund that is the subject of its sentence ("Writing isn't always easy", "Taking care of
# ourselves is key"): the phrase holds a verb of its own, so it says no activity of the person.
_FINITE = re.compile(
    r"(?i)(?:\b(?:is|are|was|were|isn't|aren't|wasn't|has|have|had|can|could|will|would|"
    r"should|must|helps?|makes?|gives?|keeps?|means?|gets?|brings?|feels?|seems?|sounds?|"
    r"matters?|rocks?(?!\s+climbing)|works?|takes?|needs?|requires?|sucks?|pays?|did|does|do)\b|['’]re\b|"
    r"\b(?:it|that|what|there|here|he|she|who)['’]s\b|['’]s\s+(?:a|an|the|so|been|not|just|"
    r"really|very|always|never|what|how|all|too|no|great|hard|tough|fun)\b)"
)
_OWN = {"my": "their", "myself": "themselves", "me": "them", "our": "their", "ourselves":
        "themselves", "mine": "theirs", "I": "they", "I'm": "they're"}  # fmt: skip
# A phrase that is no activity: a pronoun or a pleasantry, whole or as its first word.
_NOT = re.compile(
    r"(?i)^(?:(?:it|that|this|them|ok|okay|well|good|great|fine|alright|better|worse|"
    r"my\s+best|the\s+same|nothing|something|anything|everything|a\s+lot|a\s+break|a\s+"
    r"(?:nap|breather|moment|second|minute|look|chance)|care|part|place|time|some\s+time|"
    r"notes?|pictures?|photos?|pics?|advantage|action|steps?|things|stuff|fun|so\s+much|"
    r"(?:an?\s+)?(?:new\s+|big\s+|little\s+|side\s+|secret\s+|fun\s+|cool\s+)?"
    r"(?:project|thing|idea)s?|(?:something|anything|nothing)\s+\w+(?:\s+\w+)?)$|"
    r"(?:you|your|ur|u|me|him|her|us|they|them|it|what|how|whatever|there|here|over|off|every|each|"
    r"forward|back|around|up|down|out|so|too|as|like|any|to|and|or|but)\b)"
)
_PREPOSITION = re.compile(r"(?i)^(?:on|in|into|at|with|for|about|from|of|by)\b")
_SELF_ING = (
    r"(?:(?i:\bI(?:'m|\s+am)|\bI(?:'ve|\s+have)\s+been|\bwe(?:'re|\s+are)|\bwe(?:'ve|\s+have)"
    r"\s+been)|(?:^|(?<=[.!?]\s))(?i:been|still|currently|now)|(?<=,\s)(?i:just|still|also)"
    r"(?=\s+(?i:learning|studying|researching|looking\s+into|volunteering|practi[cs]ing|training)\b))"
)


def _whole(what: str, *, object_: bool = True) -> str | None:
    """The activity's whole phrase, or None for a fragment or a pleasantry; an object
    (``object_``) does not open on a preposition ("doing on", "looking in")."""
    what = re.sub(r"\s+", " ", what).strip(" '\"-")
    cut = re.sub(r"(?i)(?:\s+(?:for|with|to|at|in|on|by|from|about))+$", "", what)
    if len(cut.split()) >= 2:
        what = cut  # "a library for [when …]": the phrase, its dangling preposition cut
    if len(what) < 3 or _NOT.match(what) or _FRAGMENT.search(what) or _FINITE.search(what):
        return None
    if object_ and _PREPOSITION.match(what) or "…" in what:
        return None
    return what


def _own(what: str) -> str:
    """The person's words in the third person, as a fact states them ("my" → "their")."""
    return re.sub(r"\b(?:my|myself|me|our|ourselves|mine|I|I'm)\b(?!-)",
                  lambda w: _OWN[w.group(0)], what)  # fmt: skip


# A day that comes back ("every Friday", "each morning"): a habit's, not a plan's date.
_RECURRING = re.compile(
    r"(?i)\b(?:every|each)\s+(?:other\s+)?(?:day|night|morning|evening|week|weekend|month|year|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b"
)


def _activity(out: Emitter, doing: str, text: str, *, lasting: bool) -> None:
    """An activity of the person's (value: its phrase); a future one is a plan (a todo); one
    that may be this minute's (not ``lasting``) writes nothing. A fallback: a clause another
    rule already wrote a fact from writes no activity too."""
    if out.clause_said:
        return
    when = None if _RECURRING.search(out.sentence) else find_due(out.sentence, out.now)
    ahead = out.valid_from is not None and out.valid_from > out.now
    if ahead or (when is not None and when.at > out.now and out.valid_from is None):
        out.todo(
            "COMMITMENT", doing, also_due_in=out.sentence, at=out.valid_from if ahead else None
        )
    elif lasting:
        out.fact("DOES", _own(text), value=_own(doing), fact_type="habit", confidence=0.7)


@rule(
    "doing_now",
    rf"{_SELF_ING}\s+(?:(?i:currently|still|also|now|really|just|actually|slowly|finally|"
    rf"even|busy|definitely|carrying\s+on|continuing|keeping\s+up)\s+)*(?P<verb>(?i:{_ING}))\s+"
    rf"{_PHRASE}",
)
def _doing_now(m: re.Match[str], out: Emitter) -> None:
    verb = " ".join(m["verb"].lower().split())
    what = _whole(m["what"], object_=verb not in _INTRANSITIVE)
    if what is None or (verb in ("doing", "making", "taking") and len(what.split()) < 2):
        return  # "doing ok", "making sense", "taking care": not an activity
    if verb == "planning" and not re.match(r"(?i)an?\s", what):
        return  # "planning to …" is a plan (the todo rules)
    if verb == "learning" and re.match(rf"(?i:{_LANGS})\b", what):
        return  # a language: profile.learning writes it
    # "I'm taking the bus home", "I'm running late": this minute's, not a state
    lasting = _LASTING.match(verb) or (verb == "taking" and _TAKEN.match(what))
    doing = f"{verb} {what}"
    _activity(
        out, doing, f"{out.who} is {doing}", lasting=bool(lasting or _DURATION.search(m.string))
    )


@rule(
    "doing_subjectless",
    rf"(?:^|(?<=[.!?]\s))(?=[A-Z])(?P<verb>(?i:{_ING})(?<!doing)(?<!making)(?<!taking))\s+"
    rf"{_PHRASE}",
)
def _doing_subjectless(m: re.Match[str], out: Emitter) -> None:
    """ "Researching adoption agencies — …": a sentence that opens on the activity and is
    nothing but it (a gerund followed by more of its sentence is its subject)."""
    verb = " ".join(m["verb"].lower().split())
    what = _whole(m["what"], object_=verb not in _INTRANSITIVE)
    alone = re.match(r"\s*(?:[—–.!]|\s-\s|$)", m.string[m.end() :])
    if re.match(r"(?i)(?:really|truly|always|just|totally|definitely|also|so|never)\b", m["what"]):
        return  # "Volunteering really fulfills me": the gerund is its sentence's subject
    lasting = _LASTING.match(verb) or _DURATION.search(m.string)
    if what is not None and alone and out.is_user:
        doing = f"{' '.join(m['verb'].lower().split())} {what}"
        _activity(out, doing, f"{out.who} is {doing}", lasting=bool(lasting))


@rule(
    "habit",
    rf"(?i:\bI\s+(?:also\s+|still\s+|usually\s+|often\s+|regularly\s+|sometimes\s+)?)"
    rf"(?P<verb>(?i:{_HABIT}))\s+(?!(?i:it|that|this|them|you|so|too|well|a\s+lot)\b)"
    rf"{_PHRASE}",
)
def _habit(m: re.Match[str], out: Emitter) -> None:
    verb = m["verb"].lower()
    what = _whole(m["what"], object_=False)
    if what is None or out.clause_said or re.search(rf"(?i)\b(?:{_BUSINESS})\b", what):
        return
    does, what = _S.get(verb, verb + "s"), _own(what)
    out.fact(
        "DOES", f"{out.who} {does} {what}", value=f"{verb} {what}", fact_type="habit",
        confidence=0.7,
    )  # fmt: skip


_NOT_STARTED = frozenset(
    "going feeling thinking working living dating seeing arguing fighting crying worrying".split()
)
# The time said after an activity ("got back into skating recently"): not the activity's words.
UNTIMED = re.compile(
    r"(?i)(?:^|\s+)(?:(?:last|this|on)\s+\w+|yesterday|today|recently|lately|again|these\s+days)$"
)


@rule(
    "started_doing",
    rf"(?:(?i:\b(?:I|we)(?:'ve|\s+have)?\s+)|^|(?<=[.!?]\s))(?i:(?:just\s+|recently\s+|"
    rf"finally\s+)?(?:started|began|took\s+up|taken\s+up|got\s+(?:back\s+)?into|gotten\s+"
    rf"(?:back\s+)?into))\s+"
    rf"(?P<verb>[a-z]+ing)(?:\s+{_PHRASE}|{_END})",
)
def _started_doing(m: re.Match[str], out: Emitter) -> None:
    """ "I started playing acoustic guitar about five years ago", "I've taken up surfing", "I
    got back into skating recently": an activity since then."""
    said = re.sub(r"(?i)(?:^|\s+)(?:about|around|almost|over|some)?\s*\S+\s+\w+\s+ago$", "",
                  UNTIMED.sub("", m["what"] or ""))  # fmt: skip
    what = _whole(said) if said.strip() else ""
    if what is not None and not out.clause_said and m["verb"].lower() not in _NOT_STARTED:
        doing = _own(f"{m['verb'].lower()} {what}".strip())
        out.fact("DOES", f"{out.who} has been {doing}", value=doing, fact_type="habit",
                 confidence=0.75)  # fmt: skip
