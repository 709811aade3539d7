"""The chat-model client against a respx-mocked OpenAI-compatible endpoint."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import httpx
import pytest
import respx

from services.core.llm import LLM, LLMMalformedOutput, LLMUnavailable, open_llm

BASE_URL = "http://llm.test/v1"
SCHEMA = {
    "type": "object",
    "properties": {"facts": {"type": "array", "items": {"type": "string"}}},
    "required": ["facts"],
    "additionalProperties": False,
}


def completion(content: str | None, *, refusal: str | None = None) -> dict:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "test-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": refusal},
                "finish_reason": "stop",
            }
        ],
    }


@pytest.fixture
async def llm() -> AsyncIterator[LLM]:
    client = open_llm(
        base_url=BASE_URL, api_key="sk-test", model="test-model", timeout=5.0, max_retries=0
    )
    assert client is not None
    yield client
    await client.close()


async def extract(llm: LLM, budget_s: float = 5.0) -> dict:
    return await llm.complete_json(
        system="Extract facts.",
        user="My sister Marta lives in Lisbon.",
        schema=SCHEMA,
        schema_name="facts",
        timeout=budget_s,
    )


async def test_complete_json_returns_the_parsed_object(llm: LLM) -> None:
    async with respx.mock(base_url=BASE_URL, assert_all_called=True) as router:
        route = router.post("/chat/completions").mock(
            return_value=httpx.Response(200, json=completion('{"facts": ["sister Marta"]}'))
        )
        assert await extract(llm) == {"facts": ["sister Marta"]}
    request = route.calls.last.request
    body = json.loads(request.content)
    assert body["model"] == "test-model"
    assert body["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "facts", "schema": SCHEMA, "strict": True},
    }
    assert body["messages"] == [
        {"role": "system", "content": "Extract facts."},
        {"role": "user", "content": "My sister Marta lives in Lisbon."},
    ]
    assert request.headers["authorization"] == "Bearer sk-test"


async def test_chat_returns_the_plain_reply(llm: LLM) -> None:
    messages = [{"role": "user", "content": "Hello"}]
    async with respx.mock(base_url=BASE_URL) as router:
        route = router.post("/chat/completions").mock(
            return_value=httpx.Response(200, json=completion("Hi there."))
        )
        assert await llm.chat(messages, timeout=5.0) == "Hi there."
    body = json.loads(route.calls.last.request.content)
    assert body["messages"] == messages
    assert "response_format" not in body


@pytest.mark.parametrize(
    "reply",
    [
        completion("not json at all"),
        completion('{"facts": ['),  # cut off mid-object
        completion('["a", "b"]'),  # JSON, but not an object
        completion(None, refusal="I can't help with that."),
        {**completion("{}"), "choices": []},
    ],
    ids=["prose", "truncated", "array", "refusal", "no-choices"],
)
async def test_unusable_output_raises_malformed(llm: LLM, reply: dict) -> None:
    async with respx.mock(base_url=BASE_URL) as router:
        router.post("/chat/completions").mock(return_value=httpx.Response(200, json=reply))
        with pytest.raises(LLMMalformedOutput):
            await extract(llm)


@pytest.mark.parametrize(
    "effect",
    [httpx.ReadTimeout("read timed out"), httpx.ConnectTimeout("connect timed out")],
    ids=["read-timeout", "connect-timeout"],
)
async def test_timeouts_raise_unavailable(llm: LLM, effect: Exception) -> None:
    async with respx.mock(base_url=BASE_URL) as router:
        router.post("/chat/completions").mock(side_effect=effect)
        with pytest.raises(LLMUnavailable):
            await extract(llm)


@pytest.mark.parametrize("status", [500, 503, 429, 401])
async def test_error_statuses_raise_unavailable_with_the_status(llm: LLM, status: int) -> None:
    async with respx.mock(base_url=BASE_URL) as router:
        router.post("/chat/completions").mock(
            return_value=httpx.Response(status, json={"error": {"message": "nope"}})
        )
        with pytest.raises(LLMUnavailable) as caught:
            await extract(llm)
    assert caught.value.status_code == status


async def test_the_timeout_bounds_a_stalled_endpoint(llm: LLM) -> None:
    answered: list[str] = []

    async def stall(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(5)
        answered.append("late")
        return httpx.Response(200, json=completion("{}"))

    # The call is cancelled inside the side effect, so respx never records it as made.
    async with respx.mock(base_url=BASE_URL, assert_all_called=False) as router:
        router.post("/chat/completions").mock(side_effect=stall)
        with pytest.raises(LLMUnavailable):
            await extract(llm, budget_s=0.2)
    assert answered == []  # cancelled at the budget: the 5 s answer never came


async def test_a_retry_after_a_transient_error_succeeds_within_the_budget() -> None:
    llm = open_llm(base_url=BASE_URL, api_key="k", model="m", timeout=5.0, max_retries=1)
    assert llm is not None
    async with respx.mock(base_url=BASE_URL) as router:
        route = router.post("/chat/completions").mock(
            side_effect=[
                httpx.Response(503, headers={"retry-after-ms": "10"}),
                httpx.Response(200, json=completion('{"facts": []}')),
            ]
        )
        assert await extract(llm) == {"facts": []}
    assert route.call_count == 2
    await llm.close()


def test_open_llm_without_endpoint_or_key_returns_none() -> None:
    assert open_llm(base_url=None, api_key=None, model="m", timeout=5.0) is None
    assert open_llm(base_url="", api_key="", model="m", timeout=5.0) is None


async def test_open_llm_with_only_a_local_endpoint_needs_no_key() -> None:
    llm = open_llm(base_url=BASE_URL, api_key=None, model="llama3", timeout=5.0, max_retries=0)
    assert llm is not None
    async with respx.mock(base_url=BASE_URL) as router:
        route = router.post("/chat/completions").mock(
            return_value=httpx.Response(200, json=completion("ok"))
        )
        assert await llm.chat([{"role": "user", "content": "ping"}], timeout=1.0) == "ok"
    assert json.loads(route.calls.last.request.content)["model"] == "llama3"
    await llm.close()
