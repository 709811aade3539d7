"""The playground's reply when no model is configured: what of the memory reached the envelope.

Not a chatbot: an honest readout, so a designer sees that the memory works without a model —
the facts and relations about what was mentioned, the pending commitments with their due dates,
the episodes and library passages the gate let through, in the envelope's own order and caps.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

MAX_LINES = 8
MAX_CHARS = 160


def offline_reply(envelope: dict[str, Any]) -> str:
    """A short text listing what the model would have been told (``envelope``: its JSON)."""
    graph = envelope.get("GRAPH", {})
    lines: list[str] = []
    lines += [_fact(f) for f in graph.get("relevant_facts", [])]
    lines += [edge.get("text") or _edge(edge) for edge in graph.get("edges", [])]
    lines += [_fact(f) for f in graph.get("foundation", [])]
    lines += [
        f"to do: {t['text']}{due_suffix(t.get('due_at'))}" for t in graph.get("commitments", [])
    ]
    episode = envelope.get("EPISODE", {})
    lines += [
        f"{h.get('day') or h['ts'][:10]}: {h.get('one_liner') or h['reflection']}"
        for h in episode.get("hits", [])
    ]
    lines += [
        f"from {k['doc_id']}: {k['text']}" for k in envelope.get("KNOWLEDGE", {}).get("hits", [])
    ]
    unique = list(dict.fromkeys(line for line in lines if line))
    if not unique:
        return "(offline: no model configured) Nothing in memory bears on this yet."
    shown = "\n".join(f"• {_clip(line)}" for line in unique[:MAX_LINES])
    more = f"\n… and {len(unique) - MAX_LINES} more" if len(unique) > MAX_LINES else ""
    return f"(offline: no model configured) What I remember that bears on this:\n{shown}{more}"


def due_suffix(due_at: str | None) -> str:
    """`` (due 2026-03-03 09:00)`` in the time's own offset, as the nodes answered it (a day
    said without a time of day is due at 09:00, see memory-upserter's ``extract/due.py``); the date
    alone at midnight; ``""`` without a due date."""
    if not due_at:
        return ""
    moment = datetime.fromisoformat(due_at.replace("Z", "+00:00"))
    if (moment.hour, moment.minute) == (0, 0):
        return f" (due {moment.date().isoformat()})"
    return f" (due {moment:%Y-%m-%d %H:%M})"


def _fact(fact: dict[str, Any]) -> str:
    text: str = fact.get("text", "")
    return text


def _edge(edge: dict[str, Any]) -> str:
    target = edge.get("object") or edge.get("value")
    return f"{edge.get('subject')} {edge.get('predicate', '').lower().replace('_', ' ')} {target}"


def _clip(line: str) -> str:
    line = " ".join(line.split())
    return line if len(line) <= MAX_CHARS else line[: MAX_CHARS - 1] + "…"
