"""What an episode is made of (pure): id, importance, tags, day, text (its row and its vector:
:mod:`services.core.memory_store.episode_index`).

**Episode importance** (0–1, two decimals), from what the session held:

    0.20 base
  + 0.15 per commitment          (at most 0.30)
  + 0.10 per person mentioned    (at most 0.20)
  + 0.05 per emotional word      (at most 0.20, the tone lexicon over user messages)
  + 0.10 × min(1, messages / 20) (length)

so a short small-talk session scores ~0.2 and a long session with promises, people and
feelings reaches 1.0.

**Episode id** = uuid5 of (user id, first message seq): the same range always gets the same
id, so a retried consolidation upserts the same vector point and finds the same row.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from contracts.reflection_draft import Reflection, SessionSummary
from services.reflection_writer.model import Message
from services.reflection_writer.text import clip, fold, unique
from services.reflection_writer.tone import emotional_hits, keywords

EPISODE_NAMESPACE = uuid.UUID("8d0f3c52-6a57-4d0c-9a53-2d7e51e0b7a1")
REFLECTION_CHARS = 8000


def episode_id(user_id: str, first_message_seq: int) -> str:
    return str(uuid.uuid5(EPISODE_NAMESPACE, f"{user_id}\x00{first_message_seq}"))


def importance(summary: SessionSummary, messages: Sequence[Message]) -> float:
    emotional = sum(emotional_hits(m.text) for m in messages if m.role == "user")
    score = (
        0.20
        + min(0.30, 0.15 * len(summary.commitments))
        + min(0.20, 0.10 * len(summary.people))
        + min(0.20, 0.05 * emotional)
        + 0.10 * min(1.0, len(messages) / 20)
    )
    return round(min(1.0, score), 2)


def tags(summary: SessionSummary, messages: Sequence[Message]) -> list[str]:
    """Topic keywords, the tone labels, and markers for commitments and open loops."""
    found = keywords(messages, 3, exclude=summary.people)
    found += [t.strip() for t in summary.tone.split(",") if t.strip() and t.strip() != "neutral"]
    if summary.commitments:
        found.append("commitment")
    if summary.open_loops:
        found.append("open_loop")
    return unique((clip(fold(t), 40) for t in found), 8)


def local_day(ts: datetime, tz_name: str | None) -> date:
    """The date of ``ts`` in the user's IANA time zone (UTC when unknown)."""
    try:
        zone = ZoneInfo(tz_name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    return ts.astimezone(zone).date()


def render(reflection: Reflection) -> str:
    """The reflection as the journal text episodes store and rag-gate shows."""
    parts: list[str] = []
    if reflection.observation:
        parts.append("Observation: " + " ".join(_sentence(x) for x in reflection.observation))
    if reflection.action:
        parts.append("Action: " + " ".join(_sentence(x) for x in reflection.action))
    if reflection.evidence:
        parts.append("Evidence: " + " ".join(f'"{e.text}"' for e in reflection.evidence))
    if reflection.unresolved:
        parts.append("Unresolved: " + " ".join(_sentence(x) for x in reflection.unresolved))
    if reflection.hypothesis is not None:
        h = reflection.hypothesis
        parts.append(f"Hypothesis (unverified, confidence {h.confidence:.2f}): {h.text}")
    text = "\n".join(parts)
    if len(text) > REFLECTION_CHARS:
        text = text[: REFLECTION_CHARS - 1].rstrip() + "…"
    return text or "Observation: nothing was said."


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text[-1:] in ".!?…" else text + "."
