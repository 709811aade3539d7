"""graph-hydrator's SQL against the real Postgres of the run (migrations applied)."""

from __future__ import annotations

from datetime import timedelta

from services.graph_hydrator import store
from tests.graph_hydrator.conftest import T0, Seeder


async def test_names_and_aliases_are_found_by_normalized_key(seed: Seeder) -> None:
    marta = await seed.entity("Márta", aliases=["work Marta"])
    rosa = await seed.entity("Aunt Rosa")
    await seed.entity("Bob")
    async with seed.pool.acquire() as conn:
        rows = await store.find_entities(
            conn, seed.user_id, "deanna", ["marta", "aunt rosa", "work marta", "nobody"], []
        )
    found = {r.entity_id: r for r in rows}
    assert set(found) == {marta, rosa}
    assert found[marta].keys == ("marta", "work marta")
    assert found[marta].aliases == ("work Marta",)
    assert found[rosa].keys == ("aunt rosa",)


async def test_lookup_sees_only_this_users_live_entities_visible_to_this_agent(
    seed: Seeder, seeder_for, user_id: str
) -> None:
    mine = await seed.entity("Marta")
    await seed.entity("Marta", active=False)
    await seed.entity("Marta", agent_id="anaketa")
    deannas = await seed.entity("Marta", agent_id="deanna")
    other = await (await seeder_for(user_id + "-other")).entity("Marta")
    async with seed.pool.acquire() as conn:
        rows = await store.find_entities(conn, seed.user_id, "deanna", ["marta"], [other])
    assert {r.entity_id for r in rows} == {mine, deannas}


async def test_active_ids_are_loaded_without_a_mention(seed: Seeder) -> None:
    marta = await seed.entity("Marta")
    async with seed.pool.acquire() as conn:
        rows = await store.find_entities(conn, seed.user_id, "deanna", [], [marta])
    assert [(r.entity_id, r.keys) for r in rows] == [(marta, ("marta",))]


async def test_edges_are_loaded_both_ways_and_only_while_live(seed: Seeder) -> None:
    me = await seed.entity("Alex")
    marta = await seed.entity("Marta")
    gone = await seed.entity("Ghost", active=False)
    sister = await seed.fact(marta, "SISTER_OF", me)
    job = await seed.fact(me, "JOB", value="nurse", message_ids=["m1"])
    await seed.fact(me, "LIVES_IN", value="Rome", valid_to=T0 - timedelta(minutes=1))
    await seed.fact(me, "LIVES_IN", value="Oslo", valid_from=T0 + timedelta(days=1))
    await seed.fact(me, "LIKES", value="tea", status="FORGOTTEN")
    await seed.fact(me, "LIKES", value="coffee", status="SUPERSEDED")
    await seed.fact(me, "FRIEND_OF", gone)
    await seed.fact(me, "DIET_PLAN", value="keto", agent_id="anaketa")
    current = await seed.fact(me, "LIVES_IN", value="Milan", valid_to=T0 + timedelta(days=1))
    async with seed.pool.acquire() as conn:
        edges = await store.load_edges(conn, seed.user_id, "deanna", [me], T0)
    assert {e.rel_id for e in edges} == {sister, job, current}
    by_id = {e.rel_id: e for e in edges}
    assert by_id[sister].obj.entity_id == me and by_id[sister].subject.name == "Marta"
    assert by_id[job].value == "nurse" and by_id[job].message_ids == ("m1",)


async def test_foundation_candidates_come_pinned_and_seeded_first(seed: Seeder) -> None:
    me = await seed.entity("Alex", entity_ref="self:user")
    core = await seed.fact(me, "NAME", value="Alex", importance=3, created_at=T0 - timedelta(1))
    seeded = await seed.fact(me, "HOMETOWN", value="Porto", source="seeded_profile")
    pinned = await seed.fact(me, "GOAL", value="marathon", pinned=True, importance=3)
    await seed.fact(me, "LIKES", value="tea", importance=1)
    await seed.fact(me, "TRAIT", value="anxious", importance=3, memory_type="PSYCHE")
    await seed.fact(me, "JOB", value="nurse", importance=3, status="ARCHIVED")
    ghost = await seed.entity("Ghost", active=False)
    await seed.fact(ghost, "NAME", value="Ghost", pinned=True, importance=3)
    await seed.fact(me, "MOTHER", ghost, pinned=True, importance=3)
    async with seed.pool.acquire() as conn:
        facts = await store.load_foundation(conn, seed.user_id, "deanna", T0)
    assert [f.fact_id for f in facts] == [seeded, pinned, core]


