"""Grounding through ``/v1/commit``: a model's plan is read against the person's recent
messages of the session, an unsure fact is stored lowered (out of FOUNDATION), a hedge and an
invention are not stored — each with a warning."""

from __future__ import annotations

import httpx

from services.core.deps import Clients
from tests.memory_upserter.conftest import commit, fact, later, rows, turn


def _warnings(answer: dict, code: str) -> list[str]:
    return [w["detail"] for w in answer["warnings"] if w["code"] == code]


async def test_a_fact_said_two_turns_earlier_grounds_a_models_plan(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "i work as a nurse at st mary's", at=later(-4)))
    await commit(client, turn(user_id, "long shift today", at=later(-2)))
    plan = {"facts": [fact("JOB_TITLE", "User is a nurse", value="nurse")]}
    answer = await commit(client, turn(user_id, "ugh so tired", plan=plan))
    assert [f["predicate"] for f in answer["facts"]] == ["JOB_TITLE"]
    assert not _warnings(answer, "fact_not_grounded")
    stored = await rows(
        resources, "SELECT object_value #>> '{}' AS v FROM relations WHERE user_id = $1", user_id
    )
    assert stored == [{"v": "nurse"}]


async def test_messages_of_another_chat_ground_nothing(
    client: httpx.AsyncClient, user_id: str
) -> None:
    await commit(client, turn(user_id, "i work as a nurse", at=later(-4), chat_id="tg:other"))
    plan = {"facts": [fact("JOB_TITLE", "User is a nurse", value="nurse")]}
    answer = await commit(client, turn(user_id, "ugh so tired", plan=plan))
    assert answer["facts"] == []
    (dropped,) = _warnings(answer, "fact_not_grounded")
    assert "nurse" in dropped


async def test_normalisations_are_support_and_an_unsure_fact_is_stored_lowered(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    plan = {
        "facts": [
            fact("MARITAL_STATUS", "User is married", value="married", importance=3),
            fact("FATHER_DIED_ON", "User's father died", value="2026-01-05", memory_type="PEOPLE"),
            fact("JOB_TITLE", "Senior backend engineer", value="senior backend engineer",
                 importance=3, pinned=True, confidence=0.9),
        ]
    }  # fmt: skip
    said = "my husband and I are a mess, my dad passed away two days ago. im a backend engineer"
    answer = await commit(client, turn(user_id, said, plan=plan))
    assert len(answer["facts"]) == 3
    (unsure,) = _warnings(answer, "fact_unsure")
    assert "senior" in unsure
    stored = await rows(
        resources,
        "SELECT predicate, importance, pinned, confidence::float8 AS c FROM relations "
        "WHERE user_id = $1 ORDER BY predicate",
        user_id,
    )
    assert [(r["predicate"], r["importance"], r["pinned"], r["c"]) for r in stored] == [
        ("FATHER_DIED_ON", 1, False, 0.8),
        ("JOB_TITLE", 1, False, 0.5),
        ("MARITAL_STATUS", 3, False, 0.8),
    ]


async def test_a_hedge_is_never_a_current_fact_and_the_current_job_stays(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    job = {"entities": [{"name": "Acme", "category": "Org"}]}
    acme = fact("WORKS_AT", "User works at Acme", obj="Acme")
    await commit(
        client, turn(user_id, "i work at acme", plan={**job, "facts": [acme]}, at=later(-5))
    )
    await commit(client, turn(user_id, "got an offer from spotify!!", at=later(-3)))
    spotify = {
        "entities": [{"name": "Spotify", "category": "Org"}],
        "facts": [fact("WORKS_AT", "User works at Spotify", obj="Spotify")],
    }
    answer = await commit(client, turn(user_id, "i think im taking it", plan=spotify))
    assert answer["facts"] == []
    (hedged,) = _warnings(answer, "fact_hedged")
    assert "i think im taking it" in hedged
    stored = await rows(
        resources,
        "SELECT text, status, valid_to FROM relations "
        "WHERE user_id = $1 AND predicate = 'WORKS_AT'",
        user_id,
    )
    assert stored == [{"text": "User works at Acme", "status": "ACTIVE", "valid_to": None}]


async def test_a_lost_job_in_the_persons_words_ends_the_job_a_model_left_current(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    """The model wrote only the new state ("lost their job"); the person's words end the job
    and its title. An old fact the model restated, days later, to end it is grounded by the
    stored fact."""
    job = {
        "entities": [{"name": "Medly", "category": "Org"}],
        "facts": [
            fact("WORKS_AT", "User works at Medly", obj="Medly"),
            fact("JOB_TITLE", "User is a product specialist", value="product specialist"),
            fact("LIVES_IN", "User lives in Porto", value="Porto"),
        ],
    }
    said = "i work at medly as a product specialist, living in porto"
    await commit(client, turn(user_id, said, plan=job, at=later(-600)))
    lost = {"facts": [fact("JOB_STATUS", "User lost their job", value="lost job")]}
    answer = await commit(client, turn(user_id, "ugh i just lost my job", plan=lost))
    assert len(_warnings(answer, "fact_ended_by_words")) == 2
    moved = {
        "facts": [fact("LIVES_IN", "User lives in Porto", value="Porto", valid_to="2026-01-01")]
    }
    answer = await commit(client, turn(user_id, "moved out last week", plan=moved, at=later(2)))
    assert not _warnings(answer, "fact_unsure") and not _warnings(answer, "fact_not_grounded")
    stored = await rows(
        resources,
        "SELECT predicate, valid_to IS NOT NULL AS ended FROM relations "
        "WHERE user_id = $1 ORDER BY predicate",
        user_id,
    )
    assert [(r["predicate"], r["ended"]) for r in stored] == [
        ("JOB_STATUS", False),
        ("JOB_TITLE", True),
        ("LIVES_IN", True),
        ("WORKS_AT", True),
    ]
