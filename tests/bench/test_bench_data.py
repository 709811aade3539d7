"""Reading LoCoMo (bench/recall/data.py) on a tiny hand-made sample."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench.recall import data

SAMPLE = [
    {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bo",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "Hi Bo!"},
                {
                    "speaker": "Bo",
                    "dia_id": "D1:2",
                    "text": "Look at this.",
                    "img_url": ["http://x"],
                    "blip_caption": "a photo of a dog",
                },
            ],
            "session_2_date_time": "12:09 am on 13 September, 2023",
            "session_2": [{"speaker": "Ann", "dia_id": "D2:1", "text": "Back again."}],
            "session_3_date_time": "1:00 pm on 14 September, 2023",
            "session_3": [],
        },
        "qa": [
            {"question": "q1", "answer": "a", "evidence": ["D1:2"], "category": 4},
            {"question": "q2", "answer": 2023, "evidence": ["D1:1; D2:1", "D7:7"], "category": 1},
            {"question": "q3", "adversarial_answer": "none", "evidence": ["D1:1"], "category": 5},
            {"question": "q4", "answer": "x", "evidence": ["D9:1"], "category": 2},
        ],
    }
]


@pytest.fixture
def conversation(tmp_path: Path) -> data.Conversation:
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps(SAMPLE))
    (conv,) = data.load(path)
    return conv


def test_parse_date() -> None:
    assert data.parse_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert data.parse_date("12:09 am on 13 September, 2023") == datetime(
        2023, 9, 13, 0, 9, tzinfo=UTC
    )
    assert data.parse_date("12:30 pm on 1 June, 2023").hour == 12
    with pytest.raises(ValueError):
        data.parse_date("yesterday")


def test_sessions_turns_and_clock(conversation: data.Conversation) -> None:
    assert conversation.speakers == ("Ann", "Bo")
    assert [s.number for s in conversation.sessions] == [1, 2]  # the empty session is skipped
    first = conversation.sessions[0]
    assert [t.dia_id for t in first.turns] == ["D1:1", "D1:2"]
    assert first.turns[1].ts - first.turns[0].ts == data.TURN_SPACING
    assert first.turns[1].content == "Look at this. [shares a photo: a photo of a dog]"
    assert data.indexed_text(first.turns[1], first) == (
        "[1:56 pm on 8 May, 2023] Bo: Look at this. [shares a photo: a photo of a dog]"
    )
    assert conversation.end == conversation.sessions[1].turns[0].ts


def test_questions_keep_resolvable_evidence_only(conversation: data.Conversation) -> None:
    q1, q2, q3, q4 = conversation.questions
    assert q2.evidence == ("D1:1", "D2:1") and q2.answer == "2023"
    assert q3.answer == "none" and q4.evidence == ()
    scored = data.scored_questions(conversation)
    assert [q.qid for q in scored] == ["conv-x#0", "conv-x#1"]  # no category 5, no evidence-less
