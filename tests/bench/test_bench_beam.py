"""Reading BEAM (bench/recall/beam.py) and the newer-first tally (bench/recall/updates.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench.recall import beam, data, updates
from bench.recall.metrics import Item

pytestmark = pytest.mark.pure


def _msg(i: int, role: str, text: str, **extra) -> dict:
    return {"role": role, "id": i, "content": f"{text} ->-> 1,{i}", "index": "1,1", **extra}


CHAT = [
    {
        "batch_number": 1,
        "turns": [
            [_msg(0, "user", "My API answers in 400ms.", time_anchor="March-15-2024")],
            [_msg(1, "assistant", "Noted.")],
        ],
    },
    {
        "batch_number": 2,
        "turns": [[_msg(2, "user", "Caching got it to 250ms.", time_anchor="April-05-2024")]],
    },
]
PROBING = {
    "abstention": [{"question": "What is my cat called?", "source_chat_ids": None}],
    "knowledge_update": [
        {
            "question": "How fast is my API?",
            "answer": "250ms",
            "source_chat_ids": {"original_info": [0], "updated_info": [2]},
        }
    ],
    "contradiction_resolution": [
        {
            "question": "Did I cache?",
            "source_chat_ids": {"first_statement": [2], "second_statement": [0]},
        }
    ],
}


@pytest.fixture
def chat(tmp_path: Path) -> data.Conversation:
    (tmp_path / "chat.json").write_text(json.dumps(CHAT))
    (tmp_path / "probing_questions.json").write_text(json.dumps(PROBING))
    return beam.load_chat(tmp_path, "beam-x")


def test_batches_become_dated_sessions_of_role_tagged_turns(chat: data.Conversation) -> None:
    assert [s.number for s in chat.sessions] == [1, 2]
    assert chat.sessions[1].start == datetime(2024, 4, 5, 12, tzinfo=UTC)
    first, reply = chat.sessions[0].turns
    assert (first.dia_id, first.role, first.text) == ("D1:0", "user", "My API answers in 400ms.")
    assert (reply.role, reply.ts > first.ts) == ("assistant", True)


def test_questions_carry_sources_and_which_statement_is_newer(chat: data.Conversation) -> None:
    scored = {q.ability: q for q in data.scored_questions(chat)}
    assert set(scored) == {"knowledge_update", "contradiction_resolution"}  # abstention: none
    update = scored["knowledge_update"]
    assert (update.evidence, update.older, update.newer) == (("D1:0", "D2:2"), ("D1:0",), ("D2:2",))
    # BEAM's "first" statement is the later message here: ordered by position, not by name
    contradiction = scored["contradiction_resolution"]
    assert (contradiction.older, contradiction.newer) == (("D1:0",), ("D2:2",))


def test_newer_first_tally(chat: data.Conversation) -> None:
    def item(*turns: str) -> Item:
        return Item("turn", "", frozenset(turns), 1)

    update = next(q for q in chat.questions if q.ability == "knowledge_update")
    ranked = {
        "newer": {update.qid: [item("D2:2"), item("D1:0")]},
        "older": {update.qid: [item("D1:1"), item("D1:0"), item("D2:2")]},
        "both": {update.qid: [item("D1:0", "D2:2")]},
        "none": {update.qid: [item("D1:1")]},
    }
    got = updates.tally(ranked, [update])
    assert got["newer"]["newer first"] == got["older"]["older first"] == 1
    assert got["both"]["same item"] == got["none"]["neither"] == 1
