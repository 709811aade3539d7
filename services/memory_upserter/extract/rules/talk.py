"""A life told in conversation — long, chatty sentences that say a lasting thing on the way:
several people named after a plural role ("my kids, Sara and Ben", "my dogs Pepper and
Precious"), pets and children named on the way ("My pup, Max,", "our daughter Emma") and goals
("I'm aiming to turn my passion into a business", "my dream is to open a bakery", "a big step
towards my goal of having a family"). Work said the same way is :mod:`.work`'s; where the person
grew up and lives, said with more words, :mod:`.family`'s ("I moved from Lisbon" says where they
lived, not where they are from, and writes no origin).

A value is a whole phrase; a pronoun, a pleasantry or a phrase cut at a preposition writes
nothing. Time words date a fact as usual ("for five years" → since then). Their place in the
rule table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.keeps import _PET_ROLES, pet
from services.memory_upserter.extract.rules.registry import (
    _CAP,
    NAME,
    _name,
    _relationship,
    rule,
    todo_rule,
)
from services.memory_upserter.extract.rules.todos import _ACT, _task
from services.memory_upserter.extract.vocabulary import NOT_NAMES

# --- several people named after a plural role --------------------------------------------------

_PLURAL = {
    "kids": "kid", "children": "child", "sons": "son", "daughters": "daughter",
    "sisters": "sister", "brothers": "brother", "friends": "friend", "best friends": "friend",
    "cousins": "cousin", "grandkids": "grandchild", "grandchildren": "grandchild",
    "dogs": "dog", "cats": "cat", "puppies": "puppy", "pups": "pup", "kittens": "kitten",
    "rabbits": "rabbit", "bunnies": "bunny", "horses": "horse", "turtles": "turtle",
    "birds": "bird", "parrots": "parrot", "hamsters": "hamster", "fur babies": "pet",
    "pets": "pet",
}  # fmt: skip
_PLURALS = "|".join(sorted(map(re.escape, _PLURAL), key=len, reverse=True))
_ONE = rf"{_CAP}(?:\s+{_CAP})?"
_PETS = frozenset(
    "dog cat puppy pup kitten rabbit bunny horse turtle bird parrot hamster pet".split()
)


@rule(
    "plural_named",
    rf"(?i:\b(?:my|our)\s+(?:two\s+|three\s+|four\s+|\d\s+|little\s+|lovely\s+|sweet\s+)?)"
    rf"(?P<role>(?i:{_PLURALS}))\s*(?:,|:|\s-)?\s+"
    rf"(?P<names>{_ONE}(?:\s*,\s*{_ONE})*,?\s+(?:and|&)\s+{_ONE})\b(?!['’]s\b)",
)
def _plural_named(m: re.Match[str], out: Emitter) -> None:
    """ "my kids, Sara and Ben", "my dogs Pepper and Precious": each name with the role."""
    names = [_name(n) for n in re.split(r"\s*,\s*(?:and\s+|&\s+)?|\s+(?:and|&)\s+", m["names"])]
    if not names or any(n is None or n.lower() in NOT_NAMES for n in names):
        return  # "my friends, Mom and Dad": not a list of names
    role = _PLURAL[m["role"].lower()]
    for name in names:
        if role in _PETS:
            pet(out, role, str(name))
        elif role == "grandchild":
            continue  # no relation word for it: the count rules say it
        else:
            _relationship(out, role, str(name))


_PET_WORDS = "|".join(sorted((*_PETS, "pup", "puppy", "doggo", "kitty", "rescue dog", "rescue cat",
    "guinea pig", "bunny", "tortoise", "snake", "lizard", "gecko", "ferret", "fish"), key=len,
    reverse=True))  # fmt: skip


@rule(
    "pet_apposition",
    rf"(?i:\b(?:(?:my|our)|(?:adopted|got|have|rescued|brought\s+home)\s+an?)\s+(?:new\s+|little\s+|"
    rf"sweet\s+|old\s+|rescue\s+|family\s+)?)(?P<role>(?i:{_PET_WORDS}))\s*,\s*{NAME}"
    rf"(?=\s*(?:,|[.!?]|$))",
)
def _pet_apposition(m: re.Match[str], out: Emitter) -> None:
    """ "My pup, Max, loves the beach", "We adopted a rescue dog, Buddy, last year"."""
    name = _name(m["name"])
    if name and name.lower() not in NOT_NAMES:
        pet(out, re.sub(r"^rescue\s+", "", m["role"].lower()), name)


@rule(
    "name_is_my_pet",
    rf"{NAME}\s+(?i:is\s+(?:my|our)\s+(?:(?:\w+|\d+)[- ]year[- ]old\s+|little\s+|sweet\s+|new\s+|"
    rf"rescue\s+|old\s+|baby\s+|fur\s+)*)(?P<role>(?i:(?:golden|black|white|brown|grey|gray|tabby|"
    rf"ginger|german|french|english|border|jack|king|cocker|bernese|siberian|persian|maine)\s+)?"
    rf"(?i:{_PET_ROLES}|{_PET_WORDS}))\b(?!['’]s)",
)
def _name_is_my_pet(m: re.Match[str], out: Emitter) -> None:
    """ "Max is my 3 year old golden retriever"."""
    name = _name(m["name"])
    if name and name.lower() not in NOT_NAMES:
        pet(out, m["role"].lower(), name)


_KIN_OR_PET = "|".join(
    sorted({*_PETS, "son", "daughter", "brother", "sister", "boy", "girl", "puppy", "kitten"},
           key=len, reverse=True)
)  # fmt: skip


@rule(
    "and_another_named",
    rf"(?i:\b(?:I|we)(?:\s+have|'ve\s+got|\s+have\s+got|\s+got|\s+adopted|\s+own)\b)[^.!?;]{{0,80}}?"
    rf"(?i:\band\s+an?\s+(?:little\s+|baby\s+|new\s+|rescue\s+|younger\s+|older\s+)?)"
    rf"(?P<role>(?i:{_KIN_OR_PET}))\s*,?\s+(?i:named|called)\s+{NAME}",
)
def _and_another_named(m: re.Match[str], out: Emitter) -> None:
    """ "I have a son named Leo and a daughter named Mia": the second one too."""
    name = _name(m["name"])
    role = {"boy": "son", "girl": "daughter"}.get(m["role"].lower(), m["role"].lower())
    if not name or name.lower() in NOT_NAMES:
        return
    if role in _PETS or role in ("puppy", "kitten"):
        pet(out, role, name)
    else:
        _relationship(out, role, name)


@rule(
    "our_child_named",
    rf"(?i:\bour\s+(?:little\s+|baby\s+|eldest\s+|youngest\s+|oldest\s+|new\s+)?)"
    rf"(?P<role>(?i:son|daughter|boy|girl))\s*,?\s+{NAME}",
)
def _our_child_named(m: re.Match[str], out: Emitter) -> None:
    """ "Our daughter Emma just started kindergarten": the person's child."""
    name = _name(m["name"])
    if name and name.lower() not in NOT_NAMES:
        role = {"boy": "son", "girl": "daughter"}.get(m["role"].lower(), m["role"].lower())
        _relationship(out, role, name)


