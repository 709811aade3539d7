"""A turn is never lost to its length (issue 33 §1): a message over 20,000 characters is stored
cut, with a ``message_cut`` warning naming it; the reply the node sends stays whole."""

from __future__ import annotations

import json

import httpx

from contracts.common import TEXT_MAX
from tests.memory_upserter.conftest import commit, rows, turn


async def test_long_messages_are_stored_cut_with_a_warning_each(
    client: httpx.AsyncClient, resources, user_id: str
) -> None:
    said = "my sister Marta lives in Lisbon. " + "and then we talked about it " * 1_500
    reply = "Here is the whole essay. " * 2_000
    answer = await commit(client, turn(user_id, said, reply=reply))
    cut = [w["detail"].split(":")[0] for w in answer["warnings"] if w["code"] == "message_cut"]
    assert cut == ["$.messages[0].text", "$.messages[1].text"]
    stored = await rows(
        resources, "SELECT role, length(text) AS n FROM messages WHERE user_id = $1", user_id
    )
    assert sorted((m["role"], m["n"]) for m in stored) == [
        ("assistant", TEXT_MAX),
        ("user", TEXT_MAX),
    ]
    facts = await rows(resources, "SELECT text FROM relations WHERE user_id = $1", user_id)
    assert any("Lisbon" in f["text"] for f in facts), facts  # the judge still read the turn


async def test_a_model_answer_of_350k_characters_is_kept_with_its_reply_clipped(
    client: httpx.AsyncClient, user_id: str
) -> None:
    reply = "Here is the whole essay. " * 14_000  # ~350k characters, like BEAM's longest
    body = turn(user_id, "write me an essay", reply=None, answer=json.dumps({"reply": reply}))
    answer = await commit(client, body)
    assert answer["reply"] and reply.startswith(answer["reply"])
    assert any(w["detail"].startswith("$.answer.reply") for w in answer["warnings"])


async def test_a_message_over_the_body_limit_is_a_413_naming_the_limit(
    client: httpx.AsyncClient, user_id: str
) -> None:
    answer = await client.post("/v1/commit", json=turn(user_id, "x" * 1_100_000))
    assert answer.status_code == 413 and "TWIN_MAX_BODY_BYTES" in answer.text
