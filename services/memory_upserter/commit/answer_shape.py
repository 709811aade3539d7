"""The answer's own shape as a small model gets it wrong (pure): the reply under another name,
the plan's fields written beside ``reply`` with no ``plan``. Each repair has one reading and
is noted ``plan_repaired`` by the :class:`.repair.Reader`."""

from __future__ import annotations

from typing import Any

import msgspec

from contracts.plan import MemoryWritePlan
from services.memory_upserter.commit.repair import Reader

# the fields of a plan, as a small model writes them beside ``reply`` when it forgets ``plan``
PLAN_FIELDS = frozenset(f.encode_name for f in msgspec.structs.fields(MemoryWritePlan))


# what a small model calls the reply when it forgets the word "reply"
REPLY_NAMES = ("response", "message", "answer", "assistant", "text", "content", "output")


def reply_named(found: dict[str, Any], reader: Reader) -> dict[str, Any]:
    """The answer with its reply under its own name: a string written as "response" (or
    another of :data:`REPLY_NAMES`) when no ``reply`` is there, noted ``plan_repaired``."""
    if isinstance(found.get("reply"), str):
        return found
    for name in REPLY_NAMES:
        if isinstance(found.get(name), str) and found[name].strip():
            reader.note("plan_repaired", f"$.answer.{name}", "read as 'reply'")
            rest = {k: v for k, v in found.items() if k not in (name, "reply")}
            return {"reply": found[name], **rest}
    return found


def loose_plan(found: dict[str, Any], reader: Reader) -> dict[str, Any] | None:
    """An answer's plan fields written beside ``reply`` with no ``plan`` object, read as its
    plan (each noted ``plan_repaired``: only one reading); None when it has a ``plan`` or none
    of a plan's fields."""
    loose = {key: value for key, value in found.items() if key in PLAN_FIELDS}
    if "plan" in found or not loose:
        return None
    for key in loose:
        reader.note("plan_repaired", f"$.answer.{key}", "beside reply: read as the plan's")
    return loose
