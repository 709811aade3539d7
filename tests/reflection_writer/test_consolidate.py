"""Consolidation against real Postgres, Qdrant Edge and MiniLM (offline engine unless a test
mocks the model endpoint with respx)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import httpx
import pytest
import respx

from contracts.reflection import ConsolidateRequest, ConsolidateResponse
from services.core.deps import Clients
from services.reflection_writer.consolidate import consolidate

from .conftest import GYM_SESSION, LLM_URL, T0, Log, chat, completion, model_draft, slow_brain

LATER = T0 + timedelta(hours=1)


async def run(res: Clients, **fields: object) -> ConsolidateResponse:
    fields.setdefault("now", LATER)
    return await consolidate(slow_brain(res), ConsolidateRequest(**fields))


async def test_a_quiet_session_becomes_one_indexed_episode_with_its_todos_and_checkpoint(
    resources: Clients, log: Log, user_id: str
) -> None:
    marta = await log.entity(user_id, "Marta")
    s = await log.session(user_id, GYM_SESSION)
    clean = await log.todo(s, "Clean the kitchen", source_message_id=s.message_ids[4])
    call = await log.todo(s, "Call Marta on Friday", kind="REMINDER")

    answer = await run(resources, user_id=user_id)

    [done] = answer.sessions
    assert (done.status, done.engine, done.reason, done.turns) == ("created", "offline", "quiet", 8)
    assert (done.first_message_seq, done.last_message_seq) == (s.seqs[0], s.seqs[-1])
    assert done.evidence_kept == 1 and done.evidence_dropped == 0
    assert done.psyche_items == 2 and done.linked_todos == 2 and done.indexed
    assert answer.totals.episodes_created == 1 and answer.skipped == []

    [row] = await log.fetch("SELECT * FROM episodes WHERE user_id = $1", user_id)
    assert str(row["episode_id"]) == done.episode_id
    assert row["day"].isoformat() == "2026-01-03" and row["ts"] == s.last_ts
    assert row["summary"]["people"] == ["Marta"]
    assert row["summary"]["commitments"] == [
        "I'll clean the kitchen tomorrow.",
        "Remind me to call Marta on Friday.",
    ]
    assert row["reflection_json"]["evidence"] == [
        {
            "text": "I skipped the gym again because work ran late, so I'm pretty stressed.",
            "message_id": s.message_ids[0],
        }
    ]
    assert row["reflection"].startswith("Observation: I skipped the gym")
    assert row["entity_ids"] == [marta]
    assert sorted(row["linked_todo_ids"]) == sorted([clean, call])
    assert row["provenance"]["message_ids"] == s.message_ids
    assert row["indexed_at"] is not None and row["previous_episode_id"] is None
    assert 0 < float(row["importance"]) <= 1

    [session] = await log.fetch("SELECT * FROM sessions WHERE session_id = $1::uuid", s.session_id)
    assert session["checkpoint_message_seq"] == s.seqs[-1]
    assert not session["needs_consolidation"] and session["locked_until"] is None
    linked = await log.fetch(
        "SELECT episode_id::text FROM todos WHERE session_id = $1::uuid", s.session_id
    )
    assert {r[0] for r in linked} == {done.episode_id}

    [hit] = await resources.vectors.search(
        "episodes", user_id=user_id, agent_id="deanna", text="gym work stressed", limit=3
    )
    assert hit.id == done.episode_id
    assert hit.payload["session_id"] == s.session_id and hit.payload["scope"] == "agent"
    assert hit.payload["message_ids"] == [s.message_ids[0], s.message_ids[-1]]
    assert hit.payload["entity_ids"] == [marta] and hit.payload["day"] == "2026-01-03"

    psyche = await log.fetch(
        "SELECT * FROM relations WHERE user_id = $1 AND memory_type = 'PSYCHE' ORDER BY fact_type",
        user_id,
    )
    assert [(p["fact_type"], p["source"]) for p in psyche] == [
        ("trait", "reflection"),
        ("value", "reflection"),
    ]
    assert all(float(p["confidence"]) <= 0.5 and p["importance"] == 1 for p in psyche)
    assert all(p["provenance_message_ids"] == [s.message_ids[6]] for p in psyche)


async def test_each_episode_chains_to_the_previous_one_of_the_same_user_and_agent(
    resources: Clients, log: Log, user_id: str
) -> None:
    first = await log.session(user_id, chat("I started a pottery class.", "Nice!"))
    await log.session(
        user_id,
        chat("Other persona chat.", "Ok."),
        agent_id="anaketa",
        chat_id="tg:2",
        start=T0 + timedelta(minutes=30),
    )
    second = await log.session(
        user_id, chat("The pottery class was fun.", "Great."), start=T0 + timedelta(hours=2)
    )
    answer = await run(resources, user_id=user_id, now=T0 + timedelta(hours=3))
    by_session = {s.session_id: s.episode_id for s in answer.sessions}
    rows = {
        str(r[0]): r[1]
        for r in await log.fetch(
            "SELECT episode_id, previous_episode_id::text FROM episodes WHERE user_id = $1", user_id
        )
    }
    assert rows[by_session[first.session_id]] is None
    assert rows[by_session[second.session_id]] == by_session[first.session_id]


async def test_two_concurrent_schedulers_write_one_episode(
    resources: Clients, log: Log, user_id: str
) -> None:
    await log.session(user_id, GYM_SESSION)
    one, two = await asyncio.gather(
        run(resources, user_id=user_id), run(resources, user_id=user_id)
    )
    created = [s for a in (one, two) for s in a.sessions if s.status == "created"]
    assert len(created) == 1
    assert await log.val("SELECT count(*) FROM episodes WHERE user_id = $1", user_id) == 1
    others = [s.reason for a in (one, two) for s in a.skipped]
    assert all(reason in ("locked", "nothing_new") for reason in others)


async def test_a_retry_after_the_checkpoint_moved_writes_nothing(
    resources: Clients, log: Log, user_id: str
) -> None:
    s = await log.session(user_id, GYM_SESSION)
    await run(resources, user_id=user_id)
    again = await run(resources, user_id=user_id)
    assert again.sessions == [] and again.skipped == []
    explicit = await run(resources, session_id=s.session_id)
    assert [(k.session_id, k.reason) for k in explicit.skipped] == [(s.session_id, "nothing_new")]
    assert await log.val("SELECT count(*) FROM episodes WHERE user_id = $1", user_id) == 1
    assert (
        await log.val(
            "SELECT count(*) FROM relations WHERE user_id = $1 AND memory_type = 'PSYCHE'", user_id
        )
        == 2
    )


async def test_a_range_retried_before_its_checkpoint_moved_finds_the_existing_episode(
    resources: Clients, log: Log, user_id: str
) -> None:
    await log.session(user_id, GYM_SESSION)
    first = (await run(resources, user_id=user_id)).sessions[0]
    # As if the process died after writing the episode but the checkpoint had not moved.
    await log.val("UPDATE sessions SET checkpoint_message_seq = NULL WHERE user_id = $1", user_id)
    [retry] = (await run(resources, user_id=user_id)).sessions
    assert (retry.status, retry.episode_id) == ("existing", first.episode_id)
    assert await log.val("SELECT count(*) FROM episodes WHERE user_id = $1", user_id) == 1
    assert await resources.vectors.count("episodes", user_id=user_id) == 1
    assert not await log.val("SELECT needs_consolidation FROM sessions WHERE user_id = $1", user_id)


async def test_turns_after_the_checkpoint_make_the_next_episode(
    resources: Clients, log: Log, user_id: str
) -> None:
    s = await log.session(user_id, GYM_SESSION)
    [first] = (await run(resources, user_id=user_id)).sessions
    await log.append(
        s, chat("Back again: I cleaned the kitchen.", "Well done!"), start=T0 + timedelta(hours=2)
    )
    [second] = (await run(resources, user_id=user_id, now=T0 + timedelta(hours=3))).sessions
    assert second.episode_id != first.episode_id and second.turns == 2
    assert second.first_message_seq == s.seqs[-2]
    previous = await log.val(
        "SELECT previous_episode_id::text FROM episodes WHERE episode_id = $1::uuid",
        second.episode_id,
    )
    assert previous == first.episode_id


async def test_an_active_session_waits_unless_flagged_or_over_the_batch_size(
    resources: Clients, log: Log, user_id: str
) -> None:
    now = T0 + timedelta(minutes=9)  # the last turn was 2 minutes ago
    await log.session(user_id, GYM_SESSION)
    assert (await run(resources, user_id=user_id, now=now)).sessions == []
    [batch] = (await run(resources, user_id=user_id, now=now, batch_size=8)).sessions
    assert batch.reason == "batch"
    flagged = await log.session(
        user_id,
        chat("Please remember this.", "Sure."),
        start=now - timedelta(minutes=1),
        flagged=True,
        chat_id="tg:9",
    )
    [done] = (await run(resources, user_id=user_id, now=now)).sessions
    assert (done.session_id, done.reason) == (flagged.session_id, "flagged")
    assert not await log.val(
        "SELECT flagged_for_consolidation FROM sessions WHERE session_id = $1::uuid",
        flagged.session_id,
    )


async def test_a_sweep_limited_to_one_user_never_touches_another_users_sessions(
    resources: Clients, log: Log, user_id: str
) -> None:
    other = user_id + "-other"
    theirs = await log.session(other, GYM_SESSION)
    await log.session(user_id, GYM_SESSION)
    answer = await run(resources, user_id=user_id)
    assert {s.user_id for s in answer.sessions} == {user_id}
    assert await log.val("SELECT count(*) FROM episodes WHERE user_id = $1", other) == 0
    assert await log.val(
        "SELECT needs_consolidation FROM sessions WHERE session_id = $1::uuid", theirs.session_id
    )
    assert await resources.vectors.count("episodes", user_id=other) == 0


async def test_facts_about_entities_named_in_more_episodes_gain_importance(
    resources: Clients, log: Log, user_id: str
) -> None:
    marta = await log.entity(user_id, "Marta", aliases=["sis"])
    fact = await log.fact(user_id, marta, "Marta lives in Lisbon", predicate="LIVES_IN")
    pinned = await log.fact(user_id, marta, "Marta is my sister", predicate="SISTER", pinned=True)
    for hour in (0, 2):
        await log.session(
            user_id,
            chat("My sis called today.", "How is she?"),
            start=T0 + timedelta(hours=hour),
            chat_id=f"tg:{hour}",
        )
        await run(resources, user_id=user_id, now=T0 + timedelta(hours=hour + 1))
    rows = {
        str(r[0]): r
        for r in await log.fetch(
            "SELECT rel_id, importance, reference_count, pinned FROM relations"
            " WHERE user_id = $1 AND memory_type <> 'PSYCHE'",
            user_id,
        )
    }
    assert (rows[fact]["reference_count"], rows[fact]["importance"]) == (2, 2)
    assert (rows[pinned]["reference_count"], rows[pinned]["importance"]) == (0, 3)


async def test_five_20_turn_sessions_consolidate_into_five_episodes_offline(
    resources: Clients, log: Log, user_id: str
) -> None:
    """Offline engine + MiniLM embedding + writes, spine and curator included (its time per
    session is measured by the benchmarks, never here)."""
    lines = [GYM_SESSION[i % len(GYM_SESSION)][1] for i in range(20)]
    sessions = 5
    for k in range(sessions):
        await log.session(user_id, chat(*lines), chat_id=f"tg:{k}", start=T0 + timedelta(hours=k))
    answer = await run(resources, user_id=user_id, now=T0 + timedelta(hours=sessions + 1))
    assert answer.totals.episodes_created == sessions


@pytest.mark.parametrize(
    "content",
    ["Sorry, I cannot do JSON.", '["a", "b"]', '{"summary": 1}'],
    ids=["prose", "array", "no-reflection"],
)
async def test_malformed_model_output_falls_back_to_the_offline_engine(
    with_llm: Clients, log: Log, user_id: str, content: str
) -> None:
    await log.session(user_id, GYM_SESSION)
    async with respx.mock(base_url=LLM_URL) as router:
        router.post("/chat/completions").mock(
            return_value=httpx.Response(200, json=completion(content))
        )
        [done] = (await run(with_llm, user_id=user_id)).sessions
    assert (done.status, done.engine, done.evidence_kept) == ("created", "offline_fallback", 1)
    summary = await log.val("SELECT summary FROM episodes WHERE user_id = $1", user_id)
    assert summary["people"] == ["Marta"] and len(summary["one_liner"]) <= 200


async def test_a_model_timeout_leaves_sessions_unconsolidated_for_the_next_run(
    with_llm: Clients, log: Log, user_id: str
) -> None:
    first = await log.session(user_id, GYM_SESSION)
    await log.session(user_id, GYM_SESSION, chat_id="tg:2")
    async with respx.mock(base_url=LLM_URL) as router:
        route = router.post("/chat/completions").mock(side_effect=httpx.ReadTimeout("slow"))
        answer = await run(with_llm, user_id=user_id)
    assert answer.sessions == [] and route.call_count == 1  # no second call once it failed
    assert [k.reason for k in answer.skipped] == ["model_unavailable"] * 2
    assert await log.val("SELECT count(*) FROM episodes WHERE user_id = $1", user_id) == 0
    rows = await log.fetch(
        "SELECT needs_consolidation, checkpoint_message_seq, locked_until"
        " FROM sessions WHERE user_id = $1",
        user_id,
    )
    assert [tuple(r) for r in rows] == [(True, None, None)] * 2

    async with respx.mock(base_url=LLM_URL) as router:
        router.post("/chat/completions").mock(
            return_value=httpx.Response(
                200,
                json=completion(
                    model_draft(
                        evidence=[
                            {
                                "text": "Skipped the gym because work ran late",
                                "message_id": first.message_ids[0],
                            }
                        ]
                    )
                ),
            )
        )
        later = await run(with_llm, user_id=user_id)
    assert [s.engine for s in later.sessions] == ["llm", "llm"]


async def test_a_long_session_is_consolidated_in_ranges_of_at_most_80_messages(
    resources: Clients, log: Log, user_id: str
) -> None:
    s = await log.session(user_id, chat(*(f"I did thing number {i}." for i in range(90))))
    answer = await run(resources, user_id=user_id, now=T0 + timedelta(hours=3))
    first, second = answer.sessions
    assert (first.turns, first.more_pending) == (80, True)
    assert (second.turns, second.more_pending) == (10, False)
    assert second.first_message_seq == s.seqs[80] and second.last_message_seq == s.seqs[-1]
    assert (
        await log.val(
            "SELECT checkpoint_message_seq FROM sessions WHERE session_id = $1::uuid", s.session_id
        )
        == s.seqs[-1]
    )
