"""Pulse & decay of the AFFECT state (003 §8), as a pure function of one turn.

Per turn, in this order:

* **No affect in Redis** (first turn, or its TTL ran out): start a neutral one (confidence 0,
  no markers, ``decay_at = now + 30 min``, mode ``default``) and apply *no* decay rule this turn,
  as §8's early return does. The message is still counted and both blobs are saved.
* **Rule 1, temporal decay**: ``decay_at < now`` → neutral, confidence 0, markers
  ``["expired_decay"]``.
* **Rule 2, pulse decay**, on every turn where the session's ``msg_count`` *before* this message
  (§8 reads it before anyone increments it) is a positive multiple of ``every_n_messages``
  (default 3: the 4th, 7th, 10th… message): a short functional message (under 10 characters once
  trimmed) multiplies confidence by 0.7; every pulse multiplies it by 0.95 and stamps ``pulse``
  (``last_pulse_at = now``, ``still_valid = confidence >= 0.3``).
* **Rule 3, forced flush**: confidence under 0.3 → neutral, confidence 0, markers
  ``+= ["forced_flush_low_conf"]``.
* **Boost**, last, so a fresh statement is never decayed in the turn that made it: only from an
  explicit marker — one the caller passes, or a first-person statement found by
  :mod:`~services.pulse_decay.statements` ("I'm furious", "I am so stressed", "I feel
  anxious"). Negated or hedged statements ("I'm not angry", "not sure if I'm happy") and
  questions never boost; decay never boosts. A boost sets label and confidence, records the
  phrase in markers and restarts ``decay_at`` at ``now + 30 min``.

Where this departs from the letter of §8, on purpose:

* An affect already at rest (neutral, confidence 0) is left alone by Rules 1 and 3. §8 would
  re-mark it every turn and append ``forced_flush_low_conf`` forever; here markers never grow
  on a neutral affect and ``applied`` only names rules that changed the tone. The pulse still
  ticks (it is a clock, not a tone change).
* Markers keep the last :data:`MAX_MARKERS` entries; confidence is rounded to 4 places.

**Retries.** n8n's "retry on fail" re-sends a turn whose answer was lost. When the request
carries the channel's ``message_id`` and it equals the session's ``last_message_id``, the turn
was already counted: both blobs come back as saved, ``applied == ("replayed",)``, and
:func:`stored_reply` finds the reply that turn got if it was committed (a redelivered Telegram
update is answered again without a second model call).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import msgspec

from contracts.pulse import AffectMarker, AppliedRule, PulseRequest
from contracts.slots import Affect, AffectSlot, Pulse, SessionState
from services.pulse_decay.statements import Signal, clip_marker, detect_statements

NEUTRAL = "neutral"
DECAY_WINDOW = timedelta(minutes=30)
FLUSH_FLOOR = 0.3
SHORT_MESSAGE_CHARS = 10
SHORT_FACTOR = 0.7
PULSE_FACTOR = 0.95
MAX_MARKERS = 8


@dataclass(frozen=True)
class Outcome:
    session: SessionState
    affect: AffectSlot
    applied: tuple[AppliedRule, ...]


def apply_turn(
    request: PulseRequest,
    session: SessionState | None,
    affect: AffectSlot | None,
    *,
    now: datetime,
    decay_window: timedelta = DECAY_WINDOW,
) -> Outcome:
    """The conversation after one user message: decayed (or boosted) affect, counted session."""
    now = _aware(now)
    if session is not None and affect is not None and is_replay(request, session):
        return Outcome(session=session, affect=affect, applied=("replayed",))
    if session is None:
        session = SessionState(
            user_id=request.user_id, agent_id=request.agent_id, chat_id=request.chat_id
        )
    applied: list[AppliedRule] = []
    if affect is None:
        state = neutral_affect(now, decay_window)
        mode = "default"
        applied.append("new_affect")
    else:
        state, fired = decay(
            affect.affect, msg_count=session.msg_count, message=request.message, now=now
        )
        mode = affect.interaction_mode
        applied += fired
    signal = strongest_signal(request.markers, request.message)
    if signal is not None:
        state = boost(state, signal, now=now, decay_window=decay_window)
        applied.append("explicit_boost")
    counted = msgspec.structs.replace(
        session, msg_count=session.msg_count + 1, updated_at=now, last_message_id=request.message_id
    )
    slot = AffectSlot(
        user_id=request.user_id,
        agent_id=request.agent_id,
        chat_id=request.chat_id,
        ts=now,
        affect=state,
        interaction_mode=session.scratch.mode or mode,
        topic_focus=session.scratch.topic_focus,
        active_entity_ids=list(session.active_entity_ids),
    )
    return Outcome(session=counted, affect=slot, applied=tuple(applied))


def is_replay(request: PulseRequest, session: SessionState | None) -> bool:
    """The same channel message as the turn last counted for this chat (a retried request)."""
    return (
        request.message_id is not None
        and session is not None
        and session.last_message_id == request.message_id
    )


def stored_reply(request: PulseRequest, session: SessionState) -> str | None:
    """The assistant turn that answered this message, if the session holds it.

    The session's recent turns carry no channel ids, so the user turn is recognised by its text
    (and its time, when both sides have one): the newest such turn followed by an assistant
    turn. None when the turn was counted but never committed (the flow answers it normally).
    """
    turns = session.turns
    for i in range(len(turns) - 2, -1, -1):
        turn, after = turns[i], turns[i + 1]
        if turn.role != "user" or after.role != "assistant" or turn.text != request.message:
            continue
        if (
            request.now is not None
            and turn.ts is not None
            and _aware(turn.ts) != _aware(request.now)
        ):
            continue
        return after.text
    return None


def neutral_affect(now: datetime, decay_window: timedelta = DECAY_WINDOW) -> Affect:
    return Affect(label=NEUTRAL, confidence=0.0, markers=[], decay_at=now + decay_window)


def decay(
    affect: Affect, *, msg_count: int, message: str, now: datetime
) -> tuple[Affect, list[AppliedRule]]:
    """Rules 1–3 of §8 on an existing affect; never raises confidence."""
    label, confidence, markers = affect.label, affect.confidence, affect.markers
    pulse = affect.pulse
    fired: list[AppliedRule] = []
    if _aware(affect.decay_at) < now and not _at_rest(label, confidence):
        label, confidence, markers = NEUTRAL, 0.0, ["expired_decay"]
        fired.append("temporal_decay")
    if is_pulse_turn(msg_count, pulse.every_n_messages):
        fired.append("pulse_decay")
        if is_short_functional(message):
            confidence *= SHORT_FACTOR
            fired.append("short_message_decay")
        confidence *= PULSE_FACTOR
        pulse = Pulse(
            every_n_messages=pulse.every_n_messages,
            last_pulse_at=now,
            still_valid=confidence >= FLUSH_FLOOR,
        )
    if confidence < FLUSH_FLOOR and not _at_rest(label, confidence):
        label, confidence = NEUTRAL, 0.0
        markers = [*markers, "forced_flush_low_conf"]
        fired.append("forced_flush")
    return Affect(
        label=label,
        confidence=round(confidence, 4),
        markers=_cap(markers),
        decay_at=affect.decay_at,
        pulse=pulse,
    ), fired


def is_pulse_turn(msg_count_before: int, every_n_messages: int) -> bool:
    return msg_count_before > 0 and msg_count_before % every_n_messages == 0


def is_short_functional(message: str) -> bool:
    return len(message.strip()) < SHORT_MESSAGE_CHARS


def boost(
    affect: Affect, signal: Signal, *, now: datetime, decay_window: timedelta = DECAY_WINDOW
) -> Affect:
    """Set the affect from an explicit signal; the same label keeps its higher confidence."""
    if signal.label == NEUTRAL:
        confidence, markers = 0.0, [signal.marker]
    elif signal.label == affect.label:
        confidence = max(affect.confidence, signal.confidence)
        markers = [m for m in affect.markers if m != signal.marker] + [signal.marker]
    else:
        confidence, markers = signal.confidence, [signal.marker]
    return Affect(
        label=signal.label,
        confidence=round(confidence, 4),
        markers=_cap(markers),
        decay_at=now + decay_window,
        pulse=msgspec.structs.replace(affect.pulse, still_valid=True),
    )


def strongest_signal(markers: Sequence[AffectMarker], message: str) -> Signal | None:
    """The caller's most confident marker if any counts, else the message's strongest statement.

    Signals under the flush floor (0.3) are ignored: Rule 3 would flush them on the next turn.
    """
    given = [
        Signal(
            label=m.label.strip().lower(),
            confidence=m.confidence,
            marker=clip_marker(f"marker: {m.evidence or m.label}"),
        )
        for m in markers
        if m.confidence >= FLUSH_FLOOR
    ]
    candidates = given or detect_statements(message)
    return max(candidates, key=lambda s: s.confidence) if candidates else None


def _at_rest(label: str, confidence: float) -> bool:
    return label == NEUTRAL and confidence == 0.0


def _cap(markers: Sequence[str]) -> list[str]:
    return list(markers[-MAX_MARKERS:])


def _aware(moment: datetime) -> datetime:
    """Blobs written without an offset are read as UTC rather than failing the comparison."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
