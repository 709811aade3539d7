"""The one structured-output call of a consolidation (pure): prompt, transcript, JSON schema.

The schema is :class:`ReflectionDraft` as a strict schema (``services.core.json_schema``); the
answer is normalized and grounded afterwards anyway (``summary``, ``grounding``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from contracts.reflection_draft import ReflectionDraft
from services.core.json_schema import strict_schema
from services.reflection_writer.model import KnownEntity, Message
from services.reflection_writer.text import clip

SCHEMA_NAME = "session_reflection"
MESSAGE_CHARS = 800  # 001: each message capped to 800 characters for the summarizer

SYSTEM = """You consolidate one conversation session between a user and an AI persona into a \
grounded journal reflection, a session summary and psyche notes. Answer in the JSON schema.

Reflection (no invented causality):
- observation: what the user explicitly said, close to their words.
- action: what the assistant did (answered, suggested, asked, reminded...).
- evidence: ONLY links the user stated themselves ("because", "so", "that's why", "after"...). \
Each line quotes or nearly quotes the user's sentence and cites the [id] of that user message. \
If the user made no explicit link, evidence is an empty list. Never infer a cause.
- unresolved: questions, needs and decisions still open at the end.
- hypothesis: null, or one guess that goes beyond what was said, with confidence at most 0.5.

Summary: one_liner (one sentence of at most 200 characters saying what the session was about, \
never a list of words), what_mattered, open_loops, commitments (what the user promised or asked \
to be reminded of), people (the people of the user's life the user named: not places, titles, \
the user or the persona), tone (one or two words). Short strings only.

Psyche: traits, values and beliefs the user revealed about themselves across the whole session \
(not passing moods, never words said to the persona such as "I believe in you"), each citing \
the [id]s of the user messages it rests on, confidence at most 0.5. Empty when nothing was \
revealed."""


@functools.cache
def draft_schema() -> dict[str, Any]:
    return strict_schema(ReflectionDraft)


def transcript(messages: Sequence[Message], known: Sequence[KnownEntity] = ()) -> str:
    """The user prompt: known names, then one ``[id] role: text`` line per message."""
    lines = []
    if known:
        lines.append(
            "Known people and things: " + ", ".join(f"{e.name} ({e.category})" for e in known[:30])
        )
        lines.append("")
    lines.append("Transcript:")
    for m in messages:
        who = m.role if not m.speaker else f"{m.role} ({clip(m.speaker, 40)})"
        lines.append(f"[{m.message_id}] {who}: {clip(m.text, MESSAGE_CHARS)}")
    return "\n".join(lines)
