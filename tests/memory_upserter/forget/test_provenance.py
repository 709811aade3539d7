"""Forgetting follows provenance, forgets exactly what was asked, and answers honestly.

- a session forgotten with its history takes what memory learned only from it (facts, the
  entities only they named, todos, summary versions) and trims the provenance of what was also
  learned elsewhere, which stays and is named in the receipt's ``remains``;
- an entity forget cuts the sentences naming it out of the messages and out of other chats'
  working memory, and keeps the rest of the conversation;
- a text that matches nothing warns, and a user who never existed gets no audit row.
"""

from __future__ import annotations

import httpx
import pytest

from services.core.deps import Clients
from tests.memory_upserter.conftest import AGENT, commit, fact, later, rows, turn
from tests.memory_upserter.forget.test_forget import forget

SURFING = fact("LIKES", "User likes surfing", value="surfing")
ZECA_PLAN = {
    "entities": [{"name": "Zeca", "category": "Person"}],
    "facts": [
        fact("HAS_COUSIN", "Zeca is the user's cousin", obj="Zeca", memory_type="PEOPLE"),
        SURFING,
    ],
    "todos": [{"kind": "COMMITMENT", "text": "Call Zeca", "due": "tomorrow"}],
}


async def _two_sessions(client: httpx.AsyncClient, user_id: str) -> tuple[dict, dict]:
    """Chat tg:1 learns Zeca, his fact, a todo and surfing; chat tg:2 learns surfing too."""
    first = await commit(
        client,
        turn(user_id, "My cousin Zeca visits. I like surfing.", plan=ZECA_PLAN, chat_id="tg:1"),
    )
    second = await commit(
        client,
        turn(
            user_id,
            "I like surfing, again this weekend!",
            plan={"facts": [SURFING]},
            chat_id="tg:2",
            at=later(5),
        ),
    )
    return first, second


async def _facts(resources: Clients, user_id: str) -> dict[str, dict]:
    found = await rows(
        resources,
        "SELECT text, status, provenance_message_ids FROM relations WHERE user_id = $1",
        user_id,
    )
    return {f["text"]: f for f in found}


@pytest.mark.parametrize("hard", [False, True])
async def test_a_forgotten_session_takes_what_was_learned_only_from_it(
    client: httpx.AsyncClient, resources: Clients, user_id: str, hard: bool
) -> None:
    first, _ = await _two_sessions(client, user_id)
    (cousin,) = [f["fact_id"] for f in first["facts"] if "Zeca" in f["text"]]
    kept_message = await rows(
        resources,
        "SELECT message_id::text FROM messages WHERE chat_id = 'tg:2' AND user_id = $1"
        " AND position = 0",
        user_id,
    )
    answer = await forget(
        client,
        user_id=user_id,
        scope="session",
        agent_id=AGENT,
        chat_id="tg:1",
        include_history=True,
        hard=hard,
    )
    counts = answer["counts"]
    assert (counts["messages"], counts["facts"], counts["entities"], counts["todos"]) == (
        2,
        1,
        1,
        1,
    )
    assert counts["facts_trimmed"] == 1
    facts = await _facts(resources, user_id)
    if hard:
        assert set(facts) == {"User likes surfing"}
    else:
        assert facts["Zeca is the user's cousin"]["status"] == "FORGOTTEN"
    surfing = facts["User likes surfing"]
    assert surfing["status"] == "ACTIVE"
    assert surfing["provenance_message_ids"] == [kept_message[0]["message_id"]]
    zeca = await rows(
        resources, "SELECT active FROM entities WHERE user_id = $1 AND name = 'Zeca'", user_id
    )
    assert zeca == ([] if hard else [{"active": False}])
    assert await rows(resources, "SELECT 1 FROM todos WHERE user_id = $1 AND active", user_id) == []
    remains = {r["where"]: r["what"] for r in answer["receipt"]["remains"]}
    assert remains["relations"].startswith("1 facts also learned from messages that stay")
    await resources.background.drain()
    recalled = await resources.vectors.search(
        "facts", user_id=user_id, agent_id=AGENT, text="Zeca cousin", limit=10
    )
    assert cousin not in {h.id for h in recalled}
    assert (
        "zeca"
        not in repr(
            await rows(
                resources, "SELECT text FROM relations WHERE user_id = $1 AND active", user_id
            )
        ).lower()
    )


