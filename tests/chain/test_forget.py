"""Forgetting through the HTTP chain, as a person meets it: what a conversation taught is told
to a persona with ``/v1/commit`` (no plan: the offline judge), recalled by ``/v1/turn`` in
another chat and by another persona, then forgotten with ``/v1/forget`` — a chat with its
history, one session of it, one message — and ``/v1/turn`` no longer hands the model any of
it, while what was also learned elsewhere stays (soft forgets here, but the chat's: the rule
is one for both, ``tests/memory_upserter/forget/test_provenance.py`` runs each both ways).
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from services.core.deps import Clients
from tests.chain.conversation import T0, ok

AGENT, OTHER = "deanna", "anaketa"


def user() -> str:
    return f"forget-{uuid.uuid4().hex[:8]}"


async def say(nodes, user_id: str, chat: str, text: str, at: datetime) -> dict[str, Any]:
    """One turn committed as the fast brain commits it, with no plan (the offline judge)."""
    return await ok(
        nodes["memory"],
        "/v1/commit",
        {
            "user_id": user_id,
            "agent_id": AGENT,
            "chat_id": chat,
            "turn_id": uuid.uuid4().hex,
            "now": at.isoformat(),
            "messages": [{"role": "user", "text": text}, {"role": "assistant", "text": "Noted."}],
        },
    )


async def turn(nodes, user_id: str, agent: str, text: str, at: datetime) -> dict[str, Any]:
    """``/v1/turn`` in a fresh chat."""
    body = {
        "user_id": user_id,
        "agent_id": agent,
        "chat_id": f"ask-{uuid.uuid4().hex[:8]}",
        "message": text,
        "persona_prompt": f"You are {agent}.",
        "now": at.isoformat(),
    }
    return await ok(nodes["retrieve"], "/v1/turn", body)


async def _model_sees(nodes, user_id: str, agent: str, text: str, at: datetime) -> str:
    """What ``/v1/turn`` hands the model besides the question itself, lower-cased."""
    answer = await turn(nodes, user_id, agent, text, at)
    return repr(answer["envelope"]["messages"][:-1]).lower()


async def forget(nodes, **body: Any) -> dict[str, Any]:
    return await ok(nodes["memory"], "/v1/forget", body)


async def _live_facts(resources: Clients, user_id: str) -> list[str]:
    async with resources.db.acquire() as conn:
        found = await conn.fetch(
            "SELECT text FROM relations WHERE user_id = $1 AND status = 'ACTIVE' ORDER BY 1",
            user_id,
        )
    return [r["text"] for r in found]


async def _two_chats(nodes, user_id: str) -> None:
    """Chat "faro" over two sessions (a day apart) teaches Zeca, Faro and a dentist; chat
    "tea" teaches green tea, which "faro" said too."""
    await say(nodes, user_id, "faro", "My cousin Zeca lives in Faro.", T0)
    await say(nodes, user_id, "faro", "I love green tea.", T0 + timedelta(minutes=1))
    await say(nodes, user_id, "faro", "My dentist is Dr. Quintela.", T0 + timedelta(days=1))
    await say(nodes, user_id, "tea", "I love green tea.", T0 + timedelta(days=1, hours=1))


LATER = T0 + timedelta(days=3)


async def test_forgetting_a_chat_with_its_history_forgets_what_it_taught(
    nodes, resources: Clients
) -> None:
    user_id = user()
    await _two_chats(nodes, user_id)
    before = await _model_sees(nodes, user_id, OTHER, "Where does my cousin Zeca live?", LATER)
    assert "faro" in before, "another persona recalls what chat faro taught"
    answer = await forget(
        nodes,
        user_id=user_id,
        scope="chat",
        agent_id=AGENT,
        chat_id="faro",
        include_history=True,
        hard=True,
    )
    assert answer["counts"]["messages"] == 6  # three turns over two sessions
    assert answer["counts"]["facts_trimmed"] == 1  # green tea, also said in chat "tea"
    facts = await _live_facts(resources, user_id)
    assert [f for f in facts if "tea" in f.lower()] and not [
        f for f in facts if "zeca" in f.lower() or "faro" in f.lower() or "quintela" in f.lower()
    ]
    for agent in (AGENT, OTHER):
        sees = await _model_sees(nodes, user_id, agent, "Where does Zeca live? My dentist?", LATER)
        assert "zeca" not in sees and "faro" not in sees and "quintela" not in sees
    assert "green tea" in await _model_sees(nodes, user_id, OTHER, "What do I drink?", LATER)


async def test_forgetting_one_session_keeps_the_chats_other_session(
    nodes, resources: Clients
) -> None:
    user_id = user()
    await _two_chats(nodes, user_id)
    answer = await forget(
        nodes, user_id=user_id, scope="session", agent_id=AGENT, chat_id="faro",
        include_history=True,
    )  # fmt: skip
    assert answer["counts"]["messages"] == 2  # the latest session: the dentist's turn
    facts = " ".join(await _live_facts(resources, user_id)).lower()
    assert "quintela" not in facts and "faro" in facts


async def test_forgetting_a_message_forgets_what_was_learned_only_from_it(
    nodes, resources: Clients
) -> None:
    user_id = user()
    await _two_chats(nodes, user_id)
    said = await say(nodes, user_id, "faro", "My neighbour Olavo lives in Braga.", LATER)
    assert "braga" in await _model_sees(nodes, user_id, OTHER, "Where does Olavo live?", LATER)
    answer = await forget(
        nodes,
        user_id=user_id,
        scope="global",
        targets=[{"message_id": said["message_ids"][0]}],
    )
    assert answer["counts"]["messages"] == 2  # the message and the reply to it: its turn
    assert answer["counts"]["facts"] == 2 and answer["counts"]["entities"] == 2
    sees = await _model_sees(nodes, user_id, OTHER, "Where does Olavo live?", LATER)
    assert "olavo" not in sees and "braga" not in sees
    facts = " ".join(await _live_facts(resources, user_id)).lower()
    assert "olavo" not in facts and "faro" in facts  # the rest of the chat stays
    missing = await forget(
        nodes, user_id=user_id, scope="global", targets=[{"message_id": str(uuid.uuid4())}]
    )
    assert [w["code"] for w in missing["warnings"]] == ["message_not_found"]
