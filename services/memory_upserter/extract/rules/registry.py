"""The offline extractor's rule table: the registry (:func:`rule`, :func:`todo_rule`), the
patterns and helpers the rules share. The rules themselves: home, work, diet, allergies, likes,
projects, events and people in :mod:`.basics`; more self-statements in :mod:`.profile`
and :mod:`.life`; what the person does and keeps, said in passing, in :mod:`.doing` and
:mod:`.keeps`; todos in :mod:`.todos`. A rule's place in the table is set in
:mod:`services.memory_upserter.extract.rules`.

Patterns are English and conservative: a rule fires on an outright statement ("I live in
Lisbon", "my sister Marta", "remind me to …"), never on a guess. Names must be capitalized;
keywords are case-insensitive. Each writer receives the match and the :class:`Emitter`
(:mod:`..emitter`), which knows who is speaking.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.vocabulary import (
    CHAT_WORDS,
    FOUNDATION_ROLES,
    NAMED_BY_ROLE,
    NOT_NAMES,
    ROLES,
    TITLE,
)

_CAP = rf"(?:{TITLE}\s+)?(?:[A-Z]|[À-ÖØ-Þ])[\w'’-]*"  # "Mrs. Lee" is one name word
NAME = rf"(?P<name>{_CAP}(?:\s+{_CAP}){{0,2}})"
ORG = rf"(?P<org>{_CAP}(?:\s+(?:&\s+)?{_CAP}){{0,3}})"
_STOP = (
    r"(?=\s*(?:[,.;:!?)]|$|\s(?:and|or|but|because|so|since|though|although|when|while|if|"
    r"with|for|at|on|in|to|from|every|today|tomorrow|tonight|now|yet|right|not|originally|until|till|"
    r"these|lately|already|too|tho|anyway|after|before|I|my|we)\b))"
)
# A liked thing runs to the end of its phrase, prepositions included ("road trips with friends
# and family"), and stops where another statement or a time begins.
_LIKE_STOP = (
    r"(?=\s*(?:[,.;:!?)]|$|\s(?:and\s+(?:I|it|we|my|that|this)|but|because|so|since|though|"
    r"although|when|while|if|before|after|during|every|today|tomorrow|tonight|now|lately|"
    r"these\s+days|too|a\s+lot|so\s+much|right|I|it|we|as\s+well|on\s+(?:the\s+)?weekends?|"
    r"on\s+\w+days)\b))"
)
LIKED = rf"(?P<thing>[^,.;:!?]+?){_LIKE_STOP}"
THING = rf"(?P<thing>[^,.;:!?]+?){_STOP}"
PLACE = rf"(?P<place>[^,.;:!?]+?(?:,\s*{_CAP})?){_STOP}"
ROLE = r"(?P<role>[a-z][a-z -]{1,40}?)"

_ROLES = "|".join(sorted((re.escape(r) for r in ROLES), key=len, reverse=True))
NOT_THINGS = re.compile(
    r"^(?:you|your|yours|ur|u|it|that|this|them|him|her|me|when|how|what|to\s*$|to\s+think|"
    r"to\s+(?:say|admit|ask|bother|interrupt|break\s+it|tell\s+you|disappoint|be\s+that)|the\s+"
    r"idea|the\s+way|the\s+thought|a\s+lot|something|stuff|things|everything|anything|"
    r"hearing|seeing|reading\s+(?:this|that|about\s+your)|talking\s+to\s+you)\b",
    re.IGNORECASE,
)
SUBJECT = (
    rf"(?:(?i:\bmy\s+(?:other\s+)?)(?P<subj_role>{_ROLES})(?:\s+(?P<subj_named>{_CAP}))?|"
    rf"(?P<pron>\b(?:[Hh]e|[Ss]he))|(?P<subj>{_CAP}(?:\s+{_CAP}){{0,2}}))"
)


@dataclass(frozen=True)
class Rule:
    name: str
    pattern: re.Pattern[str]
    apply: Callable[[re.Match[str], Emitter], None]
    raw: bool = False  # a fact rule that reads its clause with the time phrases kept
    requested: bool = False  # a todo rule that also fires in a question ("can you remind me")
    module: str = ""  # the rule module that registered it: its place in the table


Apply: TypeAlias = Callable[[re.Match[str], Emitter], None]
REGISTERED: list[Rule] = []  # fact rules, in each module's own order; the table orders modules
REGISTERED_TODOS: list[Rule] = []


def rule(name: str, pattern: str, *, raw: bool = False) -> Callable[[Apply], Apply]:
    """Register a fact rule: it reads one asserted clause, time phrases taken out."""

    module = _caller()

    def register(apply: Apply) -> Apply:
        REGISTERED.append(Rule(name, re.compile(pattern), apply, raw=raw, module=module))
        return apply

    return register


def todo_rule(name: str, pattern: str, *, requested: bool = False) -> Callable[[Apply], Apply]:
    """Register a todo rule: it reads the whole sentence, due words included."""

    module = _caller()

    def register(apply: Apply) -> Apply:
        REGISTERED_TODOS.append(
            Rule(name, re.compile(pattern), apply, requested=requested, module=module)
        )
        return apply

    return register


def _caller() -> str:
    """The module calling :func:`rule` or :func:`todo_rule` (a rule module, at import)."""
    frame = sys._getframe(2)
    return str(frame.f_globals["__name__"])


def _name(text: str | None) -> str | None:
    if not text:
        return None
    words = text.split()
    if words and re.fullmatch(r"[^\W\d_][\w-]*['’]s", words[-1]):
        words[-1] = words[-1][:-2]  # "my daughter Sara's birthday": Sara
    while words and words[-1].lower() in NOT_NAMES:
        words.pop()
    return " ".join(words) if words and words[0].lower() not in NOT_NAMES else None


def _thing(text: str | None) -> str | None:
    thing = (text or "").strip(" '\"-–—")
    return thing if thing and not NOT_THINGS.match(thing) and len(thing) <= 120 else None


# Not a liked thing: the rest of a relative clause ("everyone we love was there"), or a thing
# whose object is a pronoun ("holding them"): the thing itself is elsewhere.
_NOT_LIKED = re.compile(
    r"(?i)^(?:is|was|are|were|has|have|had|makes?|gives?|those|these)\b|\b(?:them|it|those|"
    r"these|him|her)$|^our\s+(?:talks?|chats?|conversations?|convos?|time\s+together)$"
)
# A person or a pet the person loves ("my wife", "my cat Luna", "my kids") is a relation, not a
# taste: the relation is written where it is named (:mod:`.kin`, :func:`role_named`).
_LOVED_ONE = re.compile(
    rf"(?i)^(?:my|our)\s+(?:(?:little|big|baby|older|younger|new|old|other|two|three|lovely|"
    rf"amazing|beautiful|wonderful|sweet)\s+)*(?:{_ROLES}|kids|children|parents|family|fam|"
    rf"grandparents|grandkids|babies|pets?|dogs|cats|husband|wife)(?:\s+{_CAP}(?:\s+{_CAP})?)?$"
)


# A phrase cut at a comma between adjectives ("creating a safe, inviting place"): its noun is
# past the comma, so the phrase names nothing.
_CUT_ADJECTIVE = re.compile(
    r"(?i)\b(?:a|an|the)\s+(?:safe|good|great|positive|better|new|big|small|happy|healthy|"
    r"strong|loving|supportive|welcoming|warm|real|fun|creative|inclusive|open)$"
)


# A second verb whose object was a pronoun, cut ("helping the community and making [it …]").
_CUT_VERB = re.compile(
    r"(?i)\s+(?:and|or)\s+(?:making|doing|getting|keeping|having|taking|giving|putting|letting|"
    r"turning|bringing|seeing|watching)$"
)


def liked(text: str | None) -> str | None:
    """A liked thing as a whole phrase: "going on road trips" is "road trips", "to travel" is
    "travel"."""
    if NOT_THINGS.match((text or "").strip()):
        return None  # "to say", "to think": no liked thing, before the "to" goes
    thing = re.sub(
        r"(?i)^(?:going\s+(?:on\s+|to\s+)?|to\s+go\s+(?:on\s+|to\s+)?|to\s+(?=[a-z]{3,}\b))",
        "",
        text or "",
    )
    stripped = thing.strip()
    if _NOT_LIKED.search(stripped) or _LOVED_ONE.match(stripped) or _CUT_ADJECTIVE.search(stripped):
        return None
    return _thing(_CUT_VERB.sub("", stripped))


_LISTED = re.compile(r"((?:\s*,\s*(?:and\s+|or\s+)?[a-z][\w' -]{2,30}?)+)\s*(?=[.;:!?]|$)")


def listed(m: re.Match[str]) -> list[str]:
    """The rest of a list a liked thing opens ("I love hiking, biking, and swimming"): each
    further item, short and whole, to the end of the sentence."""
    rest = _LISTED.match(m.string, m.end())
    if rest is None or not re.search(r"\b(?:and|or)\b", rest.group(1)):
        return []  # a list ends on "and"/"or": "my garden, spend hours there" is no list
    items = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+and\s+", rest.group(1).strip(" ,"))
    found = [liked(i) for i in items if len(i.split()) <= 4]
    return [f for f in found if f] if len(found) == len(items) else []


_CHATTY_TAIL = re.compile(
    r"(?i)[a-z]{3,}ly|"
    + "|".join(sorted((re.escape(w) for w in CHAT_WORDS), key=len, reverse=True))
)


def _place(text: str) -> str | None:
    words = (text or "").split()
    while len(words) > 1 and _CHATTY_TAIL.fullmatch(words[-1]):
        words.pop()  # "porto actually", "lisbon atm": the place ends before the chat word
    place = _thing(" ".join(words))
    if not place or re.match(
        r"(?i)(?:a|an|the|my|our|this|that|here|there|with|together|back|home|away|out|"
        r"again|now|recently|finally)\b",
        place,
    ):  # "we moved in together": no place
        return None
    return " ".join(w if w[:1].isupper() else w.capitalize() for w in place.split())


def _subject(m: re.Match[str], out: Emitter) -> str | None:
    """The third-person subject of a match: a named person, "my mom", or "she"."""
    if m["pron"]:
        return out.last_person
    role = (m["subj_role"] or "").lower()
    if role:
        named = _name(m["subj_named"])
        if named is None and role not in NAMED_BY_ROLE:
            return None
        return _relationship(out, role, named or NAMED_BY_ROLE[role])
    name = _name(m["subj"])
    return out.entity(name, "Person") if name else None


def _relationship(out: Emitter, role: str, name: str) -> str:
    """The user's (or the speaker's) relationship to a person or pet; returns its handle.
    Family, partners and friends rank as foundation (importance 2), others 1."""
    label = ROLES[role.lower()]
    pet = label == "PET"
    person = out.person(name, None if pet else role, "Pet" if pet else "Person")
    important = label in FOUNDATION_ROLES
    name = out.people.name_of(person) or name  # "my colleague Marta": the known Marta Silva
    out.fact(
        f"HAS_{label}",
        f"{name} is {out.whose} {role.lower()}",
        obj=person,
        memory_type="PEOPLE",
        fact_type="relationship",
        importance=2 if important else 1,
        confidence=0.9,
    )
    return person


def _article(role: str) -> str:
    return ("an " if role[:1] in "aeiou" else "a ") + role


def role_named(m: re.Match[str], out: Emitter) -> None:
    """The apply of every rule whose match has a ``role`` ("sister", "dog") and a ``name``."""
    name = _name(m["name"])
    if name:
        _relationship(out, m["role"], name)