async def test_an_entity_named_elsewhere_stays_when_one_session_is_forgotten(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await _two_sessions(client, user_id)
    await commit(
        client,
        turn(
            user_id,
            "Zeca lives in Faro.",
            chat_id="tg:2",
            at=later(9),
            plan={
                "entities": [{"name": "Zeca", "category": "Person"}],
                "facts": [fact("LIVES_IN", "Zeca lives in Faro", subject="Zeca", value="Faro")],
            },
        ),
    )
    answer = await forget(
        client,
        user_id=user_id,
        scope="session",
        agent_id=AGENT,
        chat_id="tg:1",
        include_history=True,
        hard=True,
    )
    assert answer["counts"]["entities_kept"] == 1 and "entities" not in answer["counts"]
    assert [
        r["text"]
        for r in await rows(
            resources, "SELECT text FROM relations WHERE user_id = $1 ORDER BY text", user_id
        )
    ] == ["User likes surfing", "Zeca lives in Faro"]
    assert "entities" in {r["where"] for r in answer["receipt"]["remains"]}


async def test_forgetting_a_person_cuts_her_out_and_keeps_the_conversation(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    plan = {
        "entities": [{"name": "Marta Silva", "category": "Person"}],
        "facts": [fact("WORKS_WITH", "User works with Marta Silva", obj="Marta Silva")],
    }
    await commit(
        client,
        turn(user_id, "I met Marta Silva at work. The project ships Friday.", plan=plan),
    )
    await commit(client, turn(user_id, "Lunch was good.", chat_id="tg:2", at=later(1)))
    await commit(client, turn(user_id, "Marta Silva says hi.", chat_id="tg:2", at=later(2)))
    before = len(await rows(resources, "SELECT 1 FROM messages WHERE user_id = $1", user_id))
    answer = await forget(
        client, user_id=user_id, scope="global", hard=True, targets=[{"entity": "Marta Silva"}]
    )
    assert answer["counts"]["messages"] == 1  # "Marta Silva says hi." had nothing else
    assert answer["counts"]["messages_redacted"] == 1
    texts = [
        r["text"]
        for r in await rows(
            resources, "SELECT text FROM messages WHERE user_id = $1 ORDER BY seq", user_id
        )
    ]
    assert len(texts) == before - 1 and "The project ships Friday." in texts
    assert "Lunch was good." in texts and not [t for t in texts if "marta" in t.lower()]
    other, _ = await resources.memory.load(user_id, AGENT, "tg:2")
    assert other is not None
    assert [t.text for t in other.turns if t.role == "user"] == ["Lunch was good."]
    assert answer["receipt"]["redis_keys_deleted"] == 0


async def test_a_text_that_matches_nothing_warns(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "hello there"))
    answer = await forget(client, user_id=user_id, scope="global", targets=[{"text": "zzqx"}])
    assert not any(answer["counts"].values())
    assert [w["code"] for w in answer["warnings"]] == ["nothing_matched"]


async def test_a_forget_for_a_user_who_never_existed_writes_nothing(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    answer = await forget(
        client, user_id=user_id, scope="global", everything=True, hard=True, reason="x"
    )
    assert [w["code"] for w in answer["warnings"]] == ["unknown_user"]
    assert answer["forget_ids"] == []
    assert await rows(resources, "SELECT 1 FROM forget_log WHERE user_id = $1", user_id) == []
    exported = await client.get("/v1/export", params={"user_id": user_id})
    assert exported.status_code in (200, 404)
    if exported.status_code == 200:
        assert not any(exported.json()["tables"].values())