# --- goals (todos) -----------------------------------------------------------------------------


_GOAL_VERB = re.compile(
    r"(?i)(?:become|be\s+an?|open|start|build|create|own|have|travel|visit|write|publish|run|turn|"
    r"launch|buy|move|learn|get|make|help|adopt|finish|see\s+the|retire|teach|work|study|go|"
    r"raise|save|grow|expand|share|perform|compete|win|climb|hike|finish|complete|give|bring|"
    r"inspire|mentor|guide|spread|change|improve|pass|graduate)\b"
)


@todo_rule(
    "aiming_to",
    r"(?i:\b(?:I(?:'m|\s+am)\s+(?:now\s+|really\s+|also\s+)?(?:aiming|striving|saving\s+up)\s+to|"
    r"I(?:'ve|\s+have)?\s+(?:finally\s+|just\s+)?decided\s+to|"
    r"my\s+(?:main\s+|big\s+|biggest\s+|ultimate\s+)?(?:aim|dream|ambition|mission)\s+is\s+"
    r"to|it(?:'s|\s+is|\s+has\s+always\s+been)\s+(?:always\s+been\s+)?my\s+(?:dream|goal|aim)\s+"
    r"to))\s+(?P<task>.+)$",
)
def _aiming_to(m: re.Match[str], out: Emitter) -> None:
    """ "Now, I'm aiming to turn my dancing passion into a business", "I'm saving up to buy a
    house", "I've decided to run for mayor": a goal — an act one can pursue ("my dream is to
    sleep for a week" is a joke, no goal)."""
    task = _own_task(m["task"])
    decided = re.search(r"(?i)\bdecided\b", m.group(0)[:40])
    if task and _GOAL_VERB.match(task) and not (decided and _OUTING.match(task)):
        out.todo("GOAL", task, dated=False)  # "I've decided to go to bed": no goal


