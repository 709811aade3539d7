"""One memory item → one line of a ``<data>`` block (pure).

Every piece of stored text becomes one JSON value on its own line (:func:`quote`): JSON escapes
quotes and line breaks, and ``<`` is escaped as ``\\u003c``, so stored text can neither end a
block, open a section, nor fake a header — every line it produces starts with ``"`` or ``{``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from contracts.recall import EpisodeHit, KnowledgeHit, RecalledTurn
from contracts.slots import Disambiguation, EntityCard, GraphEdge, GraphEntity, TodoLine

_ENCODE = msgspec.json.Encoder().encode
# JSON already escapes quotes, backslashes and control characters; these are the rest that
# could end a line or open a tag.
_ESCAPES = (("<", "\\u003c"), ("\u2028", "\\u2028"), ("\u2029", "\\u2029"), ("\x85", "\\u0085"))


def quote(value: Any) -> str:
    """One JSON value on one line that cannot open, close or fake a block."""
    text = _ENCODE(value).decode()
    for raw, escaped in _ESCAPES:
        if raw in text:
            text = text.replace(raw, escaped)
    return text


def card(card: EntityCard) -> str:
    """``[person:john]: fact1; fact2; fact3`` (000)."""
    return f"[{card.entity_ref}]: " + "; ".join(card.facts)


def entity(entity: GraphEntity) -> dict[str, Any]:
    line: dict[str, Any] = {"entity": entity.name, "category": entity.category}
    if entity.entity_ref:
        line["ref"] = entity.entity_ref
    if entity.aliases:
        line["aliases"] = entity.aliases
    if entity.seed == "mention":
        line["mentioned_now"] = True
    return line


def edge(edge: GraphEdge) -> dict[str, Any]:
    if edge.text:
        fact = edge.text
    else:
        target = edge.object if edge.object is not None else edge.value
        target = target if isinstance(target, str) else _ENCODE(target).decode()
        fact = f"{edge.subject} {edge.predicate} {target}"
    line: dict[str, Any] = {"fact": fact}
    if edge.critical:
        line["critical"] = True
    if edge.confidence < 1.0:
        line["confidence"] = round(edge.confidence, 2)
    if edge.scope == "agent":
        line["scope"] = "this agent"
    if edge.valid_from is not None:
        line["since"] = edge.valid_from.date().isoformat()
    return line


def todos(todos: Iterable[TodoLine]) -> list[str]:
    lines = []
    for todo in todos:
        if todo.due_at is not None:
            lines.append(quote({"todo": todo.text, "due": todo.due_at.date().isoformat()}))
        else:
            lines.append(quote(todo.text))
    return lines


def episode(hit: EpisodeHit) -> dict[str, Any]:
    line: dict[str, Any] = {"when": (hit.day or hit.ts.date()).isoformat()}
    if hit.one_liner:
        line["summary"] = hit.one_liner
    line["reflection"] = hit.reflection
    return line


def recalled(turn: RecalledTurn) -> dict[str, Any]:
    """A recalled turn with its date and time beside it: "yesterday" in it means the day
    before ``when``."""
    line: dict[str, Any] = {"when": f"{turn.ts:%Y-%m-%d %H:%M}"}
    if turn.context is not None:
        line["after"] = {
            "said_by": turn.context.speaker or turn.context.role,
            "text": turn.context.text,
        }
    line["said_by"] = turn.speaker or turn.role
    line["text"] = turn.text
    return line


def chunk(hit: KnowledgeHit) -> dict[str, Any]:
    source = f"{hit.doc_id} § {hit.section}" if hit.section else hit.doc_id
    return {"source": source, "text": hit.text}


def question(question: Disambiguation) -> dict[str, Any]:
    return {
        "mention": question.mention,
        "ask": question.question,
        "candidates": [{"name": c.name, "hint": c.hint} for c in question.candidates],
    }
