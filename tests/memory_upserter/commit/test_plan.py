"""The commit's pure steps: reading the request and deciding the plan return new values and
never change what they are given; once the entities exist, the transaction's writes and the
todo a "done" completes are decided from data."""

from __future__ import annotations

import uuid

import msgspec

from contracts.memory import CommitRequest
from services.core.memory_store.shapes import EntityResult
from services.memory_upserter.commit.fact_writes import fact_writes
from services.memory_upserter.commit.lifecycle import settle
from services.memory_upserter.commit.plan import prepare
from services.memory_upserter.commit.read import read
from services.memory_upserter.commit.todos import bare_done
from services.memory_upserter.commit.turn import Judgement, PendingTodo, TurnPlan

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


def _done_turn(text: str, *, complete: bool = False) -> TurnPlan:
    body = {
        **REQUEST,
        "messages": [{"role": "user", "text": text}],
        "plan": {
            "facts": [REQUEST["plan"]["facts"][0]],  # type: ignore[index]
            "complete_commitment": complete,
        },
    }
    turn = read(msgspec.convert(body, CommitRequest))
    return prepare(turn, Judgement(turn.plan, "request"))


def test_the_facts_are_written_between_the_written_entities() -> None:
    plan = _done_turn("Done! I live in Lisbon now.")
    lisbon = EntityResult(uuid.uuid4(), "Lisbon", "Location", None, "created")
    me = uuid.uuid4()
    (write,) = fact_writes(plan, [lisbon], me)
    assert (write.subject_entity_id, write.object_entity_id) == (me, lisbon.entity_id)
    assert write.message_ids == [str(plan.turn.rows[0].message_id)]
    assert write.memory_key is not None and write.source == "llm_plan"


def test_a_bare_done_completes_the_one_pending_todo_the_person_names_or_asks() -> None:
    report = PendingTodo(str(uuid.uuid4()), "Send the report")
    gym = PendingTodo(str(uuid.uuid4()), "Go to the gym")
    named = bare_done(_done_turn("Done, I sent the report. I live in Lisbon."), [report, gym])
    assert (named.complete, named.notes, named.questions) == (report.todo_id, [], [])
    unclear = bare_done(_done_turn("All done! I live in Lisbon."), [report, gym])
    assert unclear.complete is None
    assert [n.code for n in unclear.notes] == ["commitment_not_completed"]
    assert unclear.questions == ["Which one is done: 'Send the report' or 'Go to the gym'?"]
    nothing = bare_done(_done_turn("Done. I live in Lisbon.", complete=True), [])
    assert nothing.complete is None and [n.code for n in nothing.notes] == [
        "commitment_not_completed"
    ]
    not_said = bare_done(_done_turn("I live in Lisbon."), [report])
    assert (not_said.complete, not_said.notes, not_said.questions) == (None, [], [])


def test_a_commitment_said_done_in_past_tense_words_is_closed_by_those_words() -> None:
    """A plan says a commitment is done; the person never said "done" but "called marta!!":
    the pending todo their past tense names is done (:mod:`.lifecycle`, at commit). Without the
    plan's word (a model's plan), or with nothing in past tense, nothing is closed."""
    marta, dentist = PendingTodo("1" * 32, "Call Marta"), PendingTodo("2" * 32, "Book the dentist")
    called = settle(
        _done_turn("called marta!! she says hi. shes coming to visit in april", complete=True),
        [marta, dentist],
    )
    assert (called.done, called.done_said) == (("T111111",), False)
    assert not [n for n in called.notes if n.code == "commitment_not_completed"]
    assert settle(_done_turn("called marta!! she says hi"), [marta]).done == ()
    still = settle(_done_turn("i will call marta later", complete=True), [marta, dentist])
    assert still.done == () and "commitment_not_completed" in [n.code for n in still.notes]
