"""One memory item → one line of a ``<data>`` block (pure).

GRAPH lines have one shape each: a fact is ``{"id": "F3a9c1b", "fact": "…"}`` wherever it
comes from (foundation, relevant facts, entity cards, relations), a todo is
``{"id": "T07be2c", "todo": "…"}``, an entity ``{"entity": "…", "category": "…"}``. The ids are
the handles of :mod:`services.core.handles`, which the model names in its plan.

Every piece of stored text becomes one JSON value on its own line (:func:`quote`): JSON escapes
quotes and line breaks, and ``<`` is escaped as ``\\u003c``, so stored text can neither end a
block, open a section, nor fake a header — every line it produces starts with ``"`` or ``{``.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

import msgspec

from contracts.recall import EpisodeHit, KnowledgeHit, RecalledTurn
from contracts.slots import (
    Disambiguation,
    EntityCard,
    FactLine,
    GraphEdge,
    GraphEntity,
    TodoLine,
    Turn,
)
from services.core.handles import handle_of

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


def fact(
    row_id: str | None,
    text: str,
    *,
    since: datetime | None = None,
    until: datetime | None = None,
    now: datetime | None = None,
    critical: bool = False,
    agent_scope: bool = False,
) -> dict[str, Any]:
    """The one shape of every GRAPH fact line — foundation, relevant fact, card fact, relation:
    ``{"id": "F3a9c1b", "fact": "…"}`` plus ``since`` (or ``from``, for a start after ``now``:
    a change the person scheduled), ``until`` (the last day it holds), ``critical`` and
    ``scope`` when they say something. ``id`` is the handle the model names in ``replaces``
    and ``ends`` (:func:`services.core.handles.handle_of`); a card fact whose producer sent no
    ids has none."""
    line: dict[str, Any] = {"id": handle_of("fact", row_id)} if row_id else {}
    line["fact"] = text
    if since is not None:
        line["from" if now is not None and since > now else "since"] = since.date().isoformat()
    if until is not None:
        line["until"] = last_day(until)
    if critical:
        line["critical"] = True
    if agent_scope:
        line["scope"] = "this agent"
    return line


def last_day(end: datetime) -> str:
    """The last day a fact holds: its end is exclusive, so an end at midnight ("until friday",
    stored as Saturday 00:00) is the day before."""
    return (end - timedelta(microseconds=1)).date().isoformat()


def fact_line(fact_line: FactLine) -> dict[str, Any]:
    return fact(fact_line.fact_id, fact_line.text, until=fact_line.valid_to)


def card_facts(card: EntityCard) -> list[tuple[str | None, str]]:
    """A card's facts as ``(fact id or None, text)``: they render as fact lines, one each."""
    ids: list[str | None] = list(card.fact_ids) if len(card.fact_ids) == len(card.facts) else []
    return list(zip(ids or [None] * len(card.facts), card.facts, strict=True))


def entity(entity: GraphEntity) -> dict[str, Any]:
    line: dict[str, Any] = {"entity": entity.name, "category": entity.category}
    if entity.entity_ref:
        line["ref"] = entity.entity_ref
    if entity.aliases:
        line["aliases"] = entity.aliases
    if entity.hint:
        line["hint"] = entity.hint
    if entity.seed == "mention":
        line["mentioned_now"] = True
    return line


def edge_text(edge: GraphEdge) -> str:
    if edge.text:
        return edge.text
    target = edge.object if edge.object is not None else edge.value
    target = target if isinstance(target, str) else _ENCODE(target).decode()
    return f"{edge.subject} {edge.predicate} {target}"


def edge(edge: GraphEdge, now: datetime | None = None) -> dict[str, Any]:
    return fact(
        edge.rel_id,
        edge_text(edge),
        since=edge.valid_from,
        until=edge.valid_to,
        now=now,
        critical=edge.critical,
        agent_scope=edge.scope == "agent",
    )


def todo(todo: TodoLine, now: datetime | None = None) -> dict[str, Any]:
    """``{"id": "T07be2c", "todo": "…", "due": "2026-01-05"}``: the handle the model names in
    ``done`` and ``dropped``; a pending one whose due has passed (at ``now``) says
    ``"overdue": true`` — it stays listed until it is done or dropped."""
    line: dict[str, Any] = {"id": handle_of("todo", todo.todo_id), "todo": todo.text}
    if todo.due_at is not None:
        line["due"] = todo.due_at.date().isoformat()
        if now is not None and todo.status == "PENDING" and todo.due_at < now:
            line["overdue"] = True
    return line


def todos(todos: Iterable[TodoLine], now: datetime | None = None) -> list[str]:
    return [quote(todo(t, now)) for t in todos]


def episode(hit: EpisodeHit) -> dict[str, Any]:
    line: dict[str, Any] = {"when": (hit.day or hit.ts.date()).isoformat()}
    if hit.one_liner:
        line["summary"] = hit.one_liner
    line["reflection"] = hit.reflection
    return line


SUPERSEDED = "newer_on_topic"  # rag-gate's score detail: a later turn on its topic ranks above
HISTORY = "superseded: a later message on this topic is listed before this one"


def recalled(turn: RecalledTurn) -> dict[str, Any]:
    """A recalled turn with its date and time beside it: "yesterday" in it means the day
    before ``when``; one that a later turn on its topic supersedes (rag-gate's
    ``newer_on_topic``) says so, so the older value reads as history, not as current."""
    line: dict[str, Any] = {"when": f"{turn.ts:%Y-%m-%d %H:%M}"}
    if turn.context is not None:
        line["after"] = {
            "said_by": turn.context.speaker or turn.context.role,
            "text": turn.context.text,
        }
    line["said_by"] = turn.speaker or turn.role
    line["text"] = turn.text
    if turn.score_details.get(SUPERSEDED):
        line["history"] = HISTORY
    return line


def said(turn: Turn) -> dict[str, Any]:
    """A turn of the previous session's tail, in a recalled turn's shape."""
    line: dict[str, Any] = {"when": f"{turn.ts:%Y-%m-%d %H:%M}"} if turn.ts else {}
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
