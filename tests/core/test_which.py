"""The one which-X question: its wording, and reading it back the way the next turn does."""

from __future__ import annotations

import pytest

from services.core.which import numbered, phrase, read_question, which_question

pytestmark = pytest.mark.pure


def test_the_question_lists_its_candidates() -> None:
    phrases = [phrase("work Marta", "colleague"), phrase("Marta Silva", None)]
    assert which_question("Marta", phrases) == (
        "Which Marta do you mean — work Marta (colleague) or Marta Silva?"
    )
    three = which_question("sister", ["Ana (sister)", "Bia (sister)", "Carla"])
    assert three == "Which sister do you mean — Ana (sister), Bia (sister) or Carla?"


def test_repeats_are_numbered() -> None:
    assert numbered(["Marta (sister)", "Marta (sister)", "Marta (colleague)"]) == [
        "Marta (sister) #1",
        "Marta (sister) #2",
        "Marta (colleague)",
    ]


def test_a_question_reads_back_and_nothing_else_does() -> None:
    asked = which_question(
        "Marta",
        ["work Marta (colleague, last mentioned 2026-04-01)", "Marta (works or studies)", "x"],
    )
    back = read_question(asked)
    assert back is not None and back.shown == "Marta"
    assert back.phrases == (
        "work Marta (colleague, last mentioned 2026-04-01)",
        "Marta (works or studies)",
        "x",
    )
    assert read_question("Which one is done: 'a' or 'b'?") is None
    assert read_question("Sure, I'll remind you.") is None
