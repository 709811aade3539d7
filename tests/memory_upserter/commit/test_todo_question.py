"""The product's question about todos reads back as the todos it listed, and a short answer
picks one of them by its words or its place — or none."""

from __future__ import annotations

import pytest

from services.memory_upserter.commit.answer import pick_asked
from services.memory_upserter.commit.todo_question import ask, read_asked

LISTED = ["Call Marta", "Book the dentist", "Pay rent"]


def test_the_question_reads_back_as_its_todos() -> None:
    texts = [*LISTED, "Fix Bob's bike"]
    assert read_asked(ask("done", texts)) == ("done", texts)
    assert read_asked("Which Marta do you mean — Marta (sister) or Marta Silva?") is None


@pytest.mark.parametrize(
    "answer, picked",
    [
        ("the dentist one", "Book the dentist"),
        ("booked the dentist", "Book the dentist"),
        ("marta", "Call Marta"),
        ("the second", "Book the dentist"),
        ("the last one", "Pay rent"),
        ("ok thanks", None),
        ("what about the dentist?", None),  # a question is no answer
        ("I called Marta and booked the dentist", None),  # both: not one
        ("so yesterday I went to the dentist with my sister and then we had lunch", None),
    ],
)
def test_a_short_answer_picks_one_listed_todo(answer: str, picked: str | None) -> None:
    assert pick_asked(LISTED, answer) == picked
