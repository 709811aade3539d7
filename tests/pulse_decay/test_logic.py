"""003 §8 as a pure function: decay, pulse, flush, boosts, counting — no Redis, no clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import msgspec
import pytest

from contracts.pulse import AffectMarker, PulseRequest
from contracts.slots import Affect, AffectSlot, Pulse, Scratch, SessionState, Turn
from services.pulse_decay.logic import (
    DECAY_WINDOW,
    MAX_MARKERS,
    apply_turn,
    stored_reply,
    strongest_signal,
)
from services.pulse_decay.statements import AFFECT_RULES, detect_statements

NOW = datetime(2026, 1, 3, 1, 10, tzinfo=UTC)
LONG = "we talked about the garden plans"  # not short-functional


def _request(message: str = LONG, markers: list[AffectMarker] | None = None) -> PulseRequest:
    return PulseRequest(
        user_id="alice", agent_id="deanna", chat_id="tg:1", message=message, markers=markers or []
    )


def _session(msg_count: int = 1, **fields) -> SessionState:
    return SessionState(
        user_id="alice", agent_id="deanna", chat_id="tg:1", msg_count=msg_count, **fields
    )


def _affect(
    label: str = "stressed",
    confidence: float = 0.85,
    *,
    markers: list[str] | None = None,
    decay_at: datetime = NOW + timedelta(minutes=20),
    every: int = 3,
    mode: str = "reflective",
) -> AffectSlot:
    return AffectSlot(
        user_id="alice",
        agent_id="deanna",
        chat_id="tg:1",
        ts=NOW - timedelta(minutes=10),
        affect=Affect(
            label=label,
            confidence=confidence,
            markers=markers or ["said: x"],
            decay_at=decay_at,
            pulse=Pulse(every_n_messages=every),
        ),
        interaction_mode=mode,
    )


# --- missing affect ----------------------------------------------------------------------------


def test_a_missing_affect_starts_neutral_and_no_decay_rule_fires() -> None:
    out = apply_turn(_request("ok"), _session(msg_count=3), None, now=NOW)
    affect = out.affect.affect
    assert (affect.label, affect.confidence, affect.markers) == ("neutral", 0.0, [])
    assert affect.decay_at == NOW + DECAY_WINDOW
    assert out.affect.interaction_mode == "default"
    assert out.applied == ("new_affect",)  # msg_count 3 would be a pulse turn: early return
    assert affect.pulse.last_pulse_at is None


def test_a_missing_session_starts_at_zero_and_counts_this_message() -> None:
    out = apply_turn(_request(), None, None, now=NOW)
    assert out.session.msg_count == 1
    assert out.session.updated_at == NOW
    assert (out.session.user_id, out.session.agent_id, out.session.chat_id) == (
        "alice",
        "deanna",
        "tg:1",
    )


def test_a_first_message_statement_boosts_the_new_neutral_affect() -> None:
    out = apply_turn(_request("I'm furious with my landlord"), None, None, now=NOW)
    assert out.applied == ("new_affect", "explicit_boost")
    assert out.affect.affect.label == "furious"


# --- Rule 1 ------------------------------------------------------------------------------------


def test_temporal_decay_neutralises_an_affect_past_its_decay_at() -> None:
    stale = _affect(decay_at=NOW - timedelta(seconds=1), markers=["said: I'm stressed"])
    out = apply_turn(_request(), _session(), stale, now=NOW)
    assert (out.affect.affect.label, out.affect.affect.confidence) == ("neutral", 0.0)
    assert out.affect.affect.markers == ["expired_decay"]
    assert out.applied == ("temporal_decay",)  # the flush does not pile on a neutral affect


def test_an_affect_exactly_at_decay_at_is_not_yet_expired() -> None:
    out = apply_turn(_request(), _session(), _affect(decay_at=NOW), now=NOW)
    assert out.affect.affect.label == "stressed"
    assert out.applied == ()


def test_temporal_decay_leaves_an_affect_already_at_rest_alone() -> None:
    rest = _affect(
        "neutral", 0.0, markers=["forced_flush_low_conf"], decay_at=NOW - timedelta(hours=2)
    )
    out = apply_turn(_request(), _session(), rest, now=NOW)
    assert out.affect.affect.markers == ["forced_flush_low_conf"]
    assert out.applied == ()


# --- Rule 2 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "count_before, pulses",
    [(0, False), (1, False), (2, False), (3, True), (4, False), (6, True), (9, True)],
)
def test_pulse_fires_when_the_count_before_this_message_is_a_positive_multiple_of_n(
    count_before: int, pulses: bool
) -> None:
    out = apply_turn(_request(), _session(msg_count=count_before), _affect(), now=NOW)
    assert ("pulse_decay" in out.applied) is pulses
    assert out.affect.affect.confidence == (pytest.approx(0.85 * 0.95) if pulses else 0.85)
    assert out.session.msg_count == count_before + 1


def test_pulse_interval_comes_from_the_stored_pulse() -> None:
    out = apply_turn(_request(), _session(msg_count=5), _affect(every=5), now=NOW)
    assert "pulse_decay" in out.applied
    assert out.affect.affect.pulse.every_n_messages == 5


def test_a_pulse_stamps_last_pulse_at_and_still_valid() -> None:
    out = apply_turn(_request(), _session(msg_count=3), _affect(confidence=0.85), now=NOW)
    assert out.affect.affect.pulse == Pulse(every_n_messages=3, last_pulse_at=NOW, still_valid=True)


def test_a_short_functional_message_on_a_pulse_turn_decays_harder() -> None:
    out = apply_turn(
        _request("  ok thx  "), _session(msg_count=3), _affect(confidence=0.85), now=NOW
    )
    assert out.applied == ("pulse_decay", "short_message_decay")
    assert out.affect.affect.confidence == pytest.approx(0.85 * 0.7 * 0.95, abs=1e-4)


def test_a_ten_character_message_is_not_short() -> None:
    out = apply_turn(_request("0123456789"), _session(msg_count=3), _affect(), now=NOW)
    assert "short_message_decay" not in out.applied


def test_a_short_message_off_a_pulse_turn_changes_nothing() -> None:
    out = apply_turn(_request("ok"), _session(msg_count=2), _affect(), now=NOW)
    assert out.applied == ()
    assert out.affect.affect.confidence == 0.85


def test_a_pulse_that_stays_at_or_above_the_floor_keeps_the_affect_valid() -> None:
    out = apply_turn(_request("ok"), _session(msg_count=3), _affect(confidence=0.5), now=NOW)
    assert out.affect.affect.confidence == pytest.approx(0.3325)  # 0.5 × 0.7 × 0.95
    assert out.affect.affect.pulse.still_valid is True
    assert out.affect.affect.label == "stressed"
    assert out.applied == ("pulse_decay", "short_message_decay")


# --- Rule 3 ------------------------------------------------------------------------------------


def test_a_pulse_under_the_floor_forces_a_flush_that_appends_its_marker() -> None:
    out = apply_turn(
        _request("ok"),
        _session(msg_count=3),
        _affect(confidence=0.4, markers=["said: I'm stressed"]),
        now=NOW,
    )
    affect = out.affect.affect
    assert (affect.label, affect.confidence) == ("neutral", 0.0)
    assert affect.markers == ["said: I'm stressed", "forced_flush_low_conf"]
    assert affect.pulse.still_valid is False
    assert out.applied == ("pulse_decay", "short_message_decay", "forced_flush")


def test_a_low_confidence_affect_is_flushed_even_off_a_pulse_turn() -> None:
    out = apply_turn(_request(), _session(msg_count=1), _affect(confidence=0.2), now=NOW)
    assert out.affect.affect.label == "neutral"
    assert out.applied == ("forced_flush",)


def test_a_neutral_affect_never_accumulates_flush_markers() -> None:
    affect, session = _affect("neutral", 0.0, markers=["expired_decay"]), _session(msg_count=0)
    for _ in range(20):
        out = apply_turn(_request("ok"), session, affect, now=NOW)
        session, affect = out.session, out.affect
        assert "forced_flush" not in out.applied
    assert affect.affect.markers == ["expired_decay"]
    assert session.msg_count == 20


def test_markers_are_capped_to_the_most_recent() -> None:
    many = [f"said: m{i}" for i in range(12)]
    out = apply_turn(_request(), _session(), _affect(confidence=0.2, markers=many), now=NOW)
    assert len(out.affect.affect.markers) == MAX_MARKERS
    assert out.affect.affect.markers[-1] == "forced_flush_low_conf"


def test_decay_never_raises_confidence() -> None:
    affect, session = _affect(confidence=0.9, decay_at=NOW + timedelta(days=1)), _session(0)
    seen = [0.9]
    for _ in range(30):
        out = apply_turn(_request("k"), session, affect, now=NOW)
        session, affect = out.session, out.affect
        seen.append(affect.affect.confidence)
    assert all(later <= earlier for earlier, later in zip(seen, seen[1:], strict=False))
    assert affect.affect.label == "neutral"


# --- boosts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule, word", [(r, w) for r in AFFECT_RULES for w in r.words])
def test_every_rule_word_boosts_from_a_first_person_statement(rule, word: str) -> None:
    out = apply_turn(
        _request(f"Honestly I'm so {word} right now"), _session(), _affect("neutral", 0.0), now=NOW
    )
    assert out.affect.affect.label == rule.label
    assert out.affect.affect.confidence == rule.confidence
    assert 0.8 <= rule.confidence <= 0.9
    assert out.affect.affect.markers == [f"said: I'm so {word}"]
    assert out.affect.affect.decay_at == NOW + DECAY_WINDOW


@pytest.mark.parametrize("rule, word", [(r, w) for r in AFFECT_RULES for w in r.words])
def test_no_rule_word_boosts_when_negated(rule, word: str) -> None:
    assert detect_statements(f"I'm not {word}") == []
    assert detect_statements(f"I don't feel {word}") == []


def test_each_rule_word_belongs_to_one_rule_only() -> None:
    words = [w for r in AFFECT_RULES for w in r.words]
    assert len(words) == len(set(words))


@pytest.mark.parametrize(
    "message, label",
    [
        ("I am so stressed", "stressed"),
        ("i feel anxious about tomorrow", "anxious"),
        ("I\u2019m exhausted", "exhausted"),
        ("im furious", "furious"),
        ("I've been feeling really overwhelmed lately", "overwhelmed"),
        ("I am feeling a bit lonely", "lonely"),
        ("I'm not angry, I'm furious!", "furious"),
        ("I'm tired and hungry", "tired"),
        ("I'm happy!! we won", "happy"),
    ],
)
def test_first_person_statements_are_detected(message: str, label: str) -> None:
    assert [s.label for s in detect_statements(message)][:1] == [label]


@pytest.mark.parametrize(
    "message",
    [
        "I'm not angry",
        "I am not stressed at all",
        "I'm never anxious about this",
        "I'm not sure if I'm happy",
        "I don't know whether I'm stressed",
        "I'm happy to help with that",
        "am I stressed?",
        "do you think I'm angry?",
        "she is furious",
        "I was furious yesterday",
        "if I'm stressed, I eat chocolate",
    ],
)
def test_negated_hedged_reported_or_questioned_statements_do_not_boost(message: str) -> None:
    assert detect_statements(message) == []


def test_the_strongest_statement_in_a_message_wins() -> None:
    signal = strongest_signal([], "I'm tired. Actually I'm furious.")
    assert signal is not None and signal.label == "furious"


def test_request_markers_win_over_the_message_and_the_most_confident_counts() -> None:
    markers = [
        AffectMarker(label="Sad", confidence=0.6),
        AffectMarker(label="anxious", confidence=0.7, evidence="rapid-fire messages"),
    ]
    out = apply_turn(_request("I'm furious", markers), _session(), _affect("neutral", 0.0), now=NOW)
    assert (out.affect.affect.label, out.affect.affect.confidence) == ("anxious", 0.7)
    assert out.affect.affect.markers == ["marker: rapid-fire messages"]


def test_a_marker_under_the_flush_floor_is_ignored() -> None:
    out = apply_turn(
        _request(markers=[AffectMarker(label="angry", confidence=0.2)]),
        _session(),
        _affect("neutral", 0.0),
        now=NOW,
    )
    assert out.affect.affect.label == "neutral"
    assert "explicit_boost" not in out.applied


def test_a_neutral_marker_resets_the_affect() -> None:
    out = apply_turn(
        _request(markers=[AffectMarker(label="neutral")]),
        _session(),
        _affect("furious", 0.9),
        now=NOW,
    )
    assert (out.affect.affect.label, out.affect.affect.confidence) == ("neutral", 0.0)
    assert out.affect.affect.markers == ["marker: neutral"]


def test_repeating_the_same_feeling_keeps_the_higher_confidence_and_renews_decay_at() -> None:
    current = _affect(
        "furious", 0.95, markers=["said: I'm livid"], decay_at=NOW + timedelta(minutes=1)
    )
    out = apply_turn(_request("I'm furious"), _session(), current, now=NOW)
    affect = out.affect.affect
    assert affect.confidence == 0.95
    assert affect.markers == ["said: I'm livid", "said: I'm furious"]
    assert affect.decay_at == NOW + DECAY_WINDOW


def test_a_boost_is_applied_after_decay_so_it_is_not_decayed_in_its_own_turn() -> None:
    expired = _affect("sad", 0.9, decay_at=NOW - timedelta(minutes=5))
    out = apply_turn(_request("I'm exhausted"), _session(msg_count=3), expired, now=NOW)
    assert out.applied == ("temporal_decay", "pulse_decay", "explicit_boost")
    assert (out.affect.affect.label, out.affect.affect.confidence) == ("exhausted", 0.85)
    assert out.affect.affect.pulse.still_valid is True


def test_without_a_marker_or_statement_confidence_never_rises() -> None:
    out = apply_turn(
        _request("tell me more about the garden"), _session(), _affect(confidence=0.5), now=NOW
    )
    assert out.affect.affect.confidence == 0.5
    assert "explicit_boost" not in out.applied


# --- the rest of the turn ----------------------------------------------------------------------


def test_the_session_is_counted_and_stamped_and_otherwise_untouched() -> None:
    session = _session(
        msg_count=7,
        summary="s",
        active_entity_ids=["e1", "e2"],
        scratch=Scratch(
            topic_focus="family", mode="reflective", pending_questions=["Which Marta?"]
        ),
    )
    out = apply_turn(_request(), session, _affect(), now=NOW)
    assert out.session == msgspec.structs.replace(session, msg_count=8, updated_at=NOW)


def test_affect_mirrors_the_session_focus_and_entities_and_is_labelled_non_factual() -> None:
    session = _session(
        active_entity_ids=["e1"], scratch=Scratch(topic_focus="family", mode="playful")
    )
    slot = apply_turn(_request(), session, _affect(mode="reflective"), now=NOW).affect
    assert (slot.authority, slot.stability) == ("non-factual", "volatile")
    assert (slot.topic_focus, slot.active_entity_ids, slot.interaction_mode) == (
        "family",
        ["e1"],
        "playful",
    )
    assert slot.ts == NOW and slot.chat_id == "tg:1"


def test_interaction_mode_is_kept_when_the_session_sets_none() -> None:
    slot = apply_turn(_request(), _session(), _affect(mode="reflective"), now=NOW).affect
    assert slot.interaction_mode == "reflective"


def test_a_stored_decay_at_without_offset_is_read_as_utc() -> None:
    naive = _affect(decay_at=datetime(2026, 1, 3, 1, 0))  # 10 minutes before NOW
    out = apply_turn(_request(), _session(), naive, now=NOW)
    assert out.applied == ("temporal_decay",)


def test_the_stored_reply_is_the_assistant_turn_after_the_same_user_message() -> None:
    earlier = NOW - timedelta(minutes=5)
    session = _session(
        turns=[
            Turn(role="user", text="ok", ts=earlier),
            Turn(role="assistant", text="first answer"),
            Turn(role="user", text="ok", ts=NOW),
            Turn(role="assistant", text="second answer"),
        ]
    )
    replay = msgspec.structs.replace(_request("ok"), now=NOW)
    assert stored_reply(replay, session) == "second answer"
    assert stored_reply(msgspec.structs.replace(replay, now=earlier), session) == "first answer"


def test_no_stored_reply_when_the_turn_was_never_committed() -> None:
    session = _session(turns=[Turn(role="user", text="hi"), Turn(role="assistant", text="hey")])
    assert stored_reply(_request("and now?"), session) is None
    assert stored_reply(_request("hi"), _session(turns=[Turn(role="user", text="hi")])) is None
