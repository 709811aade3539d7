"""Assemble the envelope the prompt is rendered from, and the node's whole answer.

Pure: no I/O, ``now`` is passed in. Guarantees:

- a request with any problem of :mod:`.checks` is refused (``InvalidInput``) with every
  problem listed;
- over-long texts and over-full lists are cut, never refused, and every cut is named in a
  warning: lists keep their first N (the producer's ranking), texts keep their head;
- repeated items (same id and same content, or the same normalized text) are dropped with a
  warning; relevant memories are deduplicated against the foundation (001).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TypeVar

import msgspec

from contracts.envelope import InferenceEnvelope
from contracts.envelope_io import (
    EnvelopeRequest,
    EnvelopeResponse,
    EnvelopeStats,
    EnvelopeWarning,
    WarningCode,
)
from contracts.slots import EntityCard, FactLine, Turn
from services.core.validation import InvalidInput
from services.envelope_validator.answer_format import response_format
from services.envelope_validator.checks import TODO_LISTS, check
from services.envelope_validator.render import render

T = TypeVar("T")
_WORDS = re.compile(r"\w+")

# List caps (001/004, 003 §6.3-6.4). Over a cap: the first N are kept, with a warning.
CAPS = {
    "foundation": 12, "relevant_facts": 8, "card_facts": 3, "commitments": 5, "threads": 3,
    "frictions": 3, "wins": 3, "edges": 60, "episodes": 8, "knowledge": 8, "recent_turns": 10,
    "recalled_turns": 20,
}
# Text caps in characters (001/004). Over a cap: the head is kept and ends with "…".
TEXT_CAPS = {"user_context": 800, "conversation_summary": 1200, "latest_session_summary": 600,
             "turn": 800}
PROMPT_WARN_CHARS = 20_000  # 004: warn past this, never cut
MEMORY_TYPES = frozenset({"PROFILE", "PEOPLE", "PROJECT"})  # 001 invariant


@dataclass(frozen=True)
class Assembled:
    """The envelope after merges and caps, plus the prompt context texts after their caps."""

    envelope: InferenceEnvelope
    now: datetime
    affect_expired: bool
    realtime_context: str
    persona_prompt: str
    user_context: str
    conversation_summary: str
    latest_session_summary: str
    history: list[Turn]
    user_message: str
    warnings: list[EnvelopeWarning] = field(default_factory=list)
    answer_format: str = "twin_answer"


def build(request: EnvelopeRequest, now: datetime) -> EnvelopeResponse:
    """Check, assemble, render. Raises ``InvalidInput`` listing every problem."""
    errors = check(request)
    if errors:
        raise InvalidInput(errors, "Invalid envelope")
    assembled = assemble(request, now)
    messages, chars = render(assembled)
    total = sum(len(message.content) for message in messages)
    warnings = list(assembled.warnings)
    if total > PROMPT_WARN_CHARS:
        warnings.append(EnvelopeWarning(
            code="prompt_large", section="total",
            detail=f"the prompt is {total} characters, over {PROMPT_WARN_CHARS}; nothing was cut"))
    return EnvelopeResponse(
        envelope=assembled.envelope, messages=messages, response_format=response_format(),
        warnings=warnings,
        stats=EnvelopeStats(chars=chars, counts=counts(assembled), total_chars=total,
                            messages=len(messages)),
    )


class _Warnings(list[EnvelopeWarning]):
    def add(self, code: WarningCode, section: str, detail: str) -> None:
        self.append(EnvelopeWarning(code=code, section=section, detail=detail))


def assemble(request: EnvelopeRequest, now: datetime) -> Assembled:
    """Merge FACTS into GRAPH, drop repeats, apply every cap; each change gets a warning."""
    now = _utc(now)
    w = _Warnings()
    graph, facts = request.GRAPH, request.FACTS
    for name, slot in (("FACTS", facts), ("EPISODE", request.EPISODE),
                       ("KNOWLEDGE", request.KNOWLEDGE)):
        if slot is not None and slot.degraded:
            w.add("degraded", name, slot.degraded)

    foundation = _cap(_memory_types(_repeats(graph.foundation, _fact_id, "GRAPH.foundation", w),
                                    "GRAPH.foundation", w), "foundation", "GRAPH.foundation", w)
    relevant = graph.relevant_facts + (facts.relevant_facts if facts else [])
    relevant = _repeats(relevant, _fact_id, "GRAPH.relevant_facts", w)
    relevant = _memory_types(relevant, "GRAPH.relevant_facts", w)
    relevant = _same_text(relevant, "GRAPH.relevant_facts", w, _fact_text,
                          seen={normalize(f.text) for f in foundation}, against="foundation")
    relevant = _cap(relevant, "relevant_facts", "GRAPH.relevant_facts", w)
    cards = graph.entity_cards + (facts.entity_cards if facts else [])
    cards = [_card(c, w) for c in _repeats(cards, lambda c: c.entity_ref,
                                           "GRAPH.entity_cards", w)]
    seen_todos: set[Hashable] = set()
    todos = {}
    for name in TODO_LISTS:
        items = _repeats(getattr(graph, name), lambda t: t.todo_id, f"GRAPH.{name}", w,
                         seen=seen_todos)
        items = _same_text(items, f"GRAPH.{name}", w, lambda t: t.text)
        todos[name] = _cap(items, name, f"GRAPH.{name}", w)
    graph = msgspec.structs.replace(
        graph, foundation=foundation, relevant_facts=relevant, entity_cards=cards,
        entities=_repeats(graph.entities, lambda e: e.entity_id, "GRAPH.entities", w),
        edges=_cap(_repeats(graph.edges, lambda e: e.rel_id, "GRAPH.edges", w),
                   "edges", "GRAPH.edges", w),
        **todos,
    )

    latest = request.latest_session_summary or request.EPISODE.latest_session_summary or ""
    latest = _clip(latest, "latest_session_summary", w)
    episode = msgspec.structs.replace(
        request.EPISODE, latest_session_summary=latest or None,
        hits=_cap(_repeats(request.EPISODE.hits, lambda h: h.episode_id, "EPISODE.hits", w),
                  "episodes", "EPISODE.hits", w),
        turns=_cap(_repeats(request.EPISODE.turns, lambda t: t.message_id, "EPISODE.turns", w),
                   "recalled_turns", "EPISODE.turns", w),
        previous_session_tail=_turns(request.EPISODE.previous_session_tail,
                                     "EPISODE.previous_session_tail", w),
    )
    knowledge = msgspec.structs.replace(
        request.KNOWLEDGE,
        hits=_cap(_repeats(request.KNOWLEDGE.hits, lambda h: h.chunk_id, "KNOWLEDGE.hits", w),
                  "knowledge", "KNOWLEDGE.hits", w),
    )

    affect_expired = _utc(request.AFFECT.affect.decay_at) <= now
    if affect_expired and request.AFFECT.affect.label != "neutral":
        w.add("affect_expired", "AFFECT", f"{request.AFFECT.affect.label!r} decayed at "
              f"{request.AFFECT.affect.decay_at.isoformat()}; rendered as neutral")
    if not request.user_message.strip():
        w.add("empty_user_message", "user_message", "the current user message is empty")

    envelope = InferenceEnvelope(
        user_id=request.user_id, agent_id=request.agent_id, chat_id=request.chat_id,
        AFFECT=request.AFFECT, GRAPH=graph, EPISODE=episode, KNOWLEDGE=knowledge,
    )
    return Assembled(
        envelope=envelope, now=now, affect_expired=affect_expired,
        realtime_context=request.realtime_context, persona_prompt=request.persona_prompt,
        user_context=_clip(request.user_context, "user_context", w),
        conversation_summary=_clip(request.conversation_summary or graph.summary_spine,
                                   "conversation_summary", w),
        latest_session_summary=latest,
        history=_turns(request.recent_turns, "recent_turns", w),
        user_message=request.user_message, warnings=list(w),
        answer_format=request.answer_format,
    )


def counts(assembled: Assembled) -> dict[str, int]:
    env = assembled.envelope
    graph = env.GRAPH
    return {
        "foundation": len(graph.foundation), "relevant_facts": len(graph.relevant_facts),
        "entity_cards": len(graph.entity_cards), "entities": len(graph.entities),
        "edges": len(graph.edges), "commitments": len(graph.commitments),
        "threads": len(graph.threads), "frictions": len(graph.frictions),
        "wins": len(graph.wins), "episodes": len(env.EPISODE.hits),
        "recalled_turns": len(env.EPISODE.turns),
        "knowledge": len(env.KNOWLEDGE.hits), "recent_turns": len(assembled.history),
    }


def normalize(text: str) -> str:
    """Case, accents, punctuation and spacing folded: 'Loves  Café!' == 'loves cafe'."""
    folded = text.casefold()
    if not folded.isascii():
        folded = unicodedata.normalize("NFKD", folded)
        folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return " ".join(_WORDS.findall(folded))


def _repeats(items: Sequence[T], key: Callable[[T], Hashable], section: str, w: _Warnings,
             seen: set[Hashable] | None = None) -> list[T]:
    """Drop later items whose id was already seen (``check`` refused differing content)."""
    seen = set() if seen is None else seen
    kept, dropped = [], []
    for item in items:
        k = key(item)
        if k in seen:
            dropped.append(k)
        else:
            seen.add(k)
            kept.append(item)
    if dropped:
        w.add("deduplicated", section, f"dropped {len(dropped)} repeated item(s): "
              + ", ".join(map(str, dropped)))
    return kept


def _same_text(items: list[T], section: str, w: _Warnings, text: Callable[[T], str],
               seen: set[str] | None = None, against: str = "") -> list[T]:
    seen = set() if seen is None else set(seen)
    kept, dropped = [], 0
    for item in items:
        norm = normalize(text(item))
        if norm in seen:
            dropped += 1
        else:
            seen.add(norm)
            kept.append(item)
    if dropped:
        where = f" (also in {against} or repeated)" if against else ""
        w.add("deduplicated", section, f"dropped {dropped} item(s) with the same text{where}")
    return kept


def _memory_types(facts: list[FactLine], section: str, w: _Warnings) -> list[FactLine]:
    kept = [f for f in facts if f.memory_type in MEMORY_TYPES]
    if len(kept) < len(facts):
        others = sorted({f.memory_type for f in facts} - MEMORY_TYPES)
        w.add("filtered", section, f"dropped {len(facts) - len(kept)} fact(s) of type "
              f"{', '.join(others)}: the prompt carries PROFILE/PEOPLE/PROJECT only")
    return kept


def _cap(items: list[T], cap_name: str, section: str, w: _Warnings) -> list[T]:
    cap = CAPS[cap_name]
    if len(items) > cap:
        w.add("capped", section, f"{len(items)} items over the cap of {cap}: kept the first "
              f"{cap}, dropped {len(items) - cap}")
    return items[:cap]


def _card(card: EntityCard, w: _Warnings) -> EntityCard:
    cap = CAPS["card_facts"]
    if len(card.facts) <= cap:
        return card
    w.add("capped", "GRAPH.entity_cards", f"card {card.entity_ref!r} has {len(card.facts)} "
          f"facts over the cap of {cap}: kept the first {cap}")
    return msgspec.structs.replace(card, facts=card.facts[:cap])


def _turns(turns: list[Turn], section: str, w: _Warnings) -> list[Turn]:
    """Replayable history: user/assistant turns only, the last 10, each cut to 800 chars."""
    kept = [t for t in turns if t.role != "system"]
    if len(kept) < len(turns):
        w.add("filtered", section, f"dropped {len(turns) - len(kept)} system turn(s): stored "
              "text is never replayed with the system role")
    last = CAPS["recent_turns"]
    if len(kept) > last:
        w.add("capped", section, f"{len(kept)} turns over the cap of {last}: kept the last "
              f"{last}, dropped the {len(kept) - last} oldest")
        kept = kept[-last:]
    cap = TEXT_CAPS["turn"]
    cut = [i for i, t in enumerate(kept) if len(t.text) > cap]
    if cut:
        w.add("truncated", section, f"{len(cut)} turn(s) cut to {cap} characters "
              f"(positions {', '.join(map(str, cut))} of the replayed turns)")
        kept = [msgspec.structs.replace(t, text=_head(t.text, cap)) if len(t.text) > cap else t
                for t in kept]
    return kept


def _clip(text: str, cap_name: str, w: _Warnings) -> str:
    cap = TEXT_CAPS[cap_name]
    if len(text) <= cap:
        return text
    w.add("truncated", cap_name, f"{len(text)} characters cut to {cap}")
    return _head(text, cap)


def _head(text: str, cap: int) -> str:
    return text[: cap - 1].rstrip() + "…"


def _fact_id(fact: FactLine) -> str:
    return fact.fact_id


def _fact_text(fact: FactLine) -> str:
    return fact.text


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
