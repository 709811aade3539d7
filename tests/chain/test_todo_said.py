"""The todo lifecycle as people and small models say it (issue 27 §6, 28), through the HTTP
chain (``/v1/turn`` + ``/v1/commit``): a forget that names a pending todo drops it and forgets
nothing; a past tense of a todo's verb with its words closes it ("booked the train"), for a
small model's ``complete_commitment`` and for a reply-only answer the judge reads; several
that fit ask which; a todo of an unknown kind is kept. And what must not close or forget."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

from tests.chain.conversation import T0, answer, ok


def _ids() -> dict[str, str]:
    return {"user_id": f"said-{uuid.uuid4().hex[:8]}", "agent_id": "wren", "chat_id": "tg-said"}


async def _reply_only(nodes, ids: dict[str, str], text: str, minute: int) -> dict[str, Any]:
    """A turn whose model answered with a reply and no plan: the judge reads the message."""
    now, message_id = (T0 + timedelta(minutes=minute)).isoformat(), uuid.uuid4().hex
    await ok(
        nodes["retrieve"],
        "/v1/turn",
        {**ids, "message": text, "message_id": message_id, "now": now,
         "persona_prompt": "You are wren."},
    )  # fmt: skip
    return await ok(
        nodes["memory"],
        "/v1/commit",
        {**ids, "turn_id": uuid.uuid4().hex, "now": now,
         "messages": [{"role": "user", "text": text, "external_id": message_id}],
         "answer": json.dumps({"reply": "ok!"})},
    )  # fmt: skip


async def _todos(nodes, ids: dict[str, str], minute: int, *texts: str) -> None:
    """A small model writes the todos (one turn, ``kind`` as it likes)."""
    said = "remind me to " + " and to ".join(t.lower() for t in texts)
    plan = {"todos": [{"text": t, "kind": "TASK"} for t in texts]}
    await answer(nodes, ids, said, minute, "sure!", plan)


def _closed(commit: dict[str, Any]) -> dict[str, str]:
    return {c["text"]: c["outcome"] for c in commit["completions"]}


def _codes(commit: dict[str, Any]) -> list[str]:
    return [w["code"] for w in commit["warnings"]]


async def test_forget_naming_a_pending_todo_drops_it_and_forgets_nothing(nodes) -> None:
    ids = _ids()
    await _todos(nodes, ids, 0, "Return the IKEA shelf", "Take the bike to the shop")
    shelf = await _reply_only(nodes, ids, "also forget the ikea shelf, we're keepin it lol", 1)
    assert _closed(shelf) == {"Return the IKEA shelf": "dropped"}
    assert "plan_forget_applied" not in _codes(shelf)
    bike = await _reply_only(nodes, ids, "oh and forget the bike shop thing, sold the bike 🙃", 2)
    assert _closed(bike) == {"Take the bike to the shop": "dropped"}
    assert "plan_forget_applied" not in _codes(bike)


async def test_a_small_models_forget_of_a_todo_drops_it(nodes) -> None:
    ids = _ids()
    await _todos(nodes, ids, 0, "send flowers to hanna")
    said = await answer(
        nodes, ids, "forget the flowers for hanna, her flat is a jungle already 🌸", 1,
        "ok!", {"forget": ["flowers for hanna"], "complete_commitment": True},
    )  # fmt: skip
    assert _closed(said) == {"send flowers to hanna": "dropped"}
    assert "plan_forget_applied" not in _codes(said)


async def test_a_forget_that_names_no_todo_is_still_a_forget(nodes) -> None:
    ids = _ids()
    await _todos(nodes, ids, 0, "Call kasia")
    await _reply_only(nodes, ids, "my old address was rua das flores 12", 1)
    forgot = await _reply_only(nodes, ids, "pls forget my old address", 2)
    assert _closed(forgot) == {}
    assert "plan_forget_applied" in _codes(forgot)


async def test_what_is_no_forget_and_no_drop(nodes) -> None:
    ids = _ids()
    await _todos(nodes, ids, 0, "Call mum", "Book the dentist")
    for n, said in enumerate(
        ["i'll never forget that day tbh", "don't forget to call mum", "forget it", "nvm"]
    ):
        commit = await _reply_only(nodes, ids, said, 1 + n)
        assert _closed(commit) == {}, said
        assert "plan_forget_applied" not in _codes(commit), said


async def test_a_small_models_complete_commitment_closes_the_todo_its_verb_names(nodes) -> None:
    ids = _ids()
    await _todos(nodes, ids, 0, "Book vet for Loke", "Book train to Ålesund", "Call kasia")
    train = await answer(
        nodes, ids, "thx. booked the train, leavin tuesday", 1, "safe trip",
        {"complete_commitment": True},
    )  # fmt: skip
    assert _closed(train) == {"Book train to Ålesund": "completed"}
    assert "commitment_not_completed" not in _codes(train)
    call = await answer(
        nodes, ids, "called kasia last nite, party is on the 28th", 2, "nice",
        {"complete_commitment": True},
    )  # fmt: skip
    assert _closed(call) == {"Call kasia": "completed"}


async def test_irregular_pasts_and_a_todo_marked_done_by_the_judge(nodes) -> None:
    ids = _ids()
    await _todos(nodes, ids, 0, "Buy a gift for joana", "Text Ingrid about the gig")
    bought = await answer(
        nodes, ids, "finally bought joanas gift 🎁", 1, "yay", {"complete_commitment": True}
    )
    assert _closed(bought) == {"Buy a gift for joana": "completed"}
    texted = await _reply_only(nodes, ids, "texted her about the gig btw, she came!", 2)
    assert _closed(texted) == {"Text Ingrid about the gig": "completed"}


async def test_the_judge_reads_a_booking_said_with_a_tick(nodes) -> None:
    ids = _ids()
    await _todos(nodes, ids, 0, "Book vet for Loke's vaccines", "Return the IKEA shelf")
    said = await _reply_only(nodes, ids, "back home. vet's booked for next thursday ✅", 1)
    assert _closed(said) == {"Book vet for Loke's vaccines": "completed"}


async def test_what_closes_nothing(nodes) -> None:
    ids = _ids()
    await _todos(nodes, ids, 0, "Book the dentist", "Call kasia")
    for n, said in enumerate(
        [
            "i booked nothing yet lol",
            "booked a table at the thai place for friday",  # the verb, about something else
            "she called kasia yesterday apparently",
            "did u book the dentist?",
        ]
    ):
        commit = await answer(nodes, ids, said, 1 + n, "ok", {"complete_commitment": True})
        assert _closed(commit) == {}, said
        assert "commitment_not_completed" in _codes(commit), said


async def test_several_todos_the_words_fit_as_well_ask_which(nodes) -> None:
    ids = _ids()
    await _todos(nodes, ids, 0, "Call kasia about the party", "Call kasia wrobel about lights")
    said = await answer(nodes, ids, "called kasia!!", 1, "nice", {"complete_commitment": True})
    assert _closed(said) == {}
    assert any(q.startswith("Which one is done:") for q in said["questions"]), said["questions"]


async def test_a_todo_of_an_unknown_kind_is_kept_with_a_warning(nodes) -> None:
    ids = _ids()
    plan = {"todos": [{"kind": "HOMEWORK", "text": "5 sentences in imperfecto", "due": "thu"}]}
    said = await answer(
        nodes, ids, "homework for thursday: 5 sentences in imperfecto", 0, "ok", plan
    )
    assert [t["text"] for t in said["todos"]] == ["5 sentences in imperfecto"]
    (warning,) = [w for w in said["warnings"] if "HOMEWORK" in w["detail"]]
    assert warning["code"] == "plan_repaired" and ".todos[0].kind" in warning["detail"]


async def test_a_plan_that_tells_done_from_dropped_keeps_both_beside_words_of_calling_off(
    nodes,
) -> None:
    """ "nvm…", "forget…", "no need" read a model's ``done`` as dropped only when the plan drops
    nothing itself: a plan with both told them apart."""
    ids = _ids()
    await _todos(nodes, ids, 0, "Renew the passport", "Sort the travel insurance")
    said = "passport came back today thank god. and forget the travel insurance, no need"
    plan = {"done": ["renew the passport"], "dropped": ["sort the travel insurance"]}
    closed = await answer(nodes, ids, said, 1, "great, both sorted!", plan)
    assert _closed(closed) == {
        "Renew the passport": "completed",
        "Sort the travel insurance": "dropped",
    }, closed["warnings"]
