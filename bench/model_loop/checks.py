"""What must be in memory after a replayed conversation, read from ``GET /v1/export``.

A check is a small JSON object in the conversation's fixture (``checks``):

- ``{"kind": "current", "text": REGEX, "at": ISO?, "agent": ID?}``: a fact whose text matches
  holds at ``at`` (default: the last turn's time): status ACTIVE, begun, not ended. With
  ``agent``: it is that persona's own (scope ``agent``).
- ``{"kind": "not_current", "text": REGEX, "at": ISO?}``: no fact whose text matches holds.
- ``{"kind": "people", "name": WORD, "count": N, "max": M}``: at least N (at most M) live
  Person entities answer to the word (by name or alias): two same-name people kept apart, or
  a dog never minted a Person.
- ``{"kind": "todo", "text": REGEX, "status": [PENDING|DONE|DROPPED, …]}``: a todo whose text
  matches is in one of those states, and none matching is in another.
- ``{"kind": "turn_next", "turn": I, "next": "model"|"question"}``: what ``/v1/turn`` said
  at turn I (a which-Marta question asked, or not asked again once answered).

``needs`` (optional; a string, or one per style) names the missing behaviour when the check
fails on today's code: the replay test marks it xfail with that reason.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import httpx


async def export(memory: httpx.AsyncClient, user_id: str) -> dict[str, list[dict[str, Any]]]:
    answer = await memory.get("/v1/export", params={"user_id": user_id})
    answer.raise_for_status()
    tables: dict[str, list[dict[str, Any]]] = answer.json()["tables"]
    return tables


def _when(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def holds(row: dict[str, Any], at: datetime) -> bool:
    """A fact row that holds at ``at``."""
    begun = (_when(row.get("valid_from")) or at) <= at
    ended = (end := _when(row.get("valid_to"))) is not None and end <= at
    return row["status"] == "ACTIVE" and begun and not ended


def _matching(rows: list[dict[str, Any]], pattern: str) -> list[dict[str, Any]]:
    return [r for r in rows if re.search(pattern, r["text"], re.IGNORECASE)]


def evaluate(
    check: dict[str, Any], tables: dict[str, list], end: datetime, nexts: dict[int, str]
) -> tuple[bool, str]:
    """Whether the check holds, and what memory held instead (for the failure message)."""
    kind = check["kind"]
    at = _when(check.get("at")) or end
    if kind in ("current", "not_current"):
        found = [r for r in _matching(tables["relations"], check["text"]) if holds(r, at)]
        if agent := check.get("agent"):
            found = [r for r in found if r["scope"] == "agent" and r["agent_id"] == agent]
        seen = [
            (r["text"], r["status"], r["scope"], r["valid_to"])
            for r in _matching(tables["relations"], check["text"])
        ]
        ok = bool(found) if kind == "current" else not found
        return ok, f"facts matching: {seen}"
    if kind == "people":
        names = {a["entity_id"]: [a["alias"]] for a in tables["entity_aliases"]}
        word = re.compile(rf"\b{re.escape(check['name'])}\b", re.IGNORECASE)
        people = [
            e
            for e in tables["entities"]
            if e["category"] == "Person"
            and e["active"]
            and any(word.search(n) for n in [e["name"], *names.get(e["entity_id"], [])])
        ]
        ok = check.get("count", 0) <= len(people) <= check.get("max", len(people))
        return ok, f"people: {[e['name'] for e in people]}"
    if kind == "todo":
        found = _matching([t for t in tables["todos"] if t["active"]], check["text"])
        wanted = set(check["status"])
        ok = bool(found) and all(t["status"] in wanted for t in found)
        return ok, f"todos: {[(t['text'], t['status']) for t in found]}"
    if kind == "turn_next":
        said = nexts.get(check["turn"])
        return said == check["next"], f"turn {check['turn']}: next was {said!r}"
    raise ValueError(f"unknown check kind {kind!r}")


def needs(check: dict[str, Any], style: str) -> str | None:
    """The missing behaviour this check waits for in this style, if any."""
    wanted = check.get("needs")
    if isinstance(wanted, dict):
        found = wanted.get(style)
        return str(found) if found else None
    return str(wanted) if wanted else None
