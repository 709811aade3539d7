"""``POST /v1/pulse`` through the app, against the real Redis the tests share."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import httpx
import msgspec
import pytest
from structlog.testing import capture_logs

from contracts.slots import Affect, AffectSlot, Scratch, SessionState, Turn
from services.core.app import create_app
from services.core.deps import Clients
from services.core.settings import Settings
from services.core.working_memory import Snapshot, WorkingMemory, session_key
from services.pulse_decay.app import SPEC
from services.pulse_decay.step import MAX_ATTEMPTS

SESSION_TTL_S = 86_400

T0 = datetime(2026, 1, 3, 1, 0, tzinfo=UTC)


@pytest.fixture
async def client(settings: Settings, resources: Clients, app_client):
    async with app_client(create_app(SPEC, settings, resources)) as client:
        yield client


def _body(
    user_id: str,
    message: str = "tell me about the garden",
    *,
    at: datetime | None = T0,
    chat_id: str = "tg:1",
    **extra,
) -> dict:
    body = {
        "user_id": user_id,
        "agent_id": "deanna",
        "chat_id": chat_id,
        "message": message,
        **extra,
    }
    if at is not None:
        body["now"] = at.isoformat()
    return body


async def _turn(client: httpx.AsyncClient, body: dict) -> dict:
    response = await client.post("/v1/pulse", json=body)
    assert response.status_code == 200, response.text
    return response.json()


async def test_a_first_turn_answers_a_counted_session_and_a_neutral_non_factual_affect(
    client: httpx.AsyncClient, user_id: str
) -> None:
    answer = await _turn(client, _body(user_id))
    assert set(answer) == {
        "slot_contract_version",
        "session",
        "AFFECT",
        "applied",
        "degraded",
        "replay_reply",
    }
    assert answer["degraded"] is False and answer["replay_reply"] is None
    assert answer["session"]["msg_count"] == 1
    assert answer["session"]["updated_at"] == "2026-01-03T01:00:00Z"
    affect = answer["AFFECT"]
    assert (affect["authority"], affect["stability"]) == ("non-factual", "volatile")
    assert affect["affect"]["label"] == "neutral" and affect["affect"]["confidence"] == 0.0
    assert affect["affect"]["decay_at"] == "2026-01-03T01:30:00Z"
    assert answer["applied"] == ["new_affect"]


async def test_a_conversation_boosts_then_pulses_then_expires(
    client: httpx.AsyncClient, user_id: str
) -> None:
    first = await _turn(client, _body(user_id, "I'm so stressed about the move"))
    assert first["AFFECT"]["affect"]["label"] == "stressed"
    assert first["applied"] == ["new_affect", "explicit_boost"]
    for minute in (1, 2):
        answer = await _turn(client, _body(user_id, at=T0 + timedelta(minutes=minute)))
        assert answer["applied"] == []
    pulse = await _turn(client, _body(user_id, "ok", at=T0 + timedelta(minutes=3)))
    assert pulse["session"]["msg_count"] == 4
    assert pulse["applied"] == ["pulse_decay", "short_message_decay"]
    assert pulse["AFFECT"]["affect"]["confidence"] == pytest.approx(0.85 * 0.7 * 0.95, abs=1e-4)
    assert pulse["AFFECT"]["affect"]["pulse"]["last_pulse_at"] == "2026-01-03T01:03:00Z"
    late = await _turn(client, _body(user_id, at=T0 + timedelta(minutes=31)))
    assert late["applied"] == ["temporal_decay"]
    assert late["AFFECT"]["affect"]["markers"] == ["expired_decay"]
    assert late["session"]["msg_count"] == 5


async def test_request_markers_boost_and_are_recorded(
    client: httpx.AsyncClient, user_id: str
) -> None:
    markers = [{"label": "furious", "confidence": 0.9, "evidence": "ALL CAPS"}]
    answer = await _turn(client, _body(user_id, "WHY", markers=markers))
    affect = answer["AFFECT"]["affect"]
    assert (affect["label"], affect["confidence"], affect["markers"]) == (
        "furious",
        0.9,
        ["marker: ALL CAPS"],
    )


async def test_the_server_clock_is_used_when_now_is_omitted(
    client: httpx.AsyncClient, user_id: str
) -> None:
    before = datetime.now(UTC)
    answer = await _turn(client, _body(user_id, at=None))
    stamped = datetime.fromisoformat(answer["session"]["updated_at"])
    assert before <= stamped <= datetime.now(UTC)


async def test_scratch_and_active_entities_saved_by_others_are_kept(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    memory = WorkingMemory(resources.redis, affect_ttl_s=1800, session_ttl_s=SESSION_TTL_S)
    session = SessionState(
        user_id=user_id,
        agent_id="deanna",
        chat_id="tg:1",
        msg_count=6,
        summary="moving house",
        active_entity_ids=["e-marta"],
        scratch=Scratch(topic_focus="family", mode="reflective"),
    )
    await memory.save(session)
    answer = await _turn(client, _body(user_id))
    saved, affect = await memory.load(user_id, "deanna", "tg:1")
    assert saved == msgspec.structs.replace(session, msg_count=7, updated_at=T0)
    assert answer["session"] == msgspec.to_builtins(saved)
    assert affect.active_entity_ids == ["e-marta"] and affect.topic_focus == "family"
    assert affect.interaction_mode == "reflective"


async def test_two_users_in_the_same_chat_with_the_same_agent_never_share_memory(
    client: httpx.AsyncClient, user_id: str
) -> None:
    other = user_id + "-other"
    await _turn(client, _body(user_id, "I'm furious", chat_id="tg:shared"))
    for _ in range(3):
        await _turn(client, _body(user_id, chat_id="tg:shared"))
    theirs = await _turn(client, _body(other, chat_id="tg:shared"))
    assert theirs["session"]["user_id"] == other
    assert theirs["session"]["msg_count"] == 1
    assert theirs["AFFECT"]["affect"]["label"] == "neutral"
    mine = await _turn(client, _body(user_id, chat_id="tg:shared"))
    assert mine["session"]["msg_count"] == 5 and mine["AFFECT"]["affect"]["label"] == "furious"


async def test_concurrent_turns_of_one_chat_are_all_counted(
    client: httpx.AsyncClient, user_id: str
) -> None:
    with capture_logs() as logs:
        answers = await asyncio.gather(
            *(
                _turn(client, _body(user_id, f"message {i}", at=T0 + timedelta(seconds=i)))
                for i in range(5)
            )
        )
    assert sorted(a["session"]["msg_count"] for a in answers) == [1, 2, 3, 4, 5]
    assert any(e["event"] == "working_memory_conflict_retry" for e in logs)  # the race did happen


class _AlwaysOvertaken(WorkingMemory):
    """Real working memory whose chat is written by someone else right after every read."""

    async def snapshot(self, user_id: str, agent_id: str, chat_id: str) -> Snapshot:
        seen = await super().snapshot(user_id, agent_id, chat_id)
        stamp = SessionState(
            user_id=user_id,
            agent_id=agent_id,
            chat_id=chat_id,
            summary=f"other writer {datetime.now(UTC).isoformat()}",
        )
        await self._redis.set(session_key(user_id, agent_id, chat_id), msgspec.json.encode(stamp))
        return seen


async def test_a_chat_overtaken_on_every_attempt_answers_503_with_retry_after(
    settings: Settings, resources: Clients, app_client, user_id: str
) -> None:
    overtaken = resources.replace(
        memory=_AlwaysOvertaken(resources.redis, affect_ttl_s=1800, session_ttl_s=SESSION_TTL_S)
    )
    async with app_client(create_app(SPEC, settings, overtaken)) as client:
        with capture_logs() as logs:
            response = await client.post("/v1/pulse", json=_body(user_id))
    assert response.status_code == 503
    assert response.headers["retry-after"] == "1"
    assert response.json()["title"] == "Concurrent update"
    assert sum(e["event"] == "working_memory_conflict_retry" for e in logs) == MAX_ATTEMPTS


@pytest.mark.parametrize(
    "change, path",
    [
        ({"chat_id": None}, "$.chat_id"),
        ({"user_id": ""}, "$.user_id"),
        ({"agent_id": "dea nna"}, "$.agent_id"),
        ({"message": None}, "$.message"),
        ({"now": "2026-01-03T01:00:00"}, "$.now"),
        ({"now": "yesterday"}, "$.now"),
        ({"markers": [{"label": "furious", "confidence": 1.5}]}, "$.markers[0].confidence"),
        ({"markers": [{"label": ""}]}, "$.markers[0].label"),
        ({"markers": {"label": "furious"}}, "$.markers"),
        ({"mood": "furious"}, "$.mood"),
    ],
)
async def test_bad_input_is_a_422_problem_naming_the_field(
    client: httpx.AsyncClient, user_id: str, change: dict, path: str
) -> None:
    body = {k: v for k, v in {**_body(user_id), **change}.items() if v is not None}
    response = await client.post("/v1/pulse", json=body)
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert path in {error["path"] for error in response.json()["errors"]}


async def test_an_unreachable_redis_gives_a_neutral_degraded_pulse(
    settings: Settings, app_client, user_id: str
) -> None:
    down = msgspec.structs.replace(settings, redis_url="redis://127.0.0.1:1/0", redis_timeout_s=0.5)
    async with app_client(create_app(SPEC, down)) as client:
        response = await client.post("/v1/pulse", json=_body(user_id))
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["degraded"] is True and answer["applied"] == ["new_affect"]
    assert answer["AFFECT"]["affect"]["label"] == "neutral"
    assert answer["session"]["msg_count"] == 1


async def test_the_request_log_line_names_whose_memory_was_touched(
    client: httpx.AsyncClient, user_id: str
) -> None:
    with capture_logs() as logs:
        await _turn(client, _body(user_id))
    (line,) = [entry for entry in logs if entry["event"] == "request"]
    assert (line["user_id"], line["agent_id"], line["chat_id"]) == (user_id, "deanna", "tg:1")
    assert line["route"] == "/v1/pulse" and line["status"] == 200


async def test_the_route_is_documented_in_openapi(client: httpx.AsyncClient) -> None:
    spec = (await client.get("/schema/openapi.json")).json()
    assert "post" in spec["paths"]["/v1/pulse"]
    assert {"PulseRequest", "PulseResponse"} <= set(spec["components"]["schemas"])


async def test_an_affect_saved_through_working_memory_is_carried_on(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    memory = WorkingMemory(resources.redis, affect_ttl_s=1800, session_ttl_s=SESSION_TTL_S)
    await memory.save(
        affect=AffectSlot(
            user_id=user_id,
            agent_id="deanna",
            chat_id="tg:1",
            ts=T0,
            affect=Affect(label="sad", confidence=0.8, decay_at=T0 + timedelta(minutes=10)),
        )
    )
    answer = await _turn(client, _body(user_id, at=T0 + timedelta(minutes=1)))
    assert answer["AFFECT"]["affect"]["label"] == "sad"
    assert answer["applied"] == []


async def test_a_retried_message_is_not_counted_or_decayed_twice(
    client: httpx.AsyncClient, user_id: str
) -> None:
    """n8n's retry on fail re-sends a turn whose answer was lost: same message_id, same state."""
    for n, text in enumerate(["hi", "I'm furious", "ok", "so"], start=1):
        first = await _turn(
            client, _body(user_id, text, message_id=f"m{n}", at=T0 + timedelta(minutes=n))
        )
    again = await _turn(client, _body(user_id, "so", message_id="m4", at=T0 + timedelta(minutes=5)))
    assert again["applied"] == ["replayed"]
    assert again["session"] == first["session"] and again["AFFECT"] == first["AFFECT"]
    assert again["session"]["msg_count"] == 4 and again["session"]["last_message_id"] == "m4"
    assert again["replay_reply"] is None  # counted, never committed: answer it normally
    after = await _turn(
        client, _body(user_id, "next", message_id="m5", at=T0 + timedelta(minutes=6))
    )
    assert after["session"]["msg_count"] == 5 and "replayed" not in after["applied"]


async def test_turns_without_message_id_are_always_counted(
    client: httpx.AsyncClient, user_id: str
) -> None:
    for _ in range(2):
        answer = await _turn(client, _body(user_id, "same words"))
    assert answer["session"]["msg_count"] == 2


async def test_a_replayed_message_that_was_committed_gets_its_stored_reply(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    """A redelivered Telegram update: the flow sends the reply again, no second model call."""
    at = T0 + timedelta(minutes=1)
    await _turn(client, _body(user_id, "hi", message_id="m1", at=T0))
    await _turn(client, _body(user_id, "how are you?", message_id="m2", at=at))
    memory = resources.memory
    session = await memory.load_session(user_id, "deanna", "tg:1")
    assert session is not None
    committed = [
        Turn(role="user", text="hi", ts=T0),
        Turn(role="assistant", text="Hello!"),
        Turn(role="user", text="how are you?", ts=at),
        Turn(role="assistant", text="Fine, <thanks> & you?"),
    ]
    await memory.save(session=msgspec.structs.replace(session, turns=committed))
    again = await _turn(client, _body(user_id, "how are you?", message_id="m2", at=at))
    assert again["applied"] == ["replayed"]
    assert again["replay_reply"] == "Fine, <thanks> & you?"
