"""Whether a relation a fact gives someone to the person was the person's (pure; one call from
:mod:`.claims`: :func:`relation_unsaid`).

"Jonas Lind is the user's close friend" needs a word of that relation (:data:`.whose.RELATIONS`)
said as the person's — "my friend", "friends with", a bare "friend" — or the person's framing
of that someone ("lena from work", "i report to tomas": a colleague). A relation word that
belongs to someone else is none: "callums sister lotte", "his sister", "tom's brother" make no
sister or brother of the person's. Then:

- framed another way ("my bf jonas", "jonas from work" is no friend), or framed as someone
  else's relation ("callums sister lotte" is no sister of the person's): dropped;
- a pet, as the person or a stored fact put it ("a puppy named biscuit": "Biscuit is the
  user's friend"), or the one the person talks to ("anything else you enjoy doing, nate?"): a
  mention is no relation, dropped;
- otherwise lowered (it may have been said sessions ago: "tomas is one today!");
- a pet that is a toy ("that stuffed animal dog you gave me"): no pet, dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

from contracts.plan import PlanFact
from services.memory_upserter.commit import grounding as g
from services.memory_upserter.commit import whose
from services.memory_upserter.text import STOP_WORDS, words

if TYPE_CHECKING:
    from services.memory_upserter.commit.grounding import Said

Verdict = tuple[Literal["dropped", "lowered"], str]

# "X is the user's close friend", "User's cousin is arjun", ``friend_of``, ``has_cousin``
_USERS_RELATION = re.compile(r"(?i)\buser['’]s\s+((?:[\w-]+\s+){0,2}[\w-]+)")
# said in a sentence naming them: "jonas from work", "priya, the one at my job", "i report to
# pedro": a colleague
_WORK = re.compile(r"(?i)\b(?:work|job|office|team|colleagues?|coworkers?|report\w*\s+to)\b")
_COLLEAGUES = next(i for i, family in enumerate(whose.RELATIONS) if "coworker" in family)
# a pet is no relation to put in words, nor is a whole family ("User's family is from delhi")
_PETS = {i for i, family in enumerate(whose.RELATIONS) if "pet" in family}

_FAMILY_OF = {w: i for i, family in enumerate(whose.RELATIONS) for w in family}
_ANY = "|".join(sorted(_FAMILY_OF, key=len)[::-1])
# a relation word in any form: "besties", "mums party" (a possessive typed without its apostrophe)
_RELATION_WORD = re.compile(rf"(?i)\b({_ANY})(?:['’]?s)?\b")
_ADJECTIVE = r"(?:(?:older|younger|little|big|baby|twin|new|best|other|old|half|step)\s+)?"
# a relation word that belongs to someone else: "his sister", "callum's sister", "callums
# sister" (never "my", "our", nor "the user's", which model-written facts say)
OTHERS_RELATION = re.compile(
    r"(?i)\b(?:his|her|their|your|its|(?!user\b)[a-z]+['’]s|"
    r"(?!(?:was|has|is|this|us|yes|plus|always|perhaps|as|users)\b)[a-z]{2,}s)\s+"
    rf"{_ADJECTIVE}(?:{_ANY})\b"
)
_TOY = re.compile(r"(?i)\b(?:stuffed|toy|plush|teddy|soft|cuddly)\s+(?:\w+\s+)?(?:dog|cat|puppy)")


def _families(text: str) -> set[int]:
    return {_FAMILY_OF[m[1].lower()] for m in _RELATION_WORD.finditer(text)}


def own_families(text: str) -> set[int]:
    """The relation families the text says as the person's: someone else's ("his sister")
    aside."""
    return _families(OTHERS_RELATION.sub(" ", text))


def relation_unsaid(fact: PlanFact, said: Said) -> Verdict | None:
    """The verdict on a relation the fact gives someone to the person (module docstring);
    None when the person said it."""
    named = _USERS_RELATION.search(fact.text)
    if named is None:
        return None
    claimed = _families(re.sub(r"(?i)\bfamily\b", " ", named[1]))
    texts = (*said.this_turn, *said.earlier, *said.stored)
    if claimed & _PETS:
        toy = [m[0] for t in said.this_turn for m in _TOY.finditer(t)]
        return ("dropped", f"a toy, not a pet: {toy[0]!r}") if toy else None
    if not claimed or claimed & (_framed(fact, texts) | own_families(" ".join(texts))):
        return None
    word = next(m[1] for m in _RELATION_WORD.finditer(named[1]))
    # framed otherwise this turn (earlier, it may have been a namesake: "my friend priya")
    if framed := _framed(fact, said.this_turn):
        other = next(w for w in whose.RELATIONS[min(framed)] if len(w) > 3)
        return "dropped", f"the person called them their {other}, not their {word}"
    if theirs := _framed_as_others(fact, said.this_turn):
        return "dropped", f"the person called them {theirs!r}, not their {word}"
    pets = {w for n in said.people if n.startswith("Pet:") for w in words(n.split(":", 1)[1])}
    if pet := _framed_as_pet(fact, texts) or ("pet" if _names(fact) & pets else None):
        return "dropped", f"the person's {pet}, not their {word}"
    if addressed := _addressed(fact, said.this_turn):
        return "dropped", f"the person talks to {addressed}: no {word} said"
    return "lowered", f"unsure: the person never called them their {word}"


def _names(fact: PlanFact) -> set[str]:
    named = re.sub(r"(?i)\b(?:the\s+)?user['’]s\b.*", "", fact.text)  # "Jonas Lind is the…"
    found = {n for field in (g.target_of(fact), named) for n in words(field or "") if len(n) > 1}
    return found - STOP_WORDS - set(_FAMILY_OF)


_PET = r"(?:dog|cat|puppy|pup|kitten|pet|rabbit|bunny|hamster|parrot|horse|pony)"


def _framed_as_pet(fact: PlanFact, texts: Sequence[str]) -> str | None:
    """The someone is a pet, as the person or a stored fact put it: "our puppy biscuit", "a
    puppy named biscuit", "Biscuit is the user's puppy"."""
    for name in map(re.escape, _names(fact)):
        for text in texts:
            found = re.search(
                rf"(?i)\b{_PET}\w*\b[^.!?]{{0,40}}?(?:named|called)\s+(?:her\s+|him\s+|it\s+)?{name}\b|"
                rf"\b{_PET}\s+{name}\b|\b{name}\W{{0,3}}"
                rf"(?:is\s+|was\s+)?(?:my|our|the\s+user['’]s|a|an)\s+(?:\w+\s+)?{_PET}\b",
                text,
            )
            if found:
                return str(re.search(rf"(?i){_PET}", found[0])[0])  # type: ignore[index]
    return None


