"""A fact's ``memory_type`` when the model left it out or wrote a word that is none (pure).

``memory_type`` is required, and a small model forgets it (``{"predicate": "livesIn", "text":
"User lives in Kalamaria"}``) or writes a word of its own ("FACT"). The fact itself was fine:
dropping it for its filing label lost "User is a structural engineer" and "Nikos is the user's
brother". The kind is read from the fact instead, with a ``plan_repaired`` notice:

- about someone else (a subject that is not the person), or a relation of the person's
  (``brother``, ``has_dog``, ``coworker``): **PEOPLE**;
- the person's work on something (a project, a goal, a business, studies): **PROJECT**;
- anything else about the person: **PROFILE**.

A word the lenient reader can read ("personal", "Job", "relationship") is left to it, and one
that files a todo as a fact ("OPEN_LOOP") too: such a fact is dropped, as before."""

from __future__ import annotations

import re
from typing import Any

from msgspec import inspect as mi

from contracts.plan import PlanFact
from services.memory_upserter.commit.relatives import ROLE_WORDS, SELF_HANDLES, SHORT_ROLES
from services.memory_upserter.commit.repair import Reader
from services.memory_upserter.text import fold

_NAMES = ("memory_type", "memoryType", "memorytype", "type")  # as the reader's synonyms
_WORK = re.compile(
    r"(?i)(?:^|_)(?:project|projects|goal|goals|business|startup|studies|study|thesis|"
    r"training_plan|works_on|working_on|building|writing|side_project)(?:_|$)"
)
# a kind that says the model filed a todo as a fact ("OPEN_LOOP"): never a fact
_TODO_KIND = re.compile(r"(?i)open.?loop|todo|to.do|task|reminder|commitment|thread")
_FIELD = next(f for f in mi.type_info(PlanFact).fields if f.name == "memory_type")  # type: ignore[attr-defined]


def typed(reader: Reader, part: Any, path: str) -> Any:
    """The fact as sent, with a ``memory_type`` read from what it says when its own is
    missing or unreadable (module docstring)."""
    if not isinstance(part, dict) or not part.keys() - set(_NAMES):
        return part  # nothing but a kind: no fact to keep
    name = next((n for n in _NAMES if n in part), None)
    if name is not None and (
        Reader().value(part[name], _FIELD.type, path)[0] or _TODO_KIND.search(str(part[name]))
    ):
        return part  # read by the lenient reader, or an open loop filed as a fact: dropped
    kind = kind_of(part)
    said = "missing" if name is None else f"{part[name]!r} is no kind"
    reader.note("plan_repaired", f"{path}.memory_type", f"{said}: read as {kind!r} from the fact")
    fixed = {k: v for k, v in part.items() if k != name}
    return {**fixed, "memory_type": kind}


def kind_of(part: dict[str, Any]) -> str:
    """PEOPLE, PROJECT or PROFILE, from the fact's subject and predicate."""
    subject = part.get("subject")
    if isinstance(subject, str) and fold(subject) not in SELF_HANDLES:
        return "PEOPLE"
    predicate = str(part.get("predicate") or "")
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", predicate)  # "hasBrother" → "has_Brother"
    word = re.sub(r"\W+", "_", snake).upper().removeprefix("HAS_").removeprefix("MY_")
    if ROLE_WORDS.get(word) or SHORT_ROLES.get(word):
        return "PEOPLE"
    return "PROJECT" if _WORK.search(snake) else "PROFILE"
