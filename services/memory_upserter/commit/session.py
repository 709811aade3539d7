"""The working-memory session after a committed turn (pure: the stored session, the turn and
what it wrote are passed in; the clock is the turn's). :func:`~.index.after_commit`
applies it with a compare-and-set, so pulse-decay's concurrent message count is never lost."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import msgspec

from contracts.slots import Scratch, SessionState, Turn
from services.memory_upserter.commit.turn import ReadTurn, Written

MAX_ACTIVE_ENTITIES = 12


def session_after(
    seen: SessionState | None, turn: ReadTurn, written: Written, *, max_turns: int
) -> SessionState:
    """The session with this turn's messages, the entities it named (then the request's live
    ones) active first, and the questions its write left open."""
    req = turn.req
    turns = [
        Turn(role=r.role, text=r.text, speaker=r.speaker, ts=r.ts, message_id=str(r.message_id))
        for r in turn.rows
    ]
    active = [*written.touched, *(i for i in req.active_entity_ids if i in written.active_ids)]
    return next_session(
        seen,
        user_id=req.user_id,
        agent_id=req.agent_id,
        chat_id=req.chat_id,
        turns=turns,
        active_ids=active,
        scratch=req.scratch,
        now=turn.now,
        max_turns=max_turns,
        questions=written.questions,
        closed=written.closed,
    )


def next_session(
    seen: SessionState | None,
    *,
    user_id: str,
    agent_id: str,
    chat_id: str,
    turns: Sequence[Turn],
    active_ids: Sequence[str],
    scratch: Scratch | None,
    now: datetime,
    max_turns: int,
    questions: Sequence[str] = (),
    closed: Sequence[str] = (),
) -> SessionState:
    """The session blob after this turn: its turns appended once (by message id), trimmed to
    the newest ``max_turns``; this turn's entities first among the active ones; the scratch
    replaced when the caller sent one; the write's open questions ("work Marta or family
    Marta?") added to ``scratch.pending_questions`` (the newest 5) for the next turn to ask, and
    the ones this turn answered (``closed``) taken out.
    The message count is pulse-decay's, left alone."""
    session = seen or SessionState(user_id=user_id, agent_id=agent_id, chat_id=chat_id)
    known = {t.message_id for t in session.turns if t.message_id}
    appended = [*session.turns, *(t for t in turns if t.message_id not in known)]
    active = list(dict.fromkeys([*active_ids, *session.active_entity_ids]))
    scratch = scratch if scratch is not None else session.scratch
    if questions or closed:
        kept = [q for q in scratch.pending_questions if q not in closed]
        asked = list(dict.fromkeys([*kept, *(q for q in questions if q not in closed)]))[-5:]
        scratch = msgspec.structs.replace(scratch, pending_questions=asked)
    return msgspec.structs.replace(
        session,
        turns=appended[-max_turns:] if max_turns > 0 else [],
        active_entity_ids=active[:MAX_ACTIVE_ENTITIES],
        scratch=scratch,
        updated_at=now,
    )
