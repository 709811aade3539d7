"""The answer format envelope-validator hands the LLM: :class:`LLMAnswer` as a strict schema,
without the words that tell a model nothing (pure).

:func:`strict_schema` keeps every limit strict mode cannot enforce as words in a description.
Sent on every call, some of those words cost tokens and say nothing a model acts on, so
:func:`lean` drops them: "Non-empty." (a required string is written anyway), "At most N
characters." where N is 500 or more (no fact, name or reply of a turn comes near), the
answer's own docstring, a contract's section citation ("(003 §3.2)"), and the description of
a handle list's items (the list's description and [ANSWER FORMAT] say what a handle is). Every
type, enum, required field and default hint ("Usually …") stays, so the schema admits exactly
the answers it admitted before.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from contracts.envelope_io import JsonSchemaFormat, ResponseFormat
from contracts.plan import LLMAnswer
from services.core.json_schema import strict_schema

SCHEMA_NAME = "twin_answer"
HANDLE_LISTS = ("ends", "done", "dropped")
LONG_ENOUGH = 500  # characters: a limit this high is never near a turn's fact, name or reply
_HINT = re.compile(r"\s*(?:Non-empty\.|At most (\d+) characters\.|\(\d{3} §[\d.]+\))")

__all__ = ["SCHEMA_NAME", "lean", "response_format", "strict_schema"]


@functools.cache
def response_format() -> ResponseFormat:
    return ResponseFormat(
        json_schema=JsonSchemaFormat(
            name=SCHEMA_NAME, strict=True, schema=lean(strict_schema(LLMAnswer))
        )
    )


def lean(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` without the descriptions that say nothing a model acts on (a new dict)."""
    out: dict[str, Any] = _lean(schema)
    out.pop("description", None)
    plan = out["properties"]["plan"]["properties"]
    for name in HANDLE_LISTS:
        if name in plan:
            plan[name]["items"].pop("description", None)
    return out


def _lean(node: Any) -> Any:
    if isinstance(node, list):
        return [_lean(value) for value in node]
    if not isinstance(node, dict):
        return node
    out = {key: (value if key == "enum" else _lean(value)) for key, value in node.items()}
    if isinstance(out.get("description"), str):
        words = _HINT.sub(_kept, out["description"]).strip()
        if words:
            out["description"] = words
        else:
            del out["description"]
    return out


def _kept(hint: re.Match[str]) -> str:
    """A hint of :data:`_HINT` as it stays: only a character limit under LONG_ENOUGH."""
    limit = hint[1]
    return hint[0] if limit is not None and int(limit) < LONG_ENOUGH else ""
