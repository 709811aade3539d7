"""What a small model writes around its plan (issue 27, v4b): the plan's fields beside
``reply`` with no ``plan`` object are read as the plan; a ``memory_type`` named after a
common area of life ("Hobby", "Education", "Job") is read as its slot, not dropped; a holiday
of a fixed date ("until christmas", "xmas eve") is a time."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from services.memory_upserter.commit.lenient import read_answer, read_plan

NOW = datetime(2026, 3, 9, 18, 0, tzinfo=UTC)


def test_plan_fields_beside_the_reply_are_read_as_the_plan() -> None:
    fact = {"memory_type": "PROFILE", "predicate": "has_cat", "value": "Miso", "text": "x"}
    raw = {"reply": "cute!", "facts": [fact], "complete_commitment": True, "mood": "ok"}
    read = read_answer("```json\n" + json.dumps(raw) + "\n```")
    assert read.reply == "cute!" and read.planned
    assert read.plan == {"facts": [fact], "complete_commitment": True}
    codes = {n.detail.split(": ", 1)[0]: n.code for n in read.notes}
    assert codes == {
        "$.answer.facts": "plan_repaired",
        "$.answer.complete_commitment": "plan_repaired",
        "$.answer.mood": "plan_field_dropped",
    }


def test_an_answer_with_a_plan_keeps_its_plan_and_drops_what_is_beside_it() -> None:
    read = read_answer(json.dumps({"reply": "hi", "plan": {"facts": []}, "facts": [{"a": 1}]}))
    assert read.plan == {"facts": []} and read.planned
    assert [n.code for n in read.notes] == ["plan_field_dropped"]
    bare = read_answer(json.dumps({"reply": "hi", "mood": "ok"}))
    assert bare.plan is None and not bare.planned


def test_a_memory_type_named_after_an_area_of_life_is_read_as_its_slot() -> None:
    facts = [
        {"memory_type": m, "predicate": "p", "value": "v", "text": t}
        for m, t in (("Hobby", "a"), ("education", "b"), ("JOB", "c"), ("OPEN_LOOP", "d"))
    ]
    read, notes = read_plan({"facts": facts}, "$.answer.plan", NOW)
    assert read is not None
    assert [(f.text, f.memory_type) for f in read.facts] == [
        ("a", "PROFILE"),
        ("b", "PROFILE"),
        ("c", "PROJECT"),
    ]
    assert [n.code for n in notes].count("plan_part_dropped") == 1  # OPEN_LOOP: no slot


def test_a_holiday_of_a_fixed_date_is_a_time() -> None:
    fact = {"memory_type": "PROFILE", "predicate": "diet", "value": "v", "text": "x"}
    plan = {
        "facts": [{**fact, "valid_to": "christmas"}, {**fact, "valid_from": "since halloween"}],
        "todos": [{"kind": "REMINDER", "text": "wrap gifts", "due": "xmas eve"}],
    }
    read, notes = read_plan(plan, "$.answer.plan", NOW)
    assert read is not None and notes == []
    assert read.facts[0].valid_to == "2026-12-26T00:00:00+00:00"  # through all of the 25th
    assert read.facts[1].valid_from == "2025-10-31T00:00:00+00:00"  # the one just past
    assert read.todos[0].due == "2026-12-24T09:00:00+00:00"


def test_a_reply_named_response_is_the_reply_and_the_turn_keeps_it() -> None:
    """A 3B-class model writes "response" for "reply" (v5b): the turn is not left replyless."""
    raw = {"response": "congrats!! 🎉", "plan": {"facts": []}}
    read = read_answer(json.dumps(raw))
    assert read.reply == "congrats!! 🎉" and read.plan == {"facts": []}
    assert [(n.code, n.detail.split(":")[0]) for n in read.notes] == [
        ("plan_repaired", "$.answer.response")
    ]
    both = read_answer(json.dumps({"reply": "hi", "message": "other"}))
    assert both.reply == "hi" and [n.code for n in both.notes] == ["plan_field_dropped"]


def test_one_fact_written_as_the_object_itself_is_a_list_of_one() -> None:
    fact = {"memory_type": "pet", "predicate": "has_dog", "value": "Biscuit", "text": "x"}
    plan, notes = read_plan({"facts": fact}, "$.answer.plan", NOW)
    assert plan is not None and [f.object for f in plan.facts] == ["Biscuit"]
    assert plan.facts[0].memory_type == "PEOPLE"  # "pet" is a memory_type a model writes
    assert {n.code for n in notes} == {"plan_repaired"}


def test_a_confidence_written_as_a_percent_is_that_fraction() -> None:
    fact = {"memory_type": "PROFILE", "predicate": "p", "value": "v", "text": "x"}
    plan, _ = read_plan({"facts": [{**fact, "confidence": 90}]}, "$.answer.plan", NOW)
    assert plan is not None and plan.facts[0].confidence == 0.9
    plan, _ = read_plan({"facts": [{**fact, "confidence": 0.7}]}, "$.answer.plan", NOW)
    assert plan is not None and plan.facts[0].confidence == 0.7
