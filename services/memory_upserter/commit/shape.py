"""A plan's trust from its own shape (pure): how far grounding's claim rules decide
(:mod:`.grounding`, :mod:`.claims`).

The turn hands the model a strict ``response_format`` (envelope-validator's ``answer_format``,
:func:`services.core.json_schema.strict_schema` of the answer): every object closed, every
property required, every enum closed. Whether the integrator's endpoint enforces it is their
choice, and it shows in what comes back. :func:`conforms`: the answer is exactly one JSON object
the schema admits — no fence or prose around it, every field present, none the schema lacks,
each type and enum as the schema says. Such a plan is the work of a model that followed [ANSWER
FORMAT]; one that needed the lenient reader (:mod:`.lenient`: a fence, a missing ``plan`` or
field, ``"PERSONAL"`` for an enum, facts beside ``reply``) was written by a model that did not
follow the schema.

- **Held to the conversation** (``"session"``, a conforming plan): a fact's words are looked for
  in the person's words of the session and in what memory holds of them (their live facts); a
  value the model normalised may rest on the fact's own sentence ("professional gamer" ← "User
  makes a living from gaming"); a photo the person shared is theirs; a persona's own note
  (``scope: agent``) may rest on its reply. A claim rule's doubt (someone else's clause, a
  relation, a habit, a liking, a home, a word only the assistant offered) only lowers the fact:
  kept unsure, out of FOUNDATION (:func:`.grounding.weighed`, the one step that applies it).
- **Held strictly** (``"strict"``, any other plan): captions and the other speaker's things
  aside, and every claim rule's doubt drops the fact — an unsure relation too ("Espen is the
  user's partner" when the person never said partner).
- Either way a fact with less than half its words said is dropped, and a hedge or a wish is kept
  out. Each dropped or lowered fact's warning names why, and "(plan held strictly)" or "(plan in
  the schema's shape)".

Where this is wrong: a strong model in plain JSON mode that leaves out one empty field, or fences
its JSON, is held strictly (its fair relations, habits and owners said loosely are dropped); a
weak model under strict decoding is held to the conversation (its invented relations, habits
and likings are kept, lowered). bench/RESULTS.md (block "wt9/trust") measures both by replaying
the recorded answers in the other shape (:mod:`bench.model_loop.perturb`).
"""

from __future__ import annotations

import functools
from typing import Any, Literal

import msgspec

from contracts.plan import LLMAnswer
from services.core.json_schema import strict_schema

__all__ = ["Trust", "conforms", "trust_of"]

Trust = Literal["session", "strict"]

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "array": (list,),
    "object": (dict,),
    "null": (type(None),),
}


@functools.cache
def _schema() -> dict[str, Any]:
    """The answer's strict schema, as envelope-validator's ``response_format`` sends it (that
    one also drops descriptions; types, enums and required fields are these)."""
    return strict_schema(LLMAnswer)


def trust_of(answer: str | None, plan: dict[str, Any] | None = None) -> Trust:
    """``"session"`` for an answer (or a plan the flow sent as an object) strict decoding could
    have written, else ``"strict"``."""
    if answer is not None:
        return "session" if conforms(answer) else "strict"
    fits = plan is not None and _admits(_schema()["properties"]["plan"], plan)
    return "session" if fits else "strict"


def conforms(raw: str) -> bool:
    """The raw answer is one JSON object, nothing around it, that the strict schema admits."""
    try:
        value = msgspec.json.decode(raw.strip().encode())
    except msgspec.DecodeError:
        return False
    return isinstance(value, dict) and _admits(_schema(), value)


def _admits(node: dict[str, Any], value: Any) -> bool:
    """``value`` is one the strict-mode ``node`` admits (the subset :mod:`.json_schema` emits:
    type, enum, const, properties all required and closed, items, anyOf)."""
    if "anyOf" in node:
        return any(_admits(option, value) for option in node["anyOf"])
    if "enum" in node and value not in node["enum"]:
        return False
    if "const" in node and value != node["const"]:
        return False
    kinds = node.get("type")
    if kinds is not None:
        names = [kinds] if isinstance(kinds, str) else kinds
        allowed = tuple(t for n in names for t in _TYPES[n])
        is_bool = isinstance(value, bool)
        if not isinstance(value, allowed) or (is_bool and bool not in allowed):
            return False
    if isinstance(value, dict) and "properties" in node:
        properties = node["properties"]
        if value.keys() != properties.keys():  # every property, none other
            return False
        return all(_admits(properties[k], v) for k, v in value.items())
    if isinstance(value, list) and "items" in node:
        return all(_admits(node["items"], item) for item in value)
    return True
