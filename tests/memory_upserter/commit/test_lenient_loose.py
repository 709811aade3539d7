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
