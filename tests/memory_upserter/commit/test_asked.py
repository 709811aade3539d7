"""What the person asks of memory in their own words, through ``POST /v1/commit`` with no plan
(the offline judge): "please forget that I told you about Marta Silva" forgets her softly and
says so; "that's wrong, I'm only allergic to peanuts" and "actually I don't live in Porto
anymore" end the facts they name — kept as history, never deleted."""

from __future__ import annotations

import json

import httpx
import respx

from services.core.deps import Clients
from services.memory_upserter.commit.asked import Words, ended_facts, words_of
from services.memory_upserter.commit.judge import asked_forget
from tests.memory_upserter.commit.test_judge import BASE_URL, completion, judged  # noqa: F401
from tests.memory_upserter.conftest import T0, commit, fact, later, rows, turn

LIVE = "SELECT text FROM relations WHERE user_id = $1 AND active AND valid_to IS NULL ORDER BY 1"


async def test_forget_asked_in_conversation_is_a_soft_forget_with_a_notice(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "My colleague Marta Silva lives in Porto", plan=None))
    assert "Marta Silva lives in Porto" in {r["text"] for r in await rows(resources, LIVE, user_id)}
    answer = await commit(
        client, turn(user_id, "Please forget that I told you about Marta Silva", at=later(1))
    )
    assert answer["plan_source"] == "offline_extractor"
    assert answer["forgotten"]["facts"] >= 2  # her relation to the person and her home
    (notice,) = [w for w in answer["warnings"] if w["code"] == "plan_forget_applied"]
    assert "'Marta Silva'" in notice["detail"] and "soft" in notice["detail"]
    live = await rows(resources, LIVE, user_id)
    assert all("Marta" not in r["text"] for r in live)
    soft = await rows(
        resources,
        "SELECT status FROM relations WHERE user_id = $1 AND text LIKE '%Marta Silva%'",
        user_id,
    )
    assert soft and {r["status"] for r in soft} == {"FORGOTTEN"}  # soft: the rows remain


async def test_a_forget_that_matches_nothing_says_so(
    client: httpx.AsyncClient, user_id: str
) -> None:
    await commit(client, turn(user_id, "I live in Lisbon"))
    answer = await commit(client, turn(user_id, "please forget about Zanzibar", at=later(1)))
    (notice,) = [w for w in answer["warnings"] if w["code"] == "plan_forget_applied"]
    assert "nothing stored matched" in notice["detail"]


async def test_only_ends_the_other_facts_of_the_kind_by_words(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "I'm allergic to peanuts and shellfish"))
    answer = await commit(
        client, turn(user_id, "That's wrong, I'm only allergic to peanuts", at=later(1))
    )
    (notice,) = [w for w in answer["warnings"] if w["code"] == "fact_ended_by_words"]
    assert "shellfish" in notice["detail"] and "peanuts" not in notice["detail"]
    assert [r["text"] for r in await rows(resources, LIVE, user_id)] == [
        "User is allergic to peanuts"
    ]
    ended = await rows(
        resources,
        "SELECT valid_to FROM relations WHERE user_id = $1 AND text LIKE '%shellfish%'",
        user_id,
    )
    assert [r["valid_to"] for r in ended] == [later(1)]  # ended at the turn, kept as history


async def test_a_negated_correction_and_anymore_end_what_they_name(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "I live in Porto and I'm allergic to cats"))
    await commit(client, turn(user_id, "actually I don't live in Porto anymore", at=later(1)))
    await commit(client, turn(user_id, "that's wrong, I'm not allergic to cats", at=later(2)))
    assert await rows(resources, LIVE, user_id) == []


async def test_words_that_end_nothing_say_so(client: httpx.AsyncClient, user_id: str) -> None:
    answer = await commit(client, turn(user_id, "No, I'm only allergic to peanuts"))
    (notice,) = [w for w in answer["warnings"] if w["code"] == "fact_ended_by_words"]
    assert "no current fact matched" in notice["detail"]


def test_ends_in_words_are_read_and_handles_are_not() -> None:
    assert words_of("ALLERGY except peanuts | tree nuts") == Words(
        "ALLERGY", ("peanuts", "tree nuts"), True
    )
    assert words_of("LIVES_IN Porto") == Words("LIVES_IN", ("Porto",), False)
    assert words_of("F3a9c1b") is None and words_of("call Marta") is None
    rows_ = [
        {"predicate": "LIVES_IN", "memory_type": "PROFILE", "fact_type": "fact", "scope": "global",
         "text": "User lives in Porto", "value": None, "object": "Porto", "category": "Location"},
    ]  # fmt: skip
    facts, _ = ended_facts([Words("LIVES_IN", ("porto",), False)], rows_, T0)
    assert [(f.object, f.valid_to) for f in facts] == [("Porto", T0.isoformat())]


def test_a_model_forgets_only_what_the_person_asked() -> None:
    assert asked_forget(["everything"], []) == []
    assert asked_forget(["Marta Silva", "Lisbon"], ["Marta Silva"]) == ["Marta Silva"]
    assert asked_forget(["Marta"], ["Marta Silva"]) == ["Marta Silva", "Marta"]


async def test_a_model_judge_forgets_what_the_person_asked_and_nothing_else(
    judged: httpx.AsyncClient,  # noqa: F811 - the fixture, imported from test_judge
    resources: Clients,
    user_id: str,
) -> None:
    colleague = {
        "entities": [{"name": "Marta Silva"}, {"name": "Lisbon", "category": "Location"}],
        "facts": [
            fact("HAS_COLLEAGUE", "Marta Silva is the user's colleague", obj="Marta Silva",
                 memory_type="PEOPLE", fact_type="relationship"),
            fact("LIVES_IN", "User lives in Lisbon", obj="Lisbon"),
        ],
    }  # fmt: skip
    await commit(
        judged, turn(user_id, "Marta Silva is my colleague, I live in Lisbon", plan=colleague)
    )
    model_plan = {"facts": [], "forget": ["everything", "Marta Silva"]}
    async with respx.mock(base_url=BASE_URL) as router:
        router.post("/chat/completions").mock(
            return_value=httpx.Response(200, json=completion(json.dumps(model_plan)))
        )
        answer = await commit(
            judged, turn(user_id, "Please forget that I told you about Marta Silva", at=later(1))
        )
    assert answer["plan_source"] == "llm_judge"
    (notice,) = [w for w in answer["warnings"] if w["code"] == "plan_forget_applied"]
    assert "'Marta Silva'" in notice["detail"] and "everything" not in notice["detail"]
    assert [r["text"] for r in await rows(resources, LIVE, user_id)] == ["User lives in Lisbon"]
