"""``twin chat``: a conversation through the five real fast-brain and write nodes.

The nodes run in this process on the run's real Postgres, Redis and Qdrant Edge; the
playground reaches each by its own base URL (httpx mounts stand in for the ports). Only the
model endpoint is mocked, with respx.
"""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import respx

from services.core.app import create_app
from services.core.llm import open_llm
from services.core.nodes import node_spec
from services.core.resources import Resources
from services.core.settings import Settings
from services.playground.offline import offline_reply
from services.playground.terminal import _loop, node_urls
from services.playground.turn import ROUTES, Conversation, NodeError

T0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
MODEL_URL = "http://model.test/v1"


@pytest.fixture
async def nodes(settings: Settings, resources: Resources, app_client
                ) -> AsyncIterator[httpx.AsyncClient]:
    """One client whose requests to http://<node> reach that node's app."""
    async with AsyncExitStack() as stack:
        mounts = {}
        for node in ROUTES:
            app = create_app(node_spec(node), settings, resources)
            await stack.enter_async_context(app_client(app))  # runs the app's lifespan
            mounts[f"http://{node}"] = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(mounts=mounts) as client:
            yield client


def conversation(client: httpx.AsyncClient, user_id: str, **extra) -> Conversation:
    return Conversation(client=client, base_urls={n: f"http://{n}" for n in ROUTES},
                        user_id=user_id, agent_id="deanna", chat_id=f"play:{user_id}", **extra)


async def test_offline_the_memory_written_in_one_turn_comes_back_in_a_later_one(
        nodes: httpx.AsyncClient, user_id: str) -> None:
    talk = conversation(nodes, user_id)
    first = await talk.say("My sister Marta lives in Lisbon.", now=T0)
    assert first.source == "offline"
    assert first.answers["memory-upserter"]["plan_source"] == "offline_extractor"
    assert any("Lisbon" in f["text"] for f in first.answers["memory-upserter"]["facts"])

    todo = await talk.say("Remind me to call Marta tomorrow.", now=T0 + timedelta(minutes=1))
    assert todo.confirmations == ['✓ Added "Call Marta" to your reminders (due 2026-03-03).']

    later = await talk.say("How is Marta doing?", now=T0 + timedelta(minutes=2))
    assert "Lisbon" in later.reply and "Call Marta" in later.reply
    envelope = later.answers["envelope-validator"]
    assert "Lisbon" in envelope["messages"][0]["content"]  # the model would have been told


async def test_with_a_model_its_answer_is_the_reply_and_its_plan_is_written(
        nodes: httpx.AsyncClient, user_id: str) -> None:
    llm = open_llm(base_url=MODEL_URL, api_key=None, model="test-model", timeout=5)
    answer = {"reply": "Noted, you love climbing.", "plan": {"facts": [{
        "memory_type": "PROFILE", "subject": "user", "predicate": "LIKES",
        "value": "climbing", "text": "The user loves climbing."}]}}
    with respx.mock(base_url=MODEL_URL) as model:
        route = model.post("/chat/completions").respond(json={
            "id": "c1", "object": "chat.completion", "created": 0, "model": "test-model",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {
                "role": "assistant", "content": json.dumps(answer)}}]})

        async def ask(messages: list[dict], response_format: dict) -> str:
            return await llm.chat(messages, 5, response_format)

        exchange = await conversation(nodes, user_id, ask_model=ask).say(
            "I love climbing", now=T0)
    await llm.close()
    sent = json.loads(route.calls.last.request.content)
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["messages"][0]["role"] == "system" and sent["messages"][-1]["role"] == "user"
    assert exchange.source == "model" and exchange.reply == "Noted, you love climbing."
    commit = exchange.answers["memory-upserter"]
    assert commit["plan_source"] == "answer"
    assert [f["text"] for f in commit["facts"]] == ["The user loves climbing."]


async def test_a_refused_turn_names_the_node_and_its_problem(nodes: httpx.AsyncClient) -> None:
    with pytest.raises(NodeError) as refused:
        await conversation(nodes, "@not-a-user").say("hello")
    assert refused.value.node == "pulse-decay" and refused.value.status == 422


async def test_the_terminal_loop_prints_replies_and_shows_what_was_written(
        nodes: httpx.AsyncClient, user_id: str) -> None:
    lines = iter(["My brother Tom lives in Oslo.", "/written", "/envelope", "/quit"])
    out = io.StringIO()
    await _loop(conversation(nodes, user_id), lambda _prompt: next(lines), out, show=False)
    text = out.getvalue()
    assert "deanna> (offline" in text
    assert "-- written" in text and "Oslo" in text.split("-- written")[1]
    assert "-- envelope" in text and "[system]" in text


def test_node_urls_follow_the_port_offset() -> None:
    urls = node_urls(Settings(port_offset=1000, host="0.0.0.0"))
    assert urls["pulse-decay"] == "http://127.0.0.1:9101"
    assert urls["memory-upserter"] == "http://127.0.0.1:9106"


def test_the_offline_reply_lists_what_reached_the_envelope_once() -> None:
    envelope = {"GRAPH": {"relevant_facts": [{"text": "Marta lives in Lisbon."}],
                          "foundation": [{"text": "Marta lives in Lisbon."}],
                          "commitments": [{"text": "call Marta"}]},
                "EPISODE": {"hits": [{"ts": "2026-03-01T10:00:00Z", "day": "2026-03-01",
                                      "one_liner": "Talked about the trip", "reflection": "x"}]}}
    reply = offline_reply(envelope)
    assert reply.count("Marta lives in Lisbon.") == 1
    assert "• to do: call Marta" in reply and "2026-03-01: Talked about the trip" in reply
    assert "Nothing in memory" in offline_reply({"GRAPH": {}})
