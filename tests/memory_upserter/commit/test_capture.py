"""A restated todo updates the pending one it repeats (commit/capture.py): one errand, one todo."""

from __future__ import annotations

import uuid

import httpx
import pytest

from services.memory_upserter.commit.capture import restated
from services.memory_upserter.commit.turn import PendingTodo, TodoRow
from tests.memory_upserter.conftest import commit, later, rows, turn

DECK = PendingTodo("00000000-0000-0000-0000-0000000000d1", "Send marta the q2 deck", "REMINDER")
MILK = PendingTodo("00000000-0000-0000-0000-0000000000d2", "Buy milk", "COMMITMENT")
RUN = PendingTodo("00000000-0000-0000-0000-0000000000d3", "Run 5k", "HABIT")


def _todo(text: str) -> TodoRow:
    return TodoRow(uuid.uuid4(), "COMMITMENT", text, None, None, None)


@pytest.mark.pure
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Send the Q2 deck to Marta Reis", DECK),  # longer wording of the same errand
        ("send Marta the deck", DECK),  # shorter, every word in the pending one
        ("Sending marta the q2 decks", DECK),  # inflections aside
        ("Send Pedro the q2 deck", None),  # another person: not every word is there
        ("Buy oat milk", MILK),
        ("milk", None),  # one word is too little to call it a restatement
        ("Run 5k", None),  # habits repeat by nature: never folded
        ("Send marta the q2 deck", None),  # the same text is CAPTURE's, not a restatement
    ],
)
def test_a_restatement_is_every_content_word_of_the_shorter_wording(
    text: str, expected: PendingTodo | None
) -> None:
    assert restated(_todo(text), [DECK, MILK, RUN]) == expected


async def test_the_model_restating_the_judges_todo_leaves_one_todo_to_close(
    client: httpx.AsyncClient, resources, user_id: str
) -> None:
    await commit(client, turn(user_id, "remind me to send marta the q2 deck tomorrow morning"))
    plan = {
        "todos": [
            {"kind": "COMMITMENT", "text": "Send the Q2 deck to Marta Reis", "due": "2026-01-08"}
        ]
    }
    answer = await commit(client, turn(user_id, "the work one", plan=plan, at=later(1)))
    assert [t["outcome"] for t in answer["todos"]] == ["unchanged"]  # the pending one, reworded
    pending = await rows(
        resources, "SELECT text FROM todos WHERE user_id = $1 AND status = 'PENDING'", user_id
    )
    assert [p["text"] for p in pending] == ["Send the Q2 deck to Marta Reis"]
    done = {"done": ["Send the Q2 deck to Marta Reis"]}
    await commit(client, turn(user_id, "sent marta the deck, done", plan=done, at=later(60)))
    left = await rows(
        resources, "SELECT status FROM todos WHERE user_id = $1 ORDER BY created_at", user_id
    )
    assert [r["status"] for r in left] == ["DONE"]
