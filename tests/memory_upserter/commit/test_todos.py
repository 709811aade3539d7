"""The todo lifecycle's pure half: which pending todos a plan's ``done``/``dropped`` name, by
handle or by words, and when it must ask instead."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from services.core.handles import handle_of
from services.memory_upserter.commit.todos import (
    Closed,
    completions,
    find,
    pick_done,
    resolve_closings,
)
from services.memory_upserter.commit.turn import PendingTodo
from services.memory_upserter.extract.extractor import Utterance, extract

pytestmark = pytest.mark.pure

MARTA = PendingTodo(str(uuid.uuid4()), "Call Marta", "REMINDER")
DENTIST = PendingTodo(str(uuid.uuid4()), "Book the dentist appointment", "COMMITMENT")
MOVE = PendingTodo(str(uuid.uuid4()), "figure out whether to move to Porto", "THREAD")
PENDING = [MARTA, DENTIST, MOVE]


def test_a_handle_names_its_todo_and_only_a_todo() -> None:
    assert find(handle_of("todo", MOVE.todo_id), PENDING) == [MOVE]
    assert find(f"[{handle_of('todo', MARTA.todo_id).upper()}]", PENDING) == [MARTA]
    assert find(handle_of("fact", MARTA.todo_id), PENDING) == []
    assert find("T000000", PENDING) == []


def test_words_name_the_best_overlap_above_the_floor() -> None:
    assert find("called marta", PENDING) == [MARTA]  # inflections match
    assert find("the dentist thing", PENDING) == [DENTIST]  # filler words do not count
    assert find("moving to Porto", PENDING) == [MOVE]  # a thread closes too
    assert find("bought the groceries for marta", PENDING) == []  # 1 of 3: under the floor
    assert find("done", PENDING) == []


def test_a_name_that_fits_several_asks_and_one_that_fits_none_is_a_notice() -> None:
    again = PendingTodo(str(uuid.uuid4()), "Call Marta about the trip", "COMMITMENT")
    out = resolve_closings(["call marta"], ["the gym"], [MARTA, again, DENTIST])
    assert out.closing == {}
    assert out.questions == ["Which one is done: 'Call Marta' or 'Call Marta about the trip'?"]
    assert [n.code for n in out.notes] == ["todo_not_closed", "todo_not_closed"]
    guessed = resolve_closings([], ["the gym"], PENDING, guessed=True)
    assert (guessed.closing, guessed.notes, guessed.questions) == ({}, [], [])


def test_a_bare_done_with_several_pending_picks_by_words_or_asks() -> None:
    """ "done" names no todo: with several pending it asks, unless the person's other words
    name one — and the words of saying done ("got it done") never do."""
    taxes = PendingTodo(str(uuid.uuid4()), "get the taxes done", "COMMITMENT")
    pending = [MARTA, taxes, DENTIST]
    texts = [p.text for p in pending]
    assert pick_done(pending, ["done!!"]) == texts
    assert pick_done(pending, ["ok got it done finally"]) == texts
    assert pick_done(pending, ["called marta, done"]) == MARTA.todo_id
    assert pick_done(pending, ["dentist booked, done"]) == DENTIST.todo_id
    assert pick_done([MARTA], ["done"]) == MARTA.todo_id


def test_a_done_with_something_else_completes_not_the_only_todo() -> None:
    assert pick_done([MARTA], ["done!! so relieved"]) == MARTA.todo_id
    assert pick_done([MARTA], ["im done with it!"]) == MARTA.todo_id
    assert pick_done([MARTA], ["called her, done"]) == MARTA.todo_id
    assert pick_done([MARTA], ["im so done with this week lol"]) is None
    assert pick_done([MARTA], ["done for today, going to bed"]) is None


@pytest.mark.parametrize(
    ("said", "completes"),
    [
        ("gym done!", False), ("taxes finally done 🎉", False), ("finished the report", False),
        ("laundry's done, now what", False), ("ok finally done", True), ("yesss done!!", True),
        ("that's done", True), ("call with marta done", True), ("finished calling her", True),
        ("gym done! and called marta", True),
    ],
)  # fmt: skip
def test_a_done_that_names_something_else_leaves_the_only_todo_pending(
    said: str, completes: bool
) -> None:
    """A sloppy model sets ``complete_commitment`` when anything is done: "gym done!" names
    the gym, so the only pending todo ("call Marta", overdue or not) stays pending."""
    assert pick_done([MARTA], [said]) == (MARTA.todo_id if completes else None)


def test_done_and_dropped_close_each_todo_once() -> None:
    out = resolve_closings(
        [handle_of("todo", MARTA.todo_id), "called Marta"], ["dentist appointment"], PENDING
    )
    assert out.closing == {MARTA.todo_id: "DONE", DENTIST.todo_id: "DROPPED"}
    assert (out.notes, out.questions) == ([], [])


def test_completions_say_done_dropped_or_checked_in() -> None:
    closed = [
        Closed(uuid.uuid4(), "REMINDER", "Call Marta", "DONE"),
        Closed(uuid.uuid4(), "THREAD", "move to Porto", "DROPPED"),
        Closed(uuid.uuid4(), "HABIT", "run every morning", "DONE"),
    ]
    assert [c.outcome for c in completions(closed)] == ["completed", "dropped", "checked_in"]


@pytest.mark.parametrize(
    ("said", "done", "dropped"),
    [
        ("i already called marta", ["called marta"], []),
        ("forget the dentist thing, cancelled", [], ["the dentist thing"]),
        ("no need to buy milk anymore", [], ["buy milk"]),
        ("the dentist appointment got cancelled", [], ["dentist appointment"]),
        ("I'm done with the tax return", ["the tax return"], []),
        ("forget it", [], []),
        ("I already told you that", [], []),
    ],
)
def test_the_offline_judge_names_what_is_done_or_dropped(
    said: str, done: list[str], dropped: list[str]
) -> None:
    plan = extract([Utterance(said)], now=datetime(2026, 4, 6, 9, tzinfo=UTC))
    folded = ([d.casefold() for d in plan.done], [d.casefold() for d in plan.dropped])
    assert folded == (done, dropped)  # a lowercase message's names come back capitalised
