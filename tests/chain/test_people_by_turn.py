"""Issue 27's people and todo scenarios, driven only by conversation through ``/v1/turn`` +
``/v1/commit`` as ``fast-brain.json`` drives them: a question from ``/v1/turn`` goes out as the
reply (no plan), otherwise the model's answer (its reply and plan, written here as a model
would) is committed as raw text. Nothing is inserted by SQL; memory is read back through
``GET /v1/export``."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

import pytest

from bench.model_loop.checks import export, holds
from tests.chain.conversation import T0, ok

IDS = {"agent_id": "deanna", "chat_id": "tg-scenarios"}


class Person:
    """One person talking to deanna, turn by turn."""

    def __init__(self, nodes) -> None:
        self.nodes, self.minute = nodes, 0
        self.ids = {"user_id": f"turns-{uuid.uuid4().hex[:8]}", **IDS}
        self.last: dict[str, Any] = {}

    def now(self) -> str:
        return (T0 + timedelta(minutes=self.minute)).isoformat()

    async def says(
        self, text: str, plan: dict[str, Any] | None = None, minutes: int = 1, reply: str = "Okay."
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """``/v1/turn`` for ``text``, then the commit of the question or of ``plan``'s answer
        (``reply`` beside it)."""
        self.minute += minutes
        message_id = uuid.uuid4().hex
        one = await ok(
            self.nodes["retrieve"],
            "/v1/turn",
            {**self.ids, "message": text, "message_id": message_id, "now": self.now(),
             "persona_prompt": "You are deanna, a friendly assistant."},
        )  # fmt: skip
        answer: dict[str, Any] = {"reply": reply}
        if one["next"] == "question":
            answer = {"reply": one["hydrate"]["GRAPH"]["pending_question"]["question"]}
        elif plan is not None:
            answer["plan"] = plan
        commit = await ok(
            self.nodes["memory"],
            "/v1/commit",
            {**self.ids, "turn_id": uuid.uuid4().hex, "now": self.now(),
             "messages": [{"role": "user", "text": text, "external_id": message_id}],
             "answer": json.dumps(answer),
             "active_entity_ids": (one.get("hydrate") or {}).get("active_entity_ids", [])},
        )  # fmt: skip
        self.last = one
        return one, commit

    async def memory(self) -> dict[str, list[dict[str, Any]]]:
        return await export(self.nodes["memory"], self.ids["user_id"])

    async def scratch(self) -> dict[str, Any]:
        self.minute += 1
        pulse = await ok(
            self.nodes["pulse"], "/v1/pulse", {**self.ids, "message": "hm", "now": self.now()}
        )
        scratch: dict[str, Any] = pulse["session"]["scratch"]
        return scratch


def fact(subject: str, predicate: str, text: str, **more: Any) -> dict[str, Any]:
    kind = "PROFILE" if subject == "user" and "object" not in more else "PEOPLE"
    return {"memory_type": kind, "subject": subject, "predicate": predicate, "text": text, **more}


def people(tables: dict[str, list], word: str) -> list[dict[str, Any]]:
    aliases: dict[str, list[str]] = {}
    for a in tables["entity_aliases"]:
        aliases.setdefault(a["entity_id"], []).append(a["alias"].lower())
    return [
        e
        for e in tables["entities"]
        if e["active"]
        and e["category"] == "Person"
        and any(word in n.lower().split() for n in [e["name"], *aliases.get(e["entity_id"], [])])
    ]


def current(tables: dict[str, list], predicate: str, at: str) -> list[str]:
    from datetime import datetime

    when = datetime.fromisoformat(at)
    return [
        r["text"]
        for r in tables["relations"]
        if r["predicate"] == predicate.upper() and holds(r, when)
    ]


async def two_martas(nodes) -> Person:
    me = Person(nodes)
    await me.says(
        "my sister marta is visiting and my coworker marta silva covered my shift",
        {
            "entities": [{"name": "Marta"}, {"name": "Marta Silva", "distinct_from": "Marta"}],
            "facts": [
                fact("user", "has_sister", "Marta is the user's sister", object="Marta"),
                fact("user", "has_colleague", "Marta Silva is the user's coworker",
                     object="Marta Silva"),
            ],
        },
    )  # fmt: skip
    return me


@pytest.mark.parametrize(
    ("said", "picks", "alias"),
    [
        ("the work one", "Marta Silva", "work marta"),
        ("my sister", "Marta", "sister marta"),
        ("my sis lol", "Marta", "sis marta"),
        ("my sister lol not the other marta", "Marta", "sister marta"),
        ("Marta Silva", "Marta Silva", None),
        ("marta silva, from work", "Marta Silva", None),
        ("work marta", "Marta Silva", None),
        ("marta from work lol", "Marta Silva", None),
    ],
)
async def test_which_marta_closes_by_the_next_message(
    nodes, said: str, picks: str, alias: str | None
) -> None:
    me = await two_martas(nodes)
    asked, _ = await me.says("Remind me to call Marta")
    assert asked["next"] == "question"
    question = asked["hydrate"]["GRAPH"]["pending_question"]
    assert {c["name"] for c in question["candidates"]} == {"Marta", "Marta Silva"}
    assert (await me.scratch())["pending_questions"], "the question is pending"
    waiting = next(
        m for m in (await me.memory())["messages"] if m["text"] == "Remind me to call Marta"
    )

    answered, commit = await me.says(said, {"facts": []})
    assert answered["next"] == "model"
    assert [w for w in commit["warnings"] if w["code"] == "question_answered"]
    assert not [w for w in commit["warnings"] if w["code"] == "unknown_active_entity"]
    assert (await me.scratch())["pending_questions"] == []

    tables = await me.memory()
    chosen = next(e for e in tables["entities"] if e["name"] == picks and e["active"])
    linked = next(m for m in tables["messages"] if m["message_id"] == waiting["message_id"])
    assert chosen["entity_id"] in linked["entity_ids"]
    stored = {a["alias"].lower() for a in tables["entity_aliases"]}
    if alias is not None:
        assert alias in stored
    todo = [t for t in tables["todos"] if "marta" in t["text"].lower()]
    assert [t["source_message_id"] for t in todo] == [waiting["message_id"]]

    # a turn naming nobody carries both in focus, and is no mention of either: the one the
    # answer chose is still the one last said
    await me.says("ugh long day, so tired")
    again, _ = await me.says("did i already tell you to call marta?")
    assert again["next"] == "model"
    assert [m["entity_id"] for m in again["hydrate"]["mentions"]] == [chosen["entity_id"]]


async def test_a_relation_with_a_name_picks_that_sister_and_my_other_sister_adds_one(
    nodes,
) -> None:
    me = Person(nodes)
    await me.says(
        "my sister marta lives in madrid",
        {"entities": [{"name": "Marta"}],
         "facts": [fact("user", "has_sister", "Marta is the user's sister", object="Marta"),
                   fact("Marta", "lives_in", "Marta lives in Madrid", value="Madrid")]},
    )  # fmt: skip
    other, commit = await me.says(
        "my other sister beatriz lives in rome",
        {"entities": [{"name": "Beatriz"}],
         "facts": [fact("user", "has_sister", "Beatriz is the user's sister", object="Beatriz"),
                   fact("Beatriz", "lives_in", "Beatriz lives in Rome", value="Rome")]},
    )  # fmt: skip
    assert other["next"] == "model"
    assert [f["outcome"] for f in commit["facts"]] == ["created", "created"]
    tables = await me.memory()
    assert len(current(tables, "has_sister", me.now())) == 2
    assert {e["name"] for e in people(tables, "marta") + people(tables, "beatriz")} == {
        "Marta",
        "Beatriz",
    }

    call, _ = await me.says("call my sister Beatriz tomorrow")
    assert call["next"] == "model"
    beatriz = next(e for e in tables["entities"] if e["name"] == "Beatriz")
    assert [m["entity_id"] for m in call["hydrate"]["mentions"]] == [beatriz["entity_id"]]


async def test_my_other_sister_with_no_plan_adds_a_second_sister(nodes) -> None:
    me = Person(nodes)
    await me.says("My sister Marta lives in Madrid.")
    await me.says("My other sister Beatriz lives in Rome.")
    tables = await me.memory()
    assert len(current(tables, "has_sister", me.now())) == 2
    call, _ = await me.says("call my sister Beatriz")
    assert call["next"] == "model"


async def test_a_bare_first_name_finds_a_full_name_and_an_alias(nodes) -> None:
    me = Person(nodes)
    await me.says(
        "my manager joana costa (everyone calls her jojo) approved my leave",
        {"entities": [{"name": "Joana Costa", "aliases": ["Jojo"]}],
         "facts": [fact("user", "has_manager", "Joana Costa is the user's manager",
                        object="Joana Costa")]},
    )  # fmt: skip
    joana = next(e for e in (await me.memory())["entities"] if e["name"] == "Joana Costa")
    for said in ("joana said yes to friday", "jojo is the best"):
        one, _ = await me.says(said)
        assert one["next"] == "model"
        assert [m["entity_id"] for m in one["hydrate"]["mentions"]] == [joana["entity_id"]]


@pytest.mark.parametrize(
    ("said", "planned"),
    [
        ("pixel chewed my charger again", fact("user", "has_dog", "The user has a dog named Pixel",
                                               object="Pixel")),
        ("my dog pixel chewed my charger", [
            fact("user", "has_dog", "The user has a dog named Pixel", object="Pixel"),
            fact("Pixel", "chewed", "Pixel chewed the user's charger", value="the charger")]),
        ("biscuit my cat knocked over the plant", fact("user", "has_cat",
                                                       "The user has a cat named Biscuit",
                                                       value="Biscuit")),
    ],
)  # fmt: skip
async def test_a_fact_about_an_unknown_name_never_mints_a_person(
    nodes, said: str, planned: dict[str, Any] | list[dict[str, Any]]
) -> None:
    me = Person(nodes)
    for _ in range(2):
        facts = planned if isinstance(planned, list) else [planned]
        one, _ = await me.says(said, {"facts": facts})
        assert one["next"] == "model"
    name = "pixel" if "pixel" in said else "biscuit"
    assert people(await me.memory(), name) == []
    one, _ = await me.says(f"{name} is asleep now")
    assert one["next"] == "model"


@pytest.mark.parametrize(
    ("said", "planned", "category"),
    [
        ("pixel hid under the bed all day lol",
         fact("Pixel", "hid", "Pixel hid under the bed all day", value="under the bed"), "Other"),
        ("my dog pixel hid under the bed all day",
         fact("Pixel", "hid", "Pixel hid under the bed all day", value="under the bed"), "Pet"),
        ("pixel's breed is a beagle mix btw",
         fact("Pixel", "breed", "Pixel is a beagle mix", value="beagle mix"), "Pet"),
        ("marco got a job at ikea!!",
         fact("Marco", "works_at", "Marco works at IKEA", value="IKEA"), "Person"),
    ],
)  # fmt: skip
async def test_a_people_fact_about_an_unknown_name_takes_its_kind_from_the_predicate_or_words(
    nodes, said: str, planned: dict[str, Any], category: str
) -> None:
    """A PEOPLE fact whose subject no entities entry declares: its category comes from the
    predicate or the person's words, else it is Other with a warning — never a Person by its
    memory type alone — and later turns naming it ask nothing."""
    me = Person(nodes)
    warnings = []
    for _ in range(2):
        one, commit = await me.says(said, {"facts": [planned]})
        assert one["next"] == "model"
        assert any(planned["text"] == f["text"] for f in commit["facts"]), commit
        warnings += commit["warnings"]
    name = planned["subject"]
    tables = await me.memory()
    kinds = [e["category"] for e in tables["entities"] if e["name"] == name and e["active"]]
    assert kinds == [category]
    warned = [w for w in warnings if w["code"] == "entity_category_unknown"]
    assert bool(warned) == (category == "Other"), warnings
    if category != "Person":
        assert people(tables, name.lower()) == []
    one, _ = await me.says(f"{name.lower()} is asleep now")
    assert one["next"] == "model"


async def test_a_plan_names_the_todo_done_or_dropped_and_closes_a_thread(nodes) -> None:
    me = Person(nodes)
    todos = [
        ("remind me to call the bank", {"kind": "COMMITMENT", "text": "Call the bank"}),
        ("and book the dentist pls", {"kind": "COMMITMENT", "text": "Book the dentist"}),
        ("still deciding whether to move to porto", {"kind": "THREAD",
                                                     "text": "Deciding whether to move to Porto"}),
    ]  # fmt: skip
    for said, todo in todos:
        await me.says(said, {"todos": [todo]})
    one, _ = await me.says("what's on my list")
    handles = {
        line["todo"]: line["id"]
        for m in one["envelope"]["messages"]
        for line in _json_lines(m["content"])
        if "todo" in line
    }
    assert set(handles) >= {"Call the bank", "Book the dentist"}

    _, done = await me.says("called the bank finally", {"done": [handles["Call the bank"]]})
    assert [c["outcome"] for c in done["completions"]] == ["completed"]
    _, dropped = await me.says("nah not moving, staying put", {"dropped": ["moving to Porto"]})
    assert [c["outcome"] for c in dropped["completions"]] == ["dropped"]
    await me.says("remind me to water the plants", {"todos": [
        {"kind": "COMMITMENT", "text": "Water the plants"}]})  # fmt: skip
    _, bare = await me.says("done!", {"complete_commitment": True})
    assert bare["completions"] == []
    assert any(q.startswith("Which one is done:") for q in bare["questions"])
    status = {t["text"]: t["status"] for t in (await me.memory())["todos"]}
    assert status == {
        "Call the bank": "DONE",
        "Book the dentist": "PENDING",
        "Deciding whether to move to Porto": "DROPPED",
        "Water the plants": "PENDING",
    }


def _json_lines(content: str) -> list[dict[str, Any]]:
    out = []
    for line in content.splitlines():
        if line.startswith("{"):
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and isinstance(row.get("id"), str):
                out.append(row)
    return out


async def test_two_same_key_facts_in_one_plan_end_the_first_and_start_the_second(nodes) -> None:
    me = Person(nodes)
    _, commit = await me.says(
        "i left acme last friday and started at globex today",
        {"facts": [
            fact("user", "works_at", "User worked at Acme", value="Acme",
                 valid_to="last friday"),
            fact("user", "works_at", "User works at Globex", value="Globex",
                 valid_from="today"),
        ]},
    )  # fmt: skip
    assert [f["outcome"] for f in commit["facts"]] == ["ended", "created"]
    assert len({f["fact_id"] for f in commit["facts"]}) == 2
    assert current(await me.memory(), "works_at", me.now()) == ["User works at Globex"]


async def test_a_future_start_does_not_supersede_before_its_date(nodes) -> None:
    me = Person(nodes)
    await me.says(
        "i live in lisbon", {"facts": [fact("user", "lives_in", "User lives in Lisbon",
                                            value="Lisbon")]}
    )  # fmt: skip
    await me.says(
        "moving to porto on june 1st!!",
        {"facts": [fact("user", "lives_in", "User lives in Porto", value="Porto",
                        valid_from="2026-06-01")]},
    )  # fmt: skip
    tables = await me.memory()
    assert current(tables, "lives_in", me.now()) == ["User lives in Lisbon"]
    assert current(tables, "lives_in", "2026-06-02T12:00:00+00:00") == ["User lives in Porto"]


async def test_a_hedged_statement_is_never_a_current_fact(nodes) -> None:
    me = Person(nodes)
    await me.says(
        "i work at acme", {"facts": [fact("user", "works_at", "User works at Acme",
                                          value="Acme")]}
    )  # fmt: skip
    await me.says(
        "got the spotify offer, i think im taking it",
        {"facts": [fact("user", "works_at", "User works at Spotify", value="Spotify")]},
    )  # fmt: skip
    assert current(await me.memory(), "works_at", me.now()) == ["User works at Acme"]


async def test_a_sister_a_small_model_gives_as_a_plain_value_is_linked(nodes) -> None:
    me = Person(nodes)
    await me.says(
        "my sister joana moved to lyon",
        {"facts": [{"memory_type": "PEOPLE", "predicate": "sister", "value": "Joana",
                    "text": "User's sister is Joana"}]},
    )  # fmt: skip
    tables = await me.memory()
    (joana,) = people(tables, "joana")
    assert current(tables, "has_sister", me.now()) == ["User's sister is Joana"]
    one, _ = await me.says("remind me to call my sister tonight")
    sister = [m["entity_id"] for m in one["hydrate"]["mentions"] if m["relation"] == "sister"]
    assert sister == [joana["entity_id"]]
    await me.says(
        "joana is loving lyon",
        {"facts": [{"memory_type": "PEOPLE", "predicate": "sister", "value": "Joana",
                    "text": "User's sister is Joana"}]},
    )  # fmt: skip
    assert [e["entity_id"] for e in people(await me.memory(), "joana")] == [joana["entity_id"]]
