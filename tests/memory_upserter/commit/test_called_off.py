"""A todo the person calls off, sent by a small model as ``done`` (issue 27, v4b): the words
of calling it off read it as dropped; a todo whose own words are "cancel…" done is still done."""

from __future__ import annotations

import pytest

from services.memory_upserter.commit.todo_question import called_off

pytestmark = pytest.mark.pure


@pytest.mark.parametrize(
    ("said", "off"),
    [
        ("nvm the birthday cake, mum is baking one", True),
        ("never mind the plumber, it fixed itself lol", True),
        ("no need to book the table anymore", True),
        ("skip it, we're not going", True),
        ("they called it off so no tickets needed", True),
        ("cancelled the netflix sub finally", False),  # the todo "cancel netflix", done
        ("booked the table ✅", False),
        ("i dont need reminders for everything haha", False),
    ],
)
def test_words_of_calling_a_todo_off(said: str, off: bool) -> None:
    assert called_off([said]) is off
