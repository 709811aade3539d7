"""The playground's reply when no model is configured: a readout of memory that answers the
message, marked as a readout (:mod:`services.core.readout`) so no node takes it for memory.

Not a chatbot: an honest readout, so a designer sees that the memory works without a model.
What the message is about comes first (:mod:`.focus`):

1. a todo ask ("what do I still have to do?"): the pending todos, with their due dates; an
   ask about the person ("what do you know about me?"): their foundation;
2. the people it names ("who is Marta?"): the facts, relations and card that name them;
3. the other facts and relations the gate found, the episodes, the person's past statements
   (not their questions) and library passages it let through, that share a word with it;
4. todos that share a word with the message;
5. the person's foundation only where it shares a word with the message or names its people
   (it is in every envelope, so listing it whole would answer every question the same);
6. the rest of what the gate let through (3.) — never after a todo ask or an ask about a
   person, where a line that does not touch it is no answer.

At most :data:`MAX_LINES` lines of :data:`MAX_CHARS` characters; the product's own questions
("which Marta?", "which one is done?") are the commit's and are shown under the reply
(:func:`services.playground.turn.confirmations`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from services.core.readout import readout
from services.playground.focus import Focus, focus_of, ordered

MAX_LINES = 8
MAX_CHARS = 160
TODO_LISTS = ("commitments", "threads")


def offline_reply(envelope: Mapping[str, Any], message: str = "") -> str:
    """A short readout of what in ``envelope`` (its JSON) bears on ``message``."""
    graph = envelope.get("GRAPH", {})
    focus = focus_of(message, graph)
    todos = [f"to do: {t['text']}{due_suffix(t.get('due_at'))}" for t in _todos(graph)]
    found, foundation = _found(graph), graph_foundation(graph)
    rest = [*found, *_recalled(envelope)]
    shown = ordered(
        [
            *(todos if focus.asks_todos else []),
            *(foundation if focus.asks_about_me else []),
            *(line for line in [*found, *foundation] if focus.names_someone(line)),
            *(line for line in rest if focus.touches(line)),
            *(line for line in todos if focus.touches(line)),
            *(line for line in foundation if focus.touches(line)),
            *(rest if not (focus.asks_todos or focus.names) else []),
        ]
    )
    if not shown:
        nothing = "Nothing is pending to do." if focus.asks_todos else "Nothing in memory bears"
        return readout(nothing if focus.asks_todos else f"{nothing} on this yet.")
    lines = "\n".join(f"• {_clip(line)}" for line in shown[:MAX_LINES])
    more = f"\n… and {len(shown) - MAX_LINES} more" if len(shown) > MAX_LINES else ""
    return readout(f"{_heading(focus, bool(todos))}\n{lines}{more}")


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


def graph_foundation(graph: Mapping[str, Any]) -> list[str]:
    return [f.get("text", "") for f in graph.get("foundation", [])]


def _heading(focus: Focus, has_todos: bool) -> str:
    if focus.asks_todos and has_todos:
        return "What you still have to do:"
    if focus.asks_about_me:
        return "What I know about you:"
    said = focus.people or focus.names  # a person once, by their name, not also an alias
    names = [n for n in said if n and not any(n != m and n in m for m in said)]
    if names:
        return f"What I know about {' and '.join(n.title() for n in names[:2])}:"
    return "What I remember that bears on this:"


def _todos(graph: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [t for name in TODO_LISTS for t in graph.get(name, [])]


def _found(graph: Mapping[str, Any]) -> list[str]:
    """The facts the gate found for the message: relevant facts, relations, entity cards."""
    cards = [
        fact if fact.startswith(card.get("label", "")) else f"{card.get('label', '')}: {fact}"
        for card in graph.get("entity_cards", [])
        for fact in card.get("facts", [])
    ]  # "Marta lives in Madrid" names Marta already: said once, not "Marta: Marta lives …"
    return ordered(
        [
            *(f.get("text", "") for f in graph.get("relevant_facts", [])),
            *(edge.get("text") or _edge(edge) for edge in graph.get("edges", [])),
            *cards,
        ]
    )


def _recalled(envelope: Mapping[str, Any]) -> list[str]:
    episode = envelope.get("EPISODE", {})
    library = envelope.get("KNOWLEDGE", {}).get("hits", [])
    return [
        *(
            f"{h.get('day') or h['ts'][:10]}: {h.get('one_liner') or h['reflection']}"
            for h in episode.get("hits", [])
        ),
        *(
            f"{t['ts'][:10]} you said: {t['text']}"
            for t in episode.get("turns", [])
            if t.get("role") == "user" and t.get("ts") and _statement(t.get("text") or "")
        ),
        *(f"from {k['doc_id']}: {k['text']}" for k in library),
    ]


def _statement(text: str) -> bool:
    """A past turn worth reading back: something the person said, not a question they asked."""
    return bool(text.strip()) and not text.rstrip().endswith("?")


def _edge(edge: Mapping[str, Any]) -> str:
    target = edge.get("object") or edge.get("value")
    return f"{edge.get('subject')} {edge.get('predicate', '').lower().replace('_', ' ')} {target}"


def _clip(line: str) -> str:
    line = " ".join(line.split())
    return line if len(line) <= MAX_CHARS else line[: MAX_CHARS - 1] + "…"
