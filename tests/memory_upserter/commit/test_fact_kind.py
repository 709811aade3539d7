"""A fact whose ``memory_type`` a small model left out or wrote as a word of its own is kept,
its kind read from the fact (:mod:`.fact_kind`): a relation or someone else's fact is PEOPLE,
work on something PROJECT, the rest PROFILE; a kind that files a todo as a fact is no fact."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.commit.lenient import read_plan

pytestmark = pytest.mark.pure

NOW = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("fact", "kind"),
    [
        ({"predicate": "livesIn", "value": "Kalamaria", "text": "User lives in Kalamaria"},
         "PROFILE"),
        ({"predicate": "job", "value": "structural engineer",
          "text": "User is a structural engineer"}, "PROFILE"),
        ({"memory_type": "FACT", "predicate": "brother", "value": "Nikos",
          "text": "Nikos is user's brother"}, "PEOPLE"),
        ({"predicate": "hasDog", "value": "Max", "text": "User has a dog named Max"}, "PEOPLE"),
        ({"subject": "Nikos", "predicate": "location", "value": "Larissa",
          "text": "Nikos lives in Larissa"}, "PEOPLE"),
        ({"type": "stuff", "predicate": "side_project", "value": "a pottery shop",
          "text": "User is building a pottery shop"}, "PROJECT"),
    ],
)  # fmt: skip
def test_a_fact_without_a_kind_is_kept_with_the_kind_it_says(fact: dict, kind: str) -> None:
    read, notes = read_plan({"facts": [fact]}, "$.plan", NOW)
    assert read is not None
    assert [f.memory_type for f in read.facts] == [kind]
    assert [n.code for n in notes if "memory_type" in n.detail] == ["plan_repaired"]


def test_a_known_word_is_read_as_before_and_an_open_loop_is_still_no_fact() -> None:
    facts = [
        {
            "memory_type": "Job",
            "predicate": "works_at",
            "value": "Acme",
            "text": "User works at Acme",
        },
        {"memory_type": "OPEN_LOOP", "predicate": "X", "value": "x", "text": "call the bank"},
    ]
    read, notes = read_plan({"facts": facts}, "$.plan", NOW)
    assert read is not None and [f.memory_type for f in read.facts] == ["PROJECT"]
    assert any(n.code == "plan_part_dropped" and "facts[1]" in n.detail for n in notes)
