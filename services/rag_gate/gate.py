"""The RAG gate (003 §6.2): does this turn need the vector index? Pure: no I/O.

The message is normalized (case-folded, accents and curly quotes folded, spaces collapsed:
"Remémber what you’d said" → "remember what you'd said"), then each rule's patterns are
matched as whole words. The gate opens when any rule fires, unless the request forces it.

| rule             | fires on (whole words, after normalization)                                   |
|------------------|-------------------------------------------------------------------------------|
| continuity       | remember, recall, remind me what/when/…, last time/night/week…, again,        |
|                  | you said/told me/mentioned…, we talked/discussed/agreed/decided…,             |
|                  | talked about, yesterday, the other day, earlier today, previously, update on  |
| entity_mention   | the request's ``entity_ids`` is not empty (graph-hydrator found someone)      |
| about_user       | a question about the person or their people: what's/what is/who's/where's/    |
|                  | when's my…, where/what/who does/do/is my…, what/where/who/when/which do/am/   |
|                  | have I…, who am I, how old am I, am I allergic/married/vegan…, my name,       |
|                  | do you know/remember me/my/where/what/who…, what you know about me, tell me   |
|                  | about myself — never a question about the bot ("who are you?", "how are      |
|                  | you?") or the world ("what's the weather?"), which name no "I"/"my"          |
| plan_progress    | plan(s/ned/ning), progress, how am I doing, how did I do, goal(s), streak(s), |
|                  | on track, milestone(s), target(s), next step(s), routine, habit(s), check-in  |
| reflection       | why do/did/am/can't… I, I keep, I always, I never, pattern(s), feel(s/ing),   |
|                  | felt, struggle…, overwhelmed, anxious, procrastinat…, what's wrong with me    |
| logging          | ate, eaten, drank, I ran/walked/swam/cycled…, ran 5k/10 km…, slept, woke up,  |
|                  | for breakfast/lunch/dinner, snacked, workout, gym, yoga, N steps/calories…    |
| past_question    | when/what/where/who/how did, did I/we, have I/we, was I, what was/were,       |
|                  | how long ago, how many times                                                  |
| session_mode     | ``scratch.mode`` is one of :data:`RETRIEVAL_MODES` (reflective, planning…)    |

Words inside other words never fire: "against" is not "again", "planet" not "plan", "update"
not "ate". ``force='open'|'closed'`` decides instead of the rules; the rules that fired are
still reported. A closed gate costs no embedding and no vector search.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from contracts.retrieve import Gate, GateRule
from contracts.slots import Scratch

SHORT_MESSAGE_WORDS = 6  # a message this short gets the session's topic focus appended
MATCHED_IDS = 10  # entity ids echoed in gate.matched

RETRIEVAL_MODES = frozenset(
    {
        "reflective",
        "reflection",
        "counseling",
        "counselling",
        "coaching",
        "planning",
        "review",
        "journaling",
        "journalling",
        "logging",
        "check-in",
        "checkin",
    }
)


@dataclass(frozen=True, slots=True)
class Rule:
    name: GateRule
    patterns: tuple[str, ...]

    def compile(self) -> re.Pattern[str]:
        return re.compile(r"\b(?:" + "|".join(self.patterns) + r")\b")


_NUMBER = r"\d+(?:[.,]\d+)?"

RULES: tuple[Rule, ...] = (
    Rule(
        "continuity",
        (
            r"remember(?:ed|s|ing)?",
            r"recall(?:ed|s)?",
            r"remind me (?:what|when|who|where|how|why|about)",
            r"last (?:time|night|week|weekend|month|year|session|conversation|chat)",
            r"again",
            r"the other day",
            r"earlier (?:today|this week)",
            r"previously",
            r"yesterday",
            r"a while ago",
            r"you (?:said|told me|mentioned|suggested|asked|promised|wrote)",
            r"(?:i|we) (?:told you|mentioned|discussed)",
            r"(?:as|like) i (?:said|mentioned)",
            r"we (?:talked|spoke|discussed|agreed|decided|planned|said)",
            r"(?:talked|spoke|chatted) about",
            r"(?:any )?updates? on",
            r"follow(?:ing)? up",
        ),
    ),
    Rule(
        "plan_progress",
        (
            r"plan(?:s|ned|ning)?",
            r"progress(?:ing)?",
            r"how (?:am|are|was|have) (?:i|we) (?:been )?doing",
            r"how did (?:i|we) do",
            r"goals?",
            r"streaks?",
            r"on track",
            r"milestones?",
            r"targets?",
            r"next steps?",
            r"routines?",
            r"habits?",
            r"check[- ]?ins?",
        ),
    ),
    Rule(
        "reflection",
        (
            r"why (?:do|did|am|was|can ?not|can't|cant|don't|dont|won't|wont|should|does it) i",
            r"i keep",
            r"i always",
            r"i never",
            r"keeps? happening",
            r"patterns?",
            r"feel(?:s|ing|ings)?",
            r"felt",
            r"struggl(?:e|es|ed|ing)",
            r"overwhelm(?:ed|ing)?",
            r"anxious",
            r"anxiety",
            r"procrastinat(?:e|es|ed|ing|ion)",
            r"what'?s wrong with me",
            r"sabotag(?:e|es|ed|ing)",
        ),
    ),
    Rule(
        "logging",
        (
            r"ate",
            r"eaten",
            r"drank",
            r"snack(?:ed|ing)",
            r"i (?:just )?(?:ran|walked|swam|cycled|biked|hiked|lifted|trained|jogged|rode)",
            r"ran (?:a |an )?"
            + _NUMBER
            + r" ?(?:k|km|kms|mi|miles?|kilomet(?:er|re)s?|min(?:ute)?s?)",
            _NUMBER + r" ?(?:k|km) (?:run|walk|ride|hike|jog)",
            r"slept",
            r"woke up",
            r"went to bed",
            r"for (?:breakfast|brunch|lunch|dinner|supper|dessert)",
            r"workout",
            r"worked out (?:today|this morning|tonight)",
            r"gym",
            r"yoga",
            _NUMBER + r" ?(?:steps|calories|kcal|reps|glasses of water)",
            r"weigh(?:ed|ing)? in",
            r"i weigh(?:ed)?",
        ),
    ),
    Rule(
        "about_user",
        (
            r"(?:what|where|who|when|which|how)(?:'s|'re| is| are| was| were) my",
            r"(?:what|where|who|when|which|how) (?:does|do|did|is|are|was|were) my",
            r"(?:what|where|who|when|which) (?:do|am|have|did|was) i",
            r"who am i",
            r"how old am i",
            r"my name",
            r"am i (?:allergic|intolerant|married|single|vegan|vegetarian|pregnant)",
            r"(?:do|did) you (?:still |even )?(?:know|remember|recall) "
            r"(?:me|my|where|what|who|when|"
            r"which|how|that|if|about)",
            r"(?:what|anything) (?:else )?(?:do )?you (?:know|remember) about (?:me|my)",
            r"tell me (?:about|what you know about) (?:me|myself|my)",
        ),
    ),
    Rule(
        "past_question",
        (
            r"(?:when|what|where|who|how) did",
            r"did (?:i|we)",
            r"have (?:i|we)",
            r"was i",
            r"what (?:was|were)",
            r"how long ago",
            r"how many times",
        ),
    ),
)
_COMPILED: tuple[tuple[GateRule, re.Pattern[str]], ...] = tuple(
    (rule.name, rule.compile()) for rule in RULES
)
ORDER: tuple[GateRule, ...] = (
    "continuity",
    "entity_mention",
    "about_user",
    "plan_progress",
    "reflection",
    "logging",
    "past_question",
    "session_mode",
)

# Words that say *that* memory is wanted, not *which*: a hit sharing only these with the
# message is not a strong lexical hit (see ranking.keep).
CUE_WORDS: tuple[str, ...] = (
    "remember",
    "recall",
    "remind",
    "last",
    "time",
    "again",
    "said",
    "told",
    "mentioned",
    "talked",
    "talk",
    "discussed",
    "spoke",
    "yesterday",
    "earlier",
    "previously",
    "update",
    "plan",
    "planned",
    "progress",
    "doing",
    "goal",
    "streak",
    "track",
    "routine",
    "habit",
    "why",
    "keep",
    "always",
    "never",
    "pattern",
    "feel",
    "feeling",
    "felt",
    "when",
    "what",
    "did",
    "ago",
    "times",
)

_QUOTES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "`": "'", "´": "'"})
_SPACES = re.compile(r"\s+")


def normalize(text: str) -> str:
    """Case-folded, accents dropped, curly quotes straightened, whitespace collapsed."""
    text = text.translate(_QUOTES).casefold()
    if not text.isascii():  # the per-character fold only where there is something to fold
        decomposed = unicodedata.normalize("NFKD", text)
        text = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SPACES.sub(" ", text).strip()


def decide(
    message: str,
    *,
    entity_ids: list[str] | tuple[str, ...] = (),
    scratch: Scratch | None = None,
    force: str | None = None,
) -> Gate:
    """Apply the rule table; ``force`` ('open' / 'closed') overrides the outcome."""
    text = normalize(message)
    matched: dict[str, list[str]] = {}
    for name, pattern in _COMPILED:
        found = list(dict.fromkeys(m.group(0) for m in pattern.finditer(text)))
        if found:
            matched[name] = found
    if entity_ids:
        matched["entity_mention"] = list(entity_ids[:MATCHED_IDS])
    mode = normalize(scratch.mode) if scratch is not None and scratch.mode else ""
    if mode in RETRIEVAL_MODES:
        matched["session_mode"] = [mode]
    reasons: list[GateRule] = [name for name in ORDER if name in matched]
    if force is not None:
        return Gate(open=force == "open", reasons=reasons, forced=True, matched=matched)
    return Gate(open=bool(reasons), reasons=reasons, forced=False, matched=matched)


def retrieval_query(message: str, scratch: Scratch | None = None) -> str:
    """The text to embed and search: the message, plus ``(topic focus)`` when the message is
    short enough to be elliptical ("and her?") and the session has a focus."""
    text = _SPACES.sub(" ", message).strip()
    focus = (scratch.topic_focus or "").strip() if scratch is not None else ""
    if focus and len(text.split()) <= SHORT_MESSAGE_WORDS and focus.lower() not in text.lower():
        return f"{text} ({focus})" if text else focus
    return text
