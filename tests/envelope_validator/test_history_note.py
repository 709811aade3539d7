"""A recalled turn reads as history ("superseded: a later message on this topic is listed before
this one") only while the later turn rag-gate ranked before it is still listed: when the recent
turns replay that later turn (so it is left out of RELEVANT MEMORIES), the note would point at
nothing and appeared alone on an ordinary turn."""

from __future__ import annotations

import json
from typing import Any

from services.envelope_validator import lines
from services.envelope_validator.logic import build

from .samples import full_body, request

NEWER, OLDER = "00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b"


def _turn(message_id: str, text: str, day: int, **details: float) -> dict[str, Any]:
    return {
        "message_id": message_id, "ts": f"2026-01-0{day}T10:00:00Z", "role": "user",
        "text": text, "score": 0.03, "score_details": {"fused": 0.03, **details},
        "provenance": {"row_id": message_id, "source": "message"},
    }  # fmt: skip


def _recalled(replayed: list[dict[str, Any]]) -> list[dict[str, Any]]:
    body = full_body(recent_turns=replayed)
    body["EPISODE"]["turns"] = [
        _turn(NEWER, "the audit deadline moved to may 10", 2),
        _turn(OLDER, "the audit deadline is may 3", 1, newer_on_topic=1.0),
    ]
    system = build(request(body), request(body).now).messages[0].content
    said = [json.loads(x) for x in system.splitlines() if x.startswith('{"when"')]
    return [x for x in said if "said_by" in x]


def test_the_note_stays_while_the_later_turn_is_listed_before_it() -> None:
    shown = _recalled([])
    assert [(x["text"], x.get("history")) for x in shown] == [
        ("the audit deadline moved to may 10", None),
        ("the audit deadline is may 3", lines.HISTORY),
    ]


def test_no_note_when_the_recent_turns_replay_the_later_turn() -> None:
    shown = _recalled([{"role": "user", "text": "the audit deadline moved to may 10"}])
    assert [(x["text"], x.get("history")) for x in shown] == [("the audit deadline is may 3", None)]