def _addressed(fact: PlanFact, texts: Sequence[str]) -> str | None:
    """The someone is the one the person talks to: "hey nate!", "…, nate?"."""
    for name in map(re.escape, _names(fact)):
        for text in texts:
            if re.search(
                rf"(?i)(?:^|[.!?]\s*)(?:hey|hi|hello|yo|oh|thanks|thank\s+you)?\W*{name}\W*[,!]|"
                rf",\s*{name}\s*[?!.]",
                text,
            ):
                return name
    return None


def _framed_as_others(fact: PlanFact, texts: Sequence[str]) -> str | None:
    """How the person framed the someone as another's relation: "callums sister lotte"."""
    for name in _names(fact):
        for text in texts:
            for m in OTHERS_RELATION.finditer(text):
                if re.match(rf"(?i)\s+{re.escape(name)}\b", text[m.end() :]):
                    return f"{m[0]} {name}"
    return None


def _framed(fact: PlanFact, texts: Sequence[str]) -> set[int]:
    """How the person framed the someone the fact names, right beside the name: "my sister
    priya", "priya (my sister)", "jonas from work" and "i report to pedro" (a colleague)."""
    found: set[int] = set()
    for name in _names(fact):
        for text in texts:
            for m in re.finditer(rf"(?i)\b(?:my|our)\s+((?:[\w-]+\s+){{0,2}}){name}\b", text):
                found |= _families(m[1])
            for m in re.finditer(rf"(?i)\b{name}\W{{0,3}}(?:is\s+|was\s+)?my\s+([\w-]+)", text):
                found |= _families(m[1])
            sentences = re.split(r"[.!?\n]+", text)
            if any(re.search(rf"(?i)\b{name}\b", c) and _WORK.search(c) for c in sentences):
                found.add(_COLLEAGUES)
    return found
