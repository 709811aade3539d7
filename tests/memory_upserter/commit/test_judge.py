"""The shadow judge through the configured LLM (respx-mocked endpoint) and its fallbacks."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import httpx
import msgspec
import pytest
import respx

from services.core.app import create_app
from services.core.deps import Clients
from services.core.llm import open_llm
from services.core.settings import Settings
from services.memory_upserter.app import SPEC
from tests.memory_upserter.conftest import commit, later, rows, turn

BASE_URL = "http://llm.test/v1"
PLAN = {
    "entities": [
        {"name": "Lisbon", "category": "Location", "aliases": [], "scope": "global", "hint": None}
    ],
    "facts": [
        {
            "memory_type": "PROFILE",
            "subject": "user",
            "predicate": "LIVES_IN",
            "object": "Lisbon",
            "value": None,
            "text": "User lives in Lisbon",
            "fact_type": "fact",
            "importance": 2,
            "pinned": False,
            "confidence": 0.9,
            "scope": "global",
        }
    ],
    "todos": [],
    "complete_commitment": False,
    "promote_affect": {"label": "happy", "user_statement": "I live in Lisbon"},
    "forget": ["everything"],
}


def completion(content: str) -> dict:
    return {
        "id": "c1",
        "object": "chat.completion",
        "created": 0,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": content},
            }
        ],
    }


@pytest.fixture
async def judged(
    settings: Settings, resources: Clients, app_client
) -> AsyncIterator[httpx.AsyncClient]:
    llm = open_llm(base_url=BASE_URL, api_key="sk-test", model="m", timeout=5.0, max_retries=0)
    # the judge's budget: short enough for the stall test, long enough that a loaded CI machine
    # (load 10+) never turns a mocked answer into a fallback (0.5 s did, under xdist)
    quick = msgspec.structs.replace(settings, llm_timeout_s=3.0)
    with_llm = resources.replace(llm=llm, settings=quick)
    async with app_client(create_app(SPEC, quick, with_llm)) as client:
        yield client
    await llm.close()


async def test_the_models_plan_is_used_without_affect_or_forgetting(
    judged: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    async with respx.mock(base_url=BASE_URL, assert_all_called=True) as router:
        route = router.post("/chat/completions").mock(
            return_value=httpx.Response(200, json=completion(json.dumps(PLAN)))
        )
        await commit(
            judged, turn(user_id, "I was in Porto before.", reply="Nice!", plan={}, at=later(-30))
        )
        answer = await commit(judged, turn(user_id, "I live in Lisbon now", reply="Cool"))
    assert answer["plan_source"] == "llm_judge" and answer["warnings"] == []
    assert [(f["predicate"], f["outcome"]) for f in answer["facts"]] == [("LIVES_IN", "created")]
    assert answer["forgotten"] == {}
    (row,) = await rows(
        resources, "SELECT source, predicate FROM relations WHERE user_id = $1", user_id
    )
    assert row == {"source": "shadow_extraction", "predicate": "LIVES_IN"}
    body = json.loads(route.calls.last.request.content)
    assert body["response_format"]["json_schema"]["name"] == "memory_write_plan"
    assert body["response_format"]["json_schema"]["strict"] is True
    prompt = json.loads(body["messages"][1]["content"])
    assert prompt["new"] == [{"speaker": "the person", "text": "I live in Lisbon now"}]
    assert prompt["earlier"] == [{"speaker": "the person", "text": "I was in Porto before."}]
    assert "Nice!" not in body["messages"][1]["content"]  # never the assistant's words


async def test_a_model_that_times_out_falls_back_to_the_offline_extractor(
    judged: httpx.AsyncClient, user_id: str
) -> None:
    async def stall(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(30)
        return httpx.Response(200, json=completion("{}"))

    async with respx.mock(base_url=BASE_URL, assert_all_called=False) as router:
        router.post("/chat/completions").mock(side_effect=stall)
        answer = await commit(judged, turn(user_id, "Remind me to call Mom tomorrow"))
    assert answer["plan_source"] == "offline_extractor"
    assert [w["code"] for w in answer["warnings"]] == ["judge_fallback"]
    assert [t["text"] for t in answer["todos"]] == ["Call Mom"]


@pytest.mark.parametrize(
    "content",
    [
        "Sure! The user lives in Lisbon.",
        json.dumps({**PLAN, "facts": [{**PLAN["facts"][0], "importance": 9}]}),
    ],
    ids=["prose", "schema-violation"],
)
async def test_a_malformed_answer_falls_back_to_the_offline_extractor(
    judged: httpx.AsyncClient, user_id: str, content: str
) -> None:
    async with respx.mock(base_url=BASE_URL) as router:
        router.post("/chat/completions").mock(
            return_value=httpx.Response(200, json=completion(content))
        )
        answer = await commit(judged, turn(user_id, "I live in Lisbon"))
    assert answer["plan_source"] == "offline_extractor"
    assert [w["code"] for w in answer["warnings"]] == ["judge_fallback"]
    assert [f["text"] for f in answer["facts"]] == ["User lives in Lisbon"]


async def test_an_error_status_falls_back_too(judged: httpx.AsyncClient, user_id: str) -> None:
    async with respx.mock(base_url=BASE_URL) as router:
        router.post("/chat/completions").mock(return_value=httpx.Response(503))
        answer = await commit(judged, turn(user_id, "I'm vegetarian"))
    assert answer["plan_source"] == "offline_extractor"
    assert "did not answer" in answer["warnings"][0]["detail"]
    assert [f["predicate"] for f in answer["facts"]] == ["DIET"]


async def test_a_retried_turn_does_not_ask_the_model_again(
    judged: httpx.AsyncClient, user_id: str
) -> None:
    body = turn(user_id, "I live in Lisbon")
    async with respx.mock(base_url=BASE_URL) as router:
        route = router.post("/chat/completions").mock(
            return_value=httpx.Response(200, json=completion(json.dumps(PLAN)))
        )
        first = await commit(judged, body)
        again = await commit(judged, body)
    assert again == first and route.call_count == 1


HALLUCINATED = {
    "entities": [
        {
            "name": "Berlin",
            "category": "Location",
            "aliases": [],
            "scope": "global",
            "hint": None,
            "distinct_from": None,
        }
    ],
    "facts": [
        {
            "memory_type": "PROFILE",
            "subject": "user",
            "predicate": "LIVES_IN",
            "object": "Berlin",
            "value": None,
            "text": "User lives in Berlin",
            "fact_type": "fact",
            "importance": 2,
            "pinned": False,
            "confidence": 0.9,
            "scope": "global",
            "valid_from": None,
            "valid_to": None,
        },
        {
            "memory_type": "PROFILE",
            "subject": "user",
            "predicate": "JOB_TITLE",
            "object": None,
            "value": "nurse",
            "text": "User works as a nurse",
            "fact_type": "fact",
            "importance": 2,
            "pinned": False,
            "confidence": 0.9,
            "scope": "global",
            "valid_from": None,
            "valid_to": None,
        },
        {
            "memory_type": "PROFILE",
            "subject": "user",
            "predicate": "ALLERGY",
            "object": None,
            "value": "peanuts",
            "text": "User is allergic to peanuts",
            "fact_type": "fact",
            "importance": 3,
            "pinned": False,
            "confidence": 0.9,
            "scope": "global",
            "valid_from": None,
            "valid_to": None,
        },
    ],
    "todos": [],
    "complete_commitment": False,
    "promote_affect": None,
    "forget": [],
}


async def test_a_judged_fact_whose_value_the_person_never_said_is_dropped_and_named(
    judged: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    async with respx.mock(base_url=BASE_URL, assert_all_called=True) as router:
        router.post("/chat/completions").mock(
            return_value=httpx.Response(200, json=completion(json.dumps(HALLUCINATED)))
        )
        answer = await commit(
            judged, turn(user_id, "I'm a nurse and peanuts make me sick.", reply="Noted")
        )
    assert answer["plan_source"] == "llm_judge"
    assert sorted(f["predicate"] for f in answer["facts"]) == ["ALLERGY", "JOB_TITLE"]
    (dropped,) = [w for w in answer["warnings"] if w["code"] == "fact_not_grounded"]
    assert "LIVES_IN" in dropped["detail"] and "User lives in Berlin" in dropped["detail"]
    stored = await rows(resources, "SELECT predicate FROM relations WHERE user_id = $1", user_id)
    assert sorted(r["predicate"] for r in stored) == ["ALLERGY", "JOB_TITLE"]


async def test_the_judges_context_window_grounds_a_fact_too(
    judged: httpx.AsyncClient, user_id: str
) -> None:
    lisbon = {
        **HALLUCINATED,
        "entities": [],
        "facts": [{**HALLUCINATED["facts"][0], "object": "Lisbon", "text": "User lives in Lisbon"}],
    }
    async with respx.mock(base_url=BASE_URL, assert_all_called=False) as router:
        router.post("/chat/completions").mock(
            side_effect=[
                httpx.Response(200, json=completion(json.dumps({**HALLUCINATED, "facts": []}))),
                httpx.Response(200, json=completion(json.dumps(lisbon))),
            ]
        )
        await commit(judged, turn(user_id, "I grew up near Lisbon.", reply="Nice", at=later(-5)))
        answer = await commit(judged, turn(user_id, "Yes, that's where I live.", reply="Ok"))
    assert [f["text"] for f in answer["facts"]] == ["User lives in Lisbon"]
    assert not [w for w in answer["warnings"] if w["code"] == "fact_not_grounded"]


async def test_a_hallucinated_fact_in_the_flows_answer_is_dropped_too(
    judged: httpx.AsyncClient, user_id: str
) -> None:
    answer = await commit(
        judged,
        turn(
            user_id,
            "I'm a nurse.",
            reply=None,
            answer=json.dumps({"reply": "Nice!", "plan": HALLUCINATED}),
        ),
    )
    assert answer["plan_source"] == "answer"
    assert [f["predicate"] for f in answer["facts"]] == ["JOB_TITLE"]
    dropped = [w["detail"] for w in answer["warnings"] if w["code"] == "fact_not_grounded"]
    assert len(dropped) == 2 and any("peanuts" in d for d in dropped)