async def test_foundation_candidates_include_the_persons_own_global_facts_and_this_agents(
    seed: Seeder,
) -> None:
    """Global identity facts, and what this agent keeps for itself about the person (any
    importance); never another agent's."""
    me = await seed.entity("Alice", entity_ref="self:user")
    marta = await seed.entity("Marta")
    home = await seed.fact(me, "LIVES_IN", value="Lisbon", importance=2, memory_type="PROFILE")
    sister = await seed.fact(me, "HAS_SISTER", marta, importance=2)
    allergy = await seed.fact(marta, "ALLERGY", value="nuts", importance=1)
    await seed.fact(me, "LIKES", value="tea", importance=1, memory_type="PROFILE")
    trains = await seed.fact(
        me, "TRAINS", value="Mondays", importance=1, agent_id="deanna", memory_type="PROJECT"
    )
    await seed.fact(me, "DIET", value="keto", importance=2, agent_id="anaketa")
    await seed.fact(marta, "LIVES_IN", value="Madrid", importance=2)
    async with seed.pool.acquire() as conn:
        facts = await store.load_foundation(conn, seed.user_id, "deanna", T0)
    assert {f.fact_id for f in facts} == {home, sister, allergy, trains}
    assert {f.fact_id for f in facts if f.about_self} == {home, sister, trains}


async def test_foundation_candidates_leave_out_affect_and_unverified_facts(seed: Seeder) -> None:
    me = await seed.entity("Alice", entity_ref="self:user")
    home = await seed.fact(me, "LIVES_IN", value="Lisbon", importance=2, memory_type="PROFILE")
    await seed.fact(
        me,
        "FEELS",
        value="nervous",
        text='User said they feel nervous: "so nervous"',
        importance=3,
        confidence=0.7,
        memory_type="PROFILE",
    )
    await seed.fact(
        me, "WORKS_AT", value="Spotify", importance=3, confidence=0.4, memory_type="PROFILE"
    )
    await seed.fact(
        me, "BELIEVES", value="i think that x", confidence=0.4, pinned=True, importance=3
    )
    async with seed.pool.acquire() as conn:
        facts = await store.load_foundation(conn, seed.user_id, "deanna", T0)
    assert [(f.fact_id, f.confidence) for f in facts] == [(home, 1.0)]


async def test_edges_leave_out_psyche_guesses_unless_pinned(seed: Seeder) -> None:
    me = await seed.entity("Alice", entity_ref="self:user")
    home = await seed.fact(me, "LIVES_IN", value="Lisbon", memory_type="PROFILE")
    await seed.fact(me, "BELIEVES", value="i think that x", confidence=0.4, memory_type="PSYCHE")
    pinned = await seed.fact(
        me, "VALUES", value="family", pinned=True, importance=3, memory_type="PSYCHE"
    )
    async with seed.pool.acquire() as conn:
        edges = await store.load_edges(conn, seed.user_id, "deanna", [me], T0)
    assert {e.rel_id for e in edges} == {home, pinned}


async def test_todos_are_this_agents_with_wins_of_the_last_48_hours(seed: Seeder) -> None:
    walk = await seed.todo("COMMITMENT", "walk")
    thread = await seed.todo("THREAD", "new job")
    friction = await seed.todo("FRICTION", "late nights")
    win = await seed.todo(
        "COMMITMENT", "ran 5k", status="DONE", completed_at=T0 - timedelta(hours=47)
    )
    await seed.todo("COMMITMENT", "old", status="DONE", completed_at=T0 - timedelta(hours=49))
    await seed.todo("COMMITMENT", "anaketa's", agent_id="anaketa")
    await seed.todo("COMMITMENT", "forgotten", active=False)
    habit = await seed.todo("HABIT", "floss")
    reminder = await seed.todo("REMINDER", "call Marta")
    goal = await seed.todo("GOAL", "run a marathon")
    async with seed.pool.acquire() as conn:
        todos = await store.load_todos(conn, seed.user_id, "deanna", T0)
    assert {(t.todo_id, t.bucket) for t in todos} == {
        (walk, "COMMITMENT"),
        (reminder, "COMMITMENT"),
        (thread, "THREAD"),
        (goal, "THREAD"),
        (habit, "THREAD"),
        (friction, "FRICTION"),
        (win, "WIN"),
    }
