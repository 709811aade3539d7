"""The commit's pure steps: reading the request and deciding the plan return new values and
never change what they are given."""

from __future__ import annotations

import msgspec

from contracts.memory import CommitRequest
from services.memory_upserter.turn import Judgement
from services.memory_upserter.turn_plan import prepare
from services.memory_upserter.turn_read import read

REQUEST = {
    "user_id": "u-1",
    "agent_id": "deanna",
    "chat_id": "tg:1",
    "turn_id": "t1",
    "now": "2026-01-07T15:00:00+00:00",
    "messages": [
        {"role": "user", "text": "I live in Lisbon. Remind me to call Marta tomorrow."},
        {"role": "assistant", "text": "Noted."},
    ],
    "plan": {
        "facts": [
            {"memory_type": "PROFILE", "subject": "user", "predicate": "LIVES_IN",
             "object": "Lisbon", "text": "The user lives in Lisbon"},
            {"memory_type": "PROFILE", "subject": "user", "predicate": "FEELS",
             "value": "tired", "text": "The user feels tired"},
            {"memory_type": "PROFILE", "subject": "user", "predicate": "WORKS_AT",
             "object": "Acme", "text": "The user works at Acme"},
        ],
        "todos": [{"kind": "REMINDER", "text": "Call Marta", "due": "tomorrow"}],
    },
}  # fmt: skip


def test_prepare_returns_its_notices_and_leaves_the_turn_as_it_was() -> None:
    turn = read(msgspec.convert(REQUEST, CommitRequest))
    before = msgspec.json.encode(turn.req), turn.rows, msgspec.json.encode(turn.plan)
    judged = Judgement(turn.plan, "request")
    decided = prepare(turn, judged)
    assert [n.code for n in decided.notes] == ["affect_fact_dropped", "fact_not_grounded"]
    assert [f.predicate for f, _, _ in decided.resolved.facts] == ["LIVES_IN"]
    assert len(decided.validity) == len(decided.resolved.facts)
    (todo,) = decided.todos
    assert todo.kind == "REMINDER" and todo.due_at is not None
    assert todo.source_message_id == turn.rows[0].message_id
    assert (msgspec.json.encode(turn.req), turn.rows, msgspec.json.encode(turn.plan)) == before
    assert judged == Judgement(turn.plan, "request")
    again = prepare(turn, judged)
    assert again.notes == decided.notes and again.resolved == decided.resolved


def test_read_keys_the_turn_and_splits_the_persons_messages() -> None:
    turn = read(msgspec.convert(REQUEST, CommitRequest))
    assert turn.key == "commit:deanna:tg:1:t1" and turn.plan_source == "request"
    assert [r.role for r in turn.rows] == ["user", "assistant"]
    assert turn.user_rows == turn.rows[:1] and turn.reply == "Noted."
