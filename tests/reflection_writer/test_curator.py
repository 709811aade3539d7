"""The curator: dedupe, fold, deactivate outdated low-confidence facts; never delete, never
touch pinned facts or todos."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from services.core import memory_store
from services.core.deps import Clients
from services.reflection_writer import curator
from services.reflection_writer.curator import CuratorFact
from services.reflection_writer.maintenance import upkeep

from .conftest import T0, Log, chat

DAY = datetime(2026, 1, 1, tzinfo=UTC)


def plan(facts: list[CuratorFact]) -> curator.CuratorPlan:
    return curator.plan(facts, memory_store.EXCLUSIVE_PREDICATES)


def fact(
    rel_id: str,
    text: str,
    *,
    subject: str = "marta",
    memory_type: str = "PEOPLE",
    predicate: str = "NOTE",
    value: str | None = None,
    confidence: float = 0.8,
    pinned: bool = False,
    hours: int = 0,
    source: str = "llm_plan",
) -> CuratorFact:
    return CuratorFact(
        rel_id=rel_id,
        scope="global",
        agent_id=None,
        subject_id=subject,
        predicate=predicate,
        object_key=value or text,
        memory_type=memory_type,
        text=text,
        confidence=confidence,
        importance=1,
        pinned=pinned,
        source=source,
        created_at=DAY + timedelta(hours=hours),
        message_ids=(f"msg-{rel_id}",),
    )


def test_older_exact_duplicates_are_archived_and_the_newest_or_pinned_one_stays() -> None:
    decided = plan(
        [
            fact("a", "Marta lives in Lisbon", hours=0),
            fact("b", "marta lives in lisbon.", hours=1),
            fact("c", "Marta  lives in Lisbon!", hours=2),
            fact("d", "Marta lives in Lisbon", memory_type="PROFILE", subject="me"),
        ]
    )
    assert sorted(decided.archive) == ["a", "b"]
    pinned = plan(
        [
            fact("p", "Marta lives in Lisbon", pinned=True, hours=0),
            fact("n", "Marta lives in Lisbon", hours=5),
        ]
    )
    assert pinned.archive == ["n"]


def test_three_people_facts_about_one_entity_fold_into_one_curated_fact() -> None:
    decided = plan(
        [
            fact("a", "Marta is a nurse", hours=0),
            fact("b", "Marta loves jazz", hours=1),
            fact("c", "Marta lives in Lisbon.", hours=2),
            fact("s", "Marta is my sister", pinned=True),
            fact("j", "John codes", subject="john"),
            fact("k", "John runs", subject="john"),
        ]
    )
    [fold] = decided.folds
    assert fold.members == ["a", "b", "c"] and fold.subject_id == "marta"
    assert fold.text == "Marta is a nurse; Marta loves jazz; Marta lives in Lisbon."
    assert fold.message_ids == ["msg-a", "msg-b", "msg-c"]
    assert (
        plan(
            [
                fact("a", "Marta is a nurse"),
                fact("b", "Marta loves jazz"),
                fact("c", "Marta lives in Lisbon"),
            ]
        )
        .folds[0]
        .new_id
        == fold.new_id
    )
    again = plan(
        [
            fact("f", fold.text, source=curator.FOLD_SOURCE, hours=3),
            fact("d", "Marta got a dog", hours=4),
            fact("e", "Marta moved", hours=5),
        ]
    )
    assert again.folds == []  # two new facts are not a group of three
    grown = plan(
        [
            fact("f", fold.text, source=curator.FOLD_SOURCE, hours=3),
            *(fact(x, f"Marta fact {x}", hours=4) for x in "xyz"),
        ]
    )
    assert grown.folds[0].members == ["f", "x", "y", "z"]  # the previous fold joins the new one


def test_an_outdated_low_confidence_fact_is_superseded_by_a_newer_contradiction() -> None:
    decided = plan(
        [
            fact(
                "old",
                "Project is paused",
                subject="proj",
                memory_type="PROJECT",
                predicate="STATUS",
                value="paused",
                confidence=0.3,
                hours=0,
            ),
            fact(
                "new",
                "Project is active",
                subject="proj",
                memory_type="PROJECT",
                predicate="STATUS",
                value="active",
                confidence=0.8,
                hours=5,
            ),
            fact(
                "sure",
                "Lives in Porto",
                subject="me",
                memory_type="PROFILE",
                predicate="LIVES_IN",
                value="Porto",
                confidence=0.9,
                hours=0,
            ),
            fact(
                "guess",
                "Lives in Lisbon",
                subject="me",
                memory_type="PROFILE",
                predicate="LIVES_IN",
                value="Lisbon",
                confidence=0.2,
                hours=5,
            ),
            fact(
                "t1",
                "Is patient",
                subject="me",
                memory_type="PSYCHE",
                predicate="HAS_TRAIT",
                confidence=0.4,
                hours=0,
            ),
            fact(
                "l1",
                "Likes jazz",
                subject="me",
                memory_type="PROFILE",
                predicate="LIKES",
                confidence=0.3,
                hours=0,
            ),
            fact(
                "l2",
                "Likes techno",
                subject="me",
                memory_type="PROFILE",
                predicate="LIKES",
                confidence=0.9,
                hours=5,
            ),
            fact(
                "t2",
                "Is curious",
                subject="me",
                memory_type="PSYCHE",
                predicate="HAS_TRAIT",
                confidence=0.4,
                hours=5,
            ),
        ]
    )
    assert decided.supersede == [("old", "new")]


def test_the_curator_runs_every_24_hours_or_after_25_new_facts() -> None:
    assert curator.due(None, DAY, 0)
    assert not curator.due(DAY, DAY + timedelta(hours=23), 24)
    assert curator.due(DAY, DAY + timedelta(hours=24), 0)
    assert curator.due(DAY, DAY + timedelta(hours=1), 25)


async def test_the_curator_archives_and_folds_without_deleting_pinned_facts_or_todos(
    resources: Clients, log: Log, user_id: str
) -> None:
    s = await log.session(user_id, chat("I'll call Marta.", "Ok."))
    todo = await log.todo(s, "Call Marta")
    marta = await log.entity(user_id, "Marta")
    project = await log.entity(user_id, "Garden", category="Project")
    ids = {
        "dup1": await log.fact(user_id, marta, "Marta lives in Lisbon", created_at=T0),
        "dup2": await log.fact(
            user_id, marta, "marta lives in lisbon.", created_at=T0 + timedelta(hours=1)
        ),
        "nurse": await log.fact(
            user_id, marta, "Marta is a nurse", created_at=T0 + timedelta(hours=2)
        ),
        "jazz": await log.fact(
            user_id, marta, "Marta loves jazz", created_at=T0 + timedelta(hours=3)
        ),
        "sister": await log.fact(user_id, marta, "Marta is my sister", pinned=True),
        "paused": await log.fact(
            user_id,
            project,
            "The garden is paused",
            predicate="STATUS",
            value="paused",
            memory_type="PROJECT",
            confidence=0.3,
        ),
        "active": await log.fact(
            user_id,
            project,
            "The garden is active again",
            predicate="STATUS",
            value="active",
            memory_type="PROJECT",
            created_at=T0 + timedelta(hours=4),
        ),
    }
    await memory_store.sync_fact_vectors(
        resources.db, resources.vectors, resources.embedder, user_id, list(ids.values())
    )
    before_rows = await log.val("SELECT count(*) FROM relations WHERE user_id = $1", user_id)
    todos_before = [
        tuple(r) for r in await log.fetch("SELECT * FROM todos WHERE user_id = $1", user_id)
    ]
    pinned_before = tuple(
        await log.fetch("SELECT * FROM relations WHERE rel_id = $1::uuid", ids["sister"])
    )

    done = await upkeep(
        resources.db, resources.vectors, resources.embedder, user_id, T0 + timedelta(days=1)
    )

    assert done.curator is not None
    assert (
        done.curator.archived_duplicates,
        done.curator.folded_groups,
        done.curator.folded_facts,
        done.curator.superseded,
    ) == (1, 1, 3, 1)
    rows = {
        str(r["rel_id"]): r
        for r in await log.fetch("SELECT * FROM relations WHERE user_id = $1", user_id)
    }
    assert len(rows) == before_rows + 1 and set(ids.values()) <= set(rows)  # nothing deleted
    [fold] = [r for r in rows.values() if r["source"] == "curated_fold"]
    assert rows[ids["dup1"]]["status"] == "ARCHIVED" and rows[ids["dup1"]]["folded_into"] is None
    for name in ("dup2", "nurse", "jazz"):
        assert rows[ids[name]]["status"] == "ARCHIVED"
        assert rows[ids[name]]["folded_into"] == fold["rel_id"]
    assert fold["text"] == "marta lives in lisbon; Marta is a nurse; Marta loves jazz."
    assert fold["status"] == "ACTIVE" and fold["memory_type"] == "PEOPLE"
    assert rows[ids["paused"]]["status"] == "SUPERSEDED"
    assert str(rows[ids["paused"]]["superseded_by"]) == ids["active"]
    assert (
        tuple(await log.fetch("SELECT * FROM relations WHERE rel_id = $1::uuid", ids["sister"]))
        == pinned_before
    )
    assert [
        tuple(r) for r in await log.fetch("SELECT * FROM todos WHERE user_id = $1", user_id)
    ] == todos_before
    assert todo in {str(r[0]) for r in todos_before}

    live = {
        h.id
        for h in await resources.vectors.search(
            "facts", user_id=user_id, text="Marta Lisbon nurse jazz", limit=20
        )
    }
    assert str(fold["rel_id"]) in live
    assert not live & {ids[n] for n in ("dup1", "dup2", "nurse", "jazz", "paused")}

    again = await upkeep(
        resources.db,
        resources.vectors,
        resources.embedder,
        user_id,
        T0 + timedelta(days=1, hours=1),
    )
    assert again.curator is None  # ran an hour ago, fewer than 25 new facts
    assert await log.val(
        "SELECT curator_last_run_at FROM user_state WHERE user_id = $1 AND agent_id = ''", user_id
    ) == T0 + timedelta(days=1)


def test_a_fold_stays_short_and_a_long_previous_fold_is_left_as_it_is() -> None:
    facts = [
        fact(f"f{i}", f"Marta went to the {word} festival in the old town with friends", hours=i)
        for i, word in enumerate(["jazz", "film", "book", "food", "wine", "dance", "art", "folk"])
    ]
    decided = plan(facts)
    assert [len(f.members) for f in decided.folds] == [5, 3]  # a 6th would pass 60 words
    assert all(len(f.text.split()) <= curator.FOLD_WORDS for f in decided.folds)
    two = plan(facts[:7])
    assert [len(f.members) for f in two.folds] == [5]  # two left over stay unfolded
    assert set(two.archive) == set() and {"f5", "f6"}.isdisjoint(two.folds[0].members)
    long_fold = "; ".join(["Marta likes a very long list of things"] * 7) + "."
    grown = plan([fact("old", long_fold, source=curator.FOLD_SOURCE, hours=0), *facts[:3]])
    assert [f.members for f in grown.folds] == [["f0", "f1", "f2"]]