@todo_rule(
    "excited_to",
    r"(?i:\b(?:I(?:'m|\s+am)\s+(?:(?:so|really|also|super|very|just)\s+)*(?:excited|eager|pumped|"
    r"stoked)|(?:^\W*|\bI\s+)can(?:'|no)?t\s+wait)\s+to)\s+(?P<task>.+)$",
)
def _excited_to(m: re.Match[str], out: Emitter) -> None:
    """ "I'm also excited to guide and mentor aspiring dancers", "Can't wait to open my own
    studio": a goal when it names one (never "excited to see the show", "can't wait to go")."""
    task = _own_task(m["task"])
    if task is None or len(task.split()) < 3 or _VAGUE_GOAL.search(task):
        return  # "excited to give back", "…to start this new chapter": no goal one can name
    if _GOAL_VERB.match(task) and not _OUTING.match(task):
        out.todo("GOAL", task, dated=False)


_OUTING = re.compile(r"(?i)(?:go|see|visit|have|get|make|be|hear|try|meet|watch|catch|hang)\b")
_VAGUE_GOAL = re.compile(r"(?i)\b(?:you|your|ya|u|this|that|these|those|it)\b")


@todo_rule(
    "goal_of",
    r"(?i:\b(?:towards?|toward|closer\s+to|step\s+to|part\s+of|for)\s+my\s+(?:\w+\s+)?"
    r"(?:goal|dream)\s+of)\s+(?P<task>[a-z]+ing\b.+)$",
)
def _goal_of(m: re.Match[str], out: Emitter) -> None:
    """ "This is a big move towards my goal of having a family"."""
    task = _own_task(m["task"])
    if task:
        out.todo("GOAL", task, dated=False)


@todo_rule(
    "hoping_to",
    r"(?i:\bI(?:'m|\s+am)\s+(?:really\s+|also\s+)?(?:hoping|determined|looking)\s+to|\bI\s+"
    r"(?:really\s+)?hope\s+to)\s+(?P<task>.+)$",
)
def _hoping_to(m: re.Match[str], out: Emitter) -> None:
    """ "I'm hoping to finish my novel by the end of the year": a goal when it names an act."""
    task = _own_task(m["task"])
    if task is None or re.match(r"(?i)(?:see|hear|talk|chat)\b", task):
        return
    if _ACT.match(task) or (
        _GOAL_VERB.match(task) and not _OUTING.match(task) and not _VAGUE_GOAL.search(task)
    ):  # "I'm hoping to run a marathon next year"; never "… to help you out"
        out.todo("GOAL", task)


def _own_task(text: str) -> str | None:
    """A goal's words up to where the sentence turns, or None for a pronoun or a fragment."""
    task = re.split(r"\s*(?:,\s*(?:and|so|which|but)\b|\.\s|[!?])", _task(text), maxsplit=1)[0]
    task = task.strip(" .,")
    if len(task.split()) < 2 or re.match(r"(?i)(?:it|that|this|you|be\s+there)\b", task):
        return None
    if re.search(r"(?i)\b(?:everything|it\s+all|things|stuff|it\s+work)\b", task):
        return None  # "make everything just right": no goal one can name
    return None if re.search(r"(?i)\b(?:to|for|with|of|the|a|my|and|or)$", task) else task
