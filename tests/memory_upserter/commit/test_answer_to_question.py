"""The offline judge reads a short answer with the question the assistant just asked (issue 28,
round 8): the session's last reply, or an assistant message the request sends before the
person's. Another chat's question, or one from a session that has ended, is no context."""

from __future__ import annotations

import httpx

from services.core.deps import Clients
from tests.memory_upserter.conftest import commit, later, rows, turn

FACTS = "SELECT predicate, text FROM relations WHERE user_id = $1 AND status = 'ACTIVE'"


async def test_an_answer_to_the_last_replys_question_is_a_fact(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "hi!", reply="Nice to meet you! So where do you live?"))
    answer = await commit(client, turn(user_id, "porto, for now", reply="Lovely!", at=later(1)))
    assert answer["plan_source"] == "offline_extractor"
    facts = await rows(resources, FACTS, user_id)
    assert [f["predicate"] for f in facts] == ["LIVES_IN"]
    assert "Porto" in facts[0]["text"]


async def test_an_assistant_message_sent_before_the_answer_is_its_question(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    body = turn(user_id, None, reply=None)
    body["messages"] = [
        {"role": "assistant", "text": "Cute! How long have you been painting?"},
        {"role": "user", "text": "like 10 years now"},
    ]
    await commit(client, body)
    facts = await rows(resources, FACTS, user_id)
    assert [f["predicate"] for f in facts] == ["DOES"]
    assert "painting" in facts[0]["text"]


async def test_another_chats_question_is_no_context(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "hi!", reply="Where do you live?", chat_id="tg:1"))
    await commit(client, turn(user_id, "lisbon", reply="ok", chat_id="tg:2", at=later(1)))
    assert await rows(resources, FACTS, user_id) == []


async def test_a_question_asked_hours_ago_is_no_context(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "hi!", reply="Where do you live?"))
    await commit(client, turn(user_id, "lisbon", reply="ok", at=later(180)))
    assert await rows(resources, FACTS, user_id) == []
