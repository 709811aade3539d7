"""A small model's other names for a plan's fields are read as the fields (issue 27, found by
the blind v4 set: "fact" for a fact's text, "type" for its memory_type, "task" for a todo's
text, camelCase), and a kind of thing as memory_type keeps the fact instead of dropping it."""

from __future__ import annotations

from datetime import UTC, datetime

from services.memory_upserter.commit.lenient import read_plan

NOW = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)


def test_other_field_names_are_read_as_the_fields() -> None:
    plan, notes = read_plan(
        {
            "facts": [
                {"type": "PROFILE", "predicate": "hasDog", "fact": "User has a dog called Bolt"},
                {"memoryType": "PEOPLE", "predicate": "sister", "statement": "Ines is a nurse",
                 "subject": "Ines", "validFrom": "2019"},
            ],
            "todos": [{"type": "REMINDER", "task": "call the plumber", "deadline": "2026-05-06"}],
            "completeCommitment": False,
        },
        "$.answer.plan",
        NOW,
    )  # fmt: skip
    assert plan is not None
    assert [(f.memory_type, f.text) for f in plan.facts] == [
        ("PROFILE", "User has a dog called Bolt"),
        ("PEOPLE", "Ines is a nurse"),
    ]
    assert plan.facts[1].valid_from is not None and plan.facts[1].valid_from.startswith("2019")
    assert [(t.kind, t.text) for t in plan.todos] == [("REMINDER", "call the plumber")]
    assert plan.todos[0].due is not None and plan.todos[0].due.startswith("2026-05-06")
    assert any(n.detail == "$.answer.plan.facts[0].fact: read as 'text'" for n in notes)


def test_a_field_given_twice_keeps_the_real_one() -> None:
    plan, notes = read_plan(
        {"facts": [{"memory_type": "PROFILE", "predicate": "likes", "text": "User likes tea",
                    "fact": "User loves tea", "statement": "tea"}]},
        "$.plan",
        NOW,
    )  # fmt: skip
    assert plan is not None and [f.text for f in plan.facts] == ["User likes tea"]
    assert sum(n.code == "plan_field_dropped" for n in notes) == 2


def test_a_kind_of_thing_as_memory_type_keeps_the_fact() -> None:
    plan, _ = read_plan(
        {"facts": [{"memory_type": "EVENT", "predicate": "wedding",
                    "text": "User's brother Tiago is getting married in June"},
                   {"memory_type": "Hobbies", "predicate": "plays", "text": "User plays padel"}]},
        "$.plan",
        NOW,
    )  # fmt: skip
    assert plan is not None and [f.memory_type for f in plan.facts] == ["PROFILE", "PROFILE"]
