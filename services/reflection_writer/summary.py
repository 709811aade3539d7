"""Normalizing the model's draft (pure): short trimmed strings, capped lists, never a crash.

001's session summarizer "normalizes JSON output; falls back to a safe JSON payload on parse
errors". Here the safe payload is the offline engine's draft of the same range, field by field:

- an answer that is not an object, or has no ``reflection`` object, is :class:`MalformedDraft`
  (the caller then uses the offline draft whole: engine ``offline_fallback``);
- otherwise every field is coerced on its own: a list of strings is trimmed, whitespace
  collapsed, cut (Observation/Action/Unresolved/Hypothesis 300 chars, summary items 160,
  people 80, ``one_liner`` 200, ``tone`` 40), de-duplicated and capped; a single string
  becomes a one-item list; a field of the wrong type takes the offline draft's value;
- Evidence entries without a string ``text`` and ``message_id`` are dropped and counted;
- psyche items need a known kind and at least one cited id of a user message of the range
  (their provenance); confidence is clamped to ≤ 0.5.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from contracts.reflection_draft import (
    LIST_CAP,
    EvidenceLine,
    Hypothesis,
    PsycheItem,
    Reflection,
    ReflectionDraft,
    SessionSummary,
)
from services.reflection_writer.text import clip, unique

MAX_CONFIDENCE = 0.5
KINDS = frozenset({"trait", "value", "belief"})


class MalformedDraft(ValueError):
    """The model's answer has no usable shape; use the offline draft instead."""


@dataclass(frozen=True)
class Normalized:
    draft: ReflectionDraft
    fell_back: tuple[str, ...]  # fields that took the offline value
    malformed_evidence: int  # evidence entries that were not {text, message_id}


def lines(value: Any, limit: int, cap: int) -> list[str] | None:
    """A clean list of short strings, or None when ``value`` is not a string or list."""
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        return None
    cleaned = (clip(item, limit) for item in value if isinstance(item, str))
    return unique((item for item in cleaned if item), cap)


def normalize_summary(raw: Any, fallback: SessionSummary) -> tuple[SessionSummary, list[str]]:
    """Each field of ``raw`` coerced, or the fallback's when it cannot be."""
    if not isinstance(raw, dict):
        return fallback, ["summary"]
    fell: list[str] = []

    def pick(name: str, limit: int, cap: int) -> list[str]:
        got = lines(raw.get(name), limit, cap)
        if got is None:
            fell.append(f"summary.{name}")
            return list(getattr(fallback, name))
        return got

    one = raw.get("one_liner")
    one_liner = clip(one, 200) if isinstance(one, str) and one.strip() else None
    if one_liner is None:
        fell.append("summary.one_liner")
    tone = raw.get("tone")
    tone_text = clip(tone, 40) if isinstance(tone, str) and tone.strip() else None
    if tone_text is None:
        fell.append("summary.tone")
    summary = SessionSummary(
        one_liner=one_liner or fallback.one_liner,
        what_mattered=pick("what_mattered", 160, 6),
        open_loops=pick("open_loops", 160, 6),
        commitments=pick("commitments", 160, 6),
        people=pick("people", 80, 10),
        tone=tone_text or fallback.tone,
    )
    return summary, fell


def normalize_draft(
    raw: Any, fallback: ReflectionDraft, user_message_ids: Collection[str]
) -> Normalized:
    """The model's answer as a :class:`ReflectionDraft`; raises :class:`MalformedDraft`."""
    if not isinstance(raw, dict) or not isinstance(raw.get("reflection"), dict):
        raise MalformedDraft("the answer has no reflection object")
    body = raw["reflection"]
    fell: list[str] = []

    def pick(name: str) -> list[str]:
        got = lines(body.get(name), 300, LIST_CAP)
        if got is None:
            fell.append(f"reflection.{name}")
            return list(getattr(fallback.reflection, name))
        return got

    evidence, malformed = _evidence(body.get("evidence"))
    reflection = Reflection(
        observation=pick("observation"),
        action=pick("action"),
        evidence=evidence,
        unresolved=pick("unresolved"),
        hypothesis=_hypothesis(body.get("hypothesis")),
    )
    summary, fell_summary = normalize_summary(raw.get("summary"), fallback.summary)
    psyche = _psyche(raw.get("psyche"), user_message_ids)
    return Normalized(
        ReflectionDraft(reflection=reflection, summary=summary, psyche=psyche),
        tuple(fell + fell_summary),
        malformed,
    )


def _evidence(value: Any) -> tuple[list[EvidenceLine], int]:
    if not isinstance(value, list):
        return [], 0 if value is None else 1
    kept: list[EvidenceLine] = []
    malformed = 0
    for item in value:
        text = item.get("text") if isinstance(item, dict) else None
        message_id = item.get("message_id") if isinstance(item, dict) else None
        if not (
            isinstance(text, str)
            and text.strip()
            and isinstance(message_id, str)
            and message_id.strip()
        ):
            malformed += 1
            continue
        kept.append(EvidenceLine(text=clip(text, 300), message_id=message_id.strip()[:64]))
    return kept[:LIST_CAP], malformed + max(0, len(kept) - LIST_CAP)


def _confidence(value: Any, default: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        return default
    return round(min(MAX_CONFIDENCE, max(0.0, float(value))), 2)


def _hypothesis(value: Any) -> Hypothesis | None:
    if not isinstance(value, dict):
        return None
    text = value.get("text")
    if not isinstance(text, str) or not text.strip():
        return None
    return Hypothesis(text=clip(text, 300), confidence=_confidence(value.get("confidence"), 0.3))


def _psyche(value: Any, user_message_ids: Collection[str]) -> list[PsycheItem]:
    if not isinstance(value, list):
        return []
    items: list[PsycheItem] = []
    for item in value:
        if not isinstance(item, dict) or item.get("kind") not in KINDS:
            continue
        text = item.get("text")
        ids = item.get("message_ids")
        cited = unique(
            i
            for i in (ids if isinstance(ids, list) else [])
            if isinstance(i, str) and i in user_message_ids
        )
        if not isinstance(text, str) or not text.strip() or not cited:
            continue
        items.append(
            PsycheItem(
                kind=item["kind"],
                text=clip(text, 300),
                message_ids=cited[:LIST_CAP],
                confidence=_confidence(item.get("confidence"), 0.4),
            )
        )
    return items[:LIST_CAP]
