"""From a session range to a grounded episode row: the draft (model or offline), the grounding
check, and the row's derived fields. The model call is the only I/O here.

**Malformed-output policy.** With a model configured, reflection + summary + psyche come from
one structured-output call. ``LLMUnavailable`` (timeout, connection, error status) propagates:
the session stays unconsolidated for the next run. ``LLMMalformedOutput`` (not JSON, not an
object, no content) or an answer without a ``reflection`` object → the offline engine's draft
for that session (engine ``offline_fallback``), so the slow brain keeps moving and never writes
half an episode. A usable answer with some malformed fields keeps its good fields and takes
the offline draft's value for each bad one (``summary.normalize_draft``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import msgspec
import structlog

from contracts.reflection import Engine
from contracts.reflection_draft import ReflectionDraft
from services.core.cpu import compute
from services.core.llm import LLM, LLMMalformedOutput
from services.core.memory_store.episode_index import EpisodeRow, embedding_text
from services.reflection_writer import engine_offline, episode, prompt
from services.reflection_writer.grounding import Grounded, ground
from services.reflection_writer.model import KnownEntity, Message
from services.reflection_writer.summary import MalformedDraft, normalize_draft

log = structlog.get_logger("twin.reflection")


@dataclass(frozen=True)
class Draft:
    draft: ReflectionDraft
    engine: Engine
    grounded: Grounded
    malformed_evidence: int = 0

    @property
    def evidence_dropped(self) -> int:
        return len(self.grounded.dropped_evidence) + self.malformed_evidence


class Drafter(Protocol):
    """How a session range becomes a grounded draft: the model, or the offline engine alone."""

    async def draft(self, messages: Sequence[Message], known: Sequence[KnownEntity]) -> Draft: ...


class OfflineDrafter:
    """No model configured: the offline engine's draft, grounded (engine ``offline``)."""

    async def draft(self, messages: Sequence[Message], known: Sequence[KnownEntity]) -> Draft:
        return await compute(_chars(messages), self._draft, messages, known)

    @staticmethod
    def _draft(messages: Sequence[Message], known: Sequence[KnownEntity]) -> Draft:
        offline = engine_offline.draft(messages, known)
        return Draft(offline, "offline", ground(offline.reflection, messages))


@dataclass(frozen=True)
class ModelDrafter:
    """One structured-output call within ``timeout_s``; the offline draft is its fallback."""

    llm: LLM
    timeout_s: float

    async def draft(self, messages: Sequence[Message], known: Sequence[KnownEntity]) -> Draft:
        offline = await compute(_chars(messages), engine_offline.draft, messages, known)
        user_ids = {m.message_id for m in messages if m.role == "user"}
        try:
            raw = await self.llm.complete_json(
                system=prompt.SYSTEM,
                user=prompt.transcript(messages, known),
                schema=prompt.draft_schema(),
                schema_name=prompt.SCHEMA_NAME,
                timeout=self.timeout_s,
            )
            normalized = normalize_draft(raw, offline, user_ids)
        except (LLMMalformedOutput, MalformedDraft) as exc:
            log.warning("reflection_fallback", reason=type(exc).__name__, detail=str(exc)[:200])
            return Draft(offline, "offline_fallback", ground(offline.reflection, messages))
        if normalized.fell_back:
            log.info("reflection_fields_fell_back", fields=list(normalized.fell_back))
        grounded = ground(normalized.draft.reflection, messages)
        if grounded.dropped_evidence or grounded.dropped_observations:
            log.info(
                "reflection_ungrounded_dropped",
                evidence=[d.reason for d in grounded.dropped_evidence],
                observations=len(grounded.dropped_observations),
            )
        return Draft(normalized.draft, "llm", grounded, normalized.malformed_evidence)


def _chars(messages: Sequence[Message]) -> int:
    """What the offline engine reads: long sessions are drafted off the shared event loop."""
    return sum(len(m.text) for m in messages)


def drafter_for(llm: LLM | None, timeout_s: float) -> Drafter:
    """The configured model, or the offline engine when the process has none (by design)."""
    return OfflineDrafter() if llm is None else ModelDrafter(llm, timeout_s)


def episode_row(
    *,
    user_id: str,
    agent_id: str,
    chat_id: str,
    session_id: str,
    messages: Sequence[Message],
    known: Sequence[KnownEntity],
    made: Draft,
    timezone: str | None,
) -> EpisodeRow:
    """The row to insert (``previous_episode_id`` is filled in inside the transaction)."""
    summary = made.draft.summary
    reflection = made.grounded.reflection
    text = episode.render(reflection)
    first, last = messages[0], messages[-1]
    provenance = {
        "message_ids": [m.message_id for m in messages],
        "first_message_id": first.message_id,
        "last_message_id": last.message_id,
        "first_message_seq": first.seq,
        "last_message_seq": last.seq,
        "turns": len(messages),
        "engine": made.engine,
        "dropped_evidence": [
            {"text": d.text, "message_id": d.message_id, "reason": d.reason}
            for d in made.grounded.dropped_evidence
        ],
    }
    return EpisodeRow(
        episode_id=episode.episode_id(user_id, first.seq),
        user_id=user_id,
        agent_id=agent_id,
        chat_id=chat_id,
        session_id=session_id,
        ts=last.ts,
        day=episode.local_day(last.ts, timezone),
        importance=episode.importance(summary, messages),
        reflection=text,
        reflection_json=msgspec.to_builtins(reflection),
        summary=msgspec.to_builtins(summary),
        entity_ids=[k.entity_id for k in known],
        tags=episode.tags(summary, messages),
        first_message_seq=first.seq,
        last_message_seq=last.seq,
        provenance=provenance,
        previous_episode_id=None,
        text=embedding_text(summary.one_liner, text),
    )
