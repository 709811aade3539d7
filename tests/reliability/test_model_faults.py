"""The model endpoint timing out, failing, or answering garbage (respx: the one mocked seam).

reflection-writer: a model that gives no answer leaves the session unconsolidated (checkpoint
unmoved, lease released, no episode) and the next run completes it; a model that answers
something other than a reflection gets the offline engine's draft (``offline_fallback``, the
documented malformed-output policy). memory-upserter: the shadow judge falls back to the
offline extractor and says so in ``warnings``; the turn is committed either way.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
import respx

from services.core.deps import Clients
from services.core.llm import open_llm
from tests.reflection_writer.conftest import completion, model_draft
from tests.reliability.helpers import commit_body, later, rows, value

LLM_URL = "http://llm.reliability.test/v1"
COMPLETIONS = "/chat/completions"

NO_ANSWER = {
    "timeout": httpx.ReadTimeout("model took too long"),
    "refused": httpx.ConnectError("connection refused"),
    "503": httpx.Response(503, json={"error": {"message": "overloaded"}}),
    "html body": httpx.Response(
        200, text="<html>502 Bad Gateway</html>", headers={"content-type": "text/html"}
    ),
    "truncated json": httpx.Response(
        200, text='{"id": "x", "choices": [', headers={"content-type": "application/json"}
    ),
}
NOT_A_REFLECTION = {
    "prose": completion("Sure! Here is a reflection: the user was busy."),
    "json list": completion([1, 2, 3]),
    "wrong object": completion({"answer": 42}),
}


@pytest.fixture
async def with_model(throwaway: Clients) -> AsyncIterator[Clients]:
    llm = open_llm(
        base_url=LLM_URL, api_key="sk-test", model="test-model", timeout=2.0, max_retries=0
    )
    yield throwaway.replace(llm=llm)
    await llm.close()


async def _session(node, res: Clients, user_id: str) -> str:
    async with node("memory-upserter", res) as client:
        for i, text in enumerate(
            [
                "I skipped the gym because work ran late.",
                "My sister Marta visits on Saturday.",
                "I'll clean the kitchen tomorrow.",
            ]
        ):
            answer = await client.post(
                "/v1/commit", json=commit_body(user_id, text, plan={}, at=later(i))
            )
            assert answer.status_code == 200, answer.text
    return await value(res, "SELECT session_id::text FROM sessions WHERE user_id = $1", user_id)


async def _state(res: Clients, session_id: str) -> dict:
    [state] = await rows(
        res,
        """SELECT checkpoint_message_seq, locked_until, locked_by,
                                        needs_consolidation,
                                        (SELECT count(*) FROM episodes e
                                          WHERE e.session_id = s.session_id) AS episodes
                                   FROM sessions s WHERE session_id = $1::uuid""",
        session_id,
    )
    return state


@pytest.mark.parametrize("fault", list(NO_ANSWER))
async def test_a_model_that_gives_no_answer_leaves_the_session_for_the_next_run(
    node, with_model: Clients, user_id: str, fault: str
) -> None:
    session_id = await _session(node, with_model, user_id)
    async with (
        node("reflection-writer", with_model) as client,
        respx.mock(base_url=LLM_URL) as router,
    ):
        router.post(COMPLETIONS).mock(side_effect=[NO_ANSWER[fault]])
        down = await client.post("/v1/consolidate", json={"session_id": session_id})
        assert down.status_code == 200, down.text
        assert [s["reason"] for s in down.json()["skipped"]] == ["model_unavailable"]
        state = await _state(with_model, session_id)
        assert state["episodes"] == 0 and state["needs_consolidation"]
        assert not state["checkpoint_message_seq"] and state["locked_by"] is None

        router.post(COMPLETIONS).mock(
            return_value=httpx.Response(200, json=completion(model_draft(evidence=[])))
        )
        back = await client.post("/v1/consolidate", json={"session_id": session_id})
        assert back.status_code == 200, back.text
        [done] = back.json()["sessions"]
        assert done["status"] == "created" and done["engine"] == "llm"
    state = await _state(with_model, session_id)
    assert state["episodes"] == 1 and not state["needs_consolidation"]


@pytest.mark.parametrize("answer", list(NOT_A_REFLECTION))
async def test_a_model_answer_that_is_no_reflection_gets_the_offline_draft(
    node, with_model: Clients, user_id: str, answer: str
) -> None:
    session_id = await _session(node, with_model, user_id)
    async with (
        node("reflection-writer", with_model) as client,
        respx.mock(base_url=LLM_URL) as router,
    ):
        router.post(COMPLETIONS).mock(
            return_value=httpx.Response(200, json=NOT_A_REFLECTION[answer])
        )
        done = await client.post("/v1/consolidate", json={"session_id": session_id})
    assert done.status_code == 200, done.text
    [episode] = done.json()["sessions"]
    assert episode["engine"] == "offline_fallback" and episode["status"] == "created"
    [stored] = await rows(
        with_model, "SELECT reflection FROM episodes WHERE session_id = $1::uuid", session_id
    )
    assert "Marta" in stored["reflection"] or "gym" in stored["reflection"]


@pytest.mark.parametrize("fault", [*NO_ANSWER, *NOT_A_REFLECTION])
async def test_the_shadow_judge_falls_back_to_the_offline_extractor_and_says_so(
    node, with_model: Clients, user_id: str, fault: str
) -> None:
    reply = NO_ANSWER.get(fault) or httpx.Response(200, json=NOT_A_REFLECTION[fault])
    async with (
        node("memory-upserter", with_model) as client,
        respx.mock(base_url=LLM_URL) as router,
    ):
        router.post(COMPLETIONS).mock(side_effect=[reply])
        answer = await client.post(
            "/v1/commit",
            json=commit_body(
                user_id, "My sister Marta lives in Lisbon. Remind me to call her on Friday."
            ),
        )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["plan_source"] == "offline_extractor"
    assert "judge_fallback" in [w["code"] for w in body["warnings"]]
    assert body["todos"], "the offline extractor still captured the reminder"
    logged = await rows(with_model, "SELECT role FROM messages WHERE user_id = $1", user_id)
    assert len(logged) == 2
