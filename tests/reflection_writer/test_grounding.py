"""The grounding check: Evidence only as the user stated it, no invented causality."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import respx

from contracts.reflection import ConsolidateRequest
from contracts.reflection_draft import EvidenceLine, Reflection
from services.core.deps import Clients
from services.reflection_writer.consolidate import consolidate
from services.reflection_writer.grounding import GROUNDING_THRESHOLD, ground, overlap
from services.reflection_writer.model import Message

from .conftest import GYM_SESSION, LLM_URL, T0, Log, completion, model_draft, slow_brain

TS = datetime(2026, 1, 3, tzinfo=UTC)
USER = Message(
    "m-user",
    1,
    "user",
    "I skipped the gym again because work ran late, so I'm pretty stressed.",
    TS,
)
PLAIN = Message("m-plain", 2, "user", "My sister Marta is visiting on Saturday.", TS)
AFTER = Message("m-after", 3, "user", "I slept much better after the long walk.", TS)
AGENT = Message("m-agent", 4, "assistant", "You skipped the gym because work ran late.", TS)
MESSAGES = [USER, PLAIN, AFTER, AGENT]


@pytest.mark.parametrize(
    ("text", "cited", "reason"),
    [
        ("I skipped the gym again because work ran late", "m-user", None),
        ("User said they skipped the gym because work ran late.", "m-user", None),
        ("User skipped the gym since work ran late", "m-user", None),
        ("Slept better after the long walk", "m-after", None),
        ("User skipped the gym because they hate their trainer", "m-user", "not_in_message"),
        ("Marta is visiting because the user is stressed", "m-plain", "no_stated_link"),
        ("User slept better because of the long walk", "m-after", "invented_causality"),
        ("You skipped the gym because work ran late", "m-agent", "not_a_user_message"),
        ("I skipped the gym because work ran late", "m-missing", "unknown_message"),
    ],
    ids=[
        "quote",
        "near-quote",
        "synonym-link",
        "temporal",
        "invented-reason",
        "no-link",
        "after-is-not-because",
        "agent-message",
        "unknown-id",
    ],
)
def test_an_evidence_line_is_kept_only_when_the_cited_user_message_states_it(
    text: str, cited: str, reason: str | None
) -> None:
    grounded = ground(Reflection(evidence=[EvidenceLine(text=text, message_id=cited)]), MESSAGES)
    if reason is None:
        assert grounded.kept == 1 and grounded.dropped_evidence == []
    else:
        assert grounded.kept == 0
        assert [d.reason for d in grounded.dropped_evidence] == [reason]


def test_containment_counts_content_stems_not_reporting_words() -> None:
    assert overlap("User mentioned that they skipped the gym", USER.text) == 1.0
    assert overlap("gym trainer contract cancelled", USER.text) < GROUNDING_THRESHOLD
    assert overlap("", USER.text) == 0.0


def test_an_observation_claiming_a_cause_nobody_stated_is_dropped() -> None:
    reflection = Reflection(
        observation=[
            "Marta is visiting because she misses the user.",
            "Marta is visiting on Saturday.",
            "Work ran late so the gym was skipped.",
        ]
    )
    grounded = ground(reflection, MESSAGES)
    assert grounded.reflection.observation == [
        "Marta is visiting on Saturday.",
        "Work ran late so the gym was skipped.",
    ]
    assert [d.reason for d in grounded.dropped_observations] == ["invented_causality"]


async def test_the_model_path_drops_an_invented_evidence_line_and_keeps_a_true_one(
    with_llm: Clients, log: Log, user_id: str
) -> None:
    s = await log.session(user_id, GYM_SESSION)
    answer = model_draft(
        evidence=[
            {"text": "User skipped the gym because work ran late.", "message_id": s.message_ids[0]},
            {
                "text": "User skipped the gym because they dislike their trainer.",
                "message_id": s.message_ids[0],
            },
            {
                "text": "Marta is visiting because the user feels lonely.",
                "message_id": s.message_ids[2],
            },
            {"text": "no id"},
        ],
        psyche=[
            {
                "kind": "value",
                "text": "Family matters to the user.",
                "message_ids": [s.message_ids[6], "not-a-message"],
                "confidence": 0.9,
            }
        ],
    )
    async with respx.mock(base_url=LLM_URL, assert_all_called=True) as router:
        route = router.post("/chat/completions").mock(
            return_value=httpx.Response(200, json=completion(answer))
        )
        result = await consolidate(
            slow_brain(with_llm), ConsolidateRequest(user_id=user_id, now=T0 + timedelta(hours=1))
        )

    [done] = result.sessions
    assert (done.engine, done.evidence_kept, done.evidence_dropped) == ("llm", 1, 3)
    body = json.loads(route.calls.last.request.content)
    assert body["response_format"]["json_schema"]["strict"] is True
    prompt = body["messages"][1]["content"]
    assert f"[{s.message_ids[0]}] user: Morning. I skipped the gym" in prompt
    [row] = await log.fetch("SELECT * FROM episodes WHERE user_id = $1", user_id)
    assert row["reflection_json"]["evidence"] == [
        {"text": "User skipped the gym because work ran late.", "message_id": s.message_ids[0]}
    ]
    assert [d["reason"] for d in row["provenance"]["dropped_evidence"]] == [
        "not_in_message",
        "no_stated_link",
    ]
    assert row["reflection_json"]["hypothesis"]["confidence"] == 0.5
    assert "Hypothesis (unverified, confidence 0.50)" in row["reflection"]
    assert row["summary"]["one_liner"] == "Gym skipped over work; sister Marta visiting Saturday."
    [psyche] = await log.fetch(
        "SELECT confidence::float8, provenance_message_ids FROM relations"
        " WHERE user_id = $1 AND memory_type = 'PSYCHE'",
        user_id,
    )
    assert psyche[0] == 0.5 and psyche[1] == [s.message_ids[6]]
