"""Writes you can trust, as a person meets them: each message goes through the fast-brain chain
(pulse → hydrate → retrieve → envelope → commit, no model: the offline judge decides what to
remember), and what memory holds is read back through hydrate and retrieve."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from datetime import datetime, timedelta

import httpx
import pytest

from services.core.app import create_app
from services.core.deps import Clients
from services.core.settings import Settings
from services.nodes import node_spec
from services.playground.turn import ROUTES, Conversation, Exchange
from tests.memory_upserter.conftest import AGENT, T0, rows


class _Routed(httpx.AsyncBaseTransport):
    """One client for every node: the host names the node, its in-process app answers."""

    def __init__(self, clients: dict[str, httpx.AsyncClient]) -> None:
        self.clients = clients

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        client = self.clients[request.url.host]
        return await client._transport.handle_async_request(request)  # noqa: SLF001


@pytest.fixture(scope="module")
async def chain(
    settings: Settings, resources: Clients, app_client
) -> AsyncIterator[httpx.AsyncClient]:
    async with AsyncExitStack() as stack:
        clients = {
            node: await stack.enter_async_context(
                app_client(create_app(node_spec(node), settings, resources))
            )
            for node in ROUTES
        }
        async with httpx.AsyncClient(transport=_Routed(clients)) as client:
            yield client


class Person:
    """A person in one chat: ``say`` runs the chain; ``hydrate``/``retrieve`` read memory."""

    def __init__(self, chain: httpx.AsyncClient, user_id: str) -> None:
        self.chain, self.user_id = chain, user_id
        self.talk = Conversation(chain, {n: f"http://{n}" for n in ROUTES}, user_id, AGENT, "tg:1")

    async def say(self, text: str, at: datetime) -> dict:
        exchange: Exchange = await self.talk.say(text, now=at)
        return exchange.answers["memory-upserter"]

    async def hydrate(self, message: str, at: datetime) -> dict:
        response = await self.chain.post(
            "http://graph-hydrator/v1/hydrate",
            json={
                "user_id": self.user_id,
                "agent_id": AGENT,
                "chat_id": "tg:2",
                "message": message,
                "now": at.isoformat(),
            },
        )
        assert response.status_code == 200, response.text
        return response.json()["GRAPH"]

    async def retrieve(self, message: str, at: datetime) -> list[str]:
        response = await self.chain.post(
            "http://rag-gate/v1/retrieve",
            json={
                "user_id": self.user_id,
                "agent_id": AGENT,
                "chat_id": "tg:2",
                "message": message,
                "force": "open",
                "now": at.isoformat(),
            },
        )
        assert response.status_code == 200, response.text
        facts = response.json()["FACTS"]
        return [f["text"] for f in facts["relevant_facts"]] + [
            line for card in facts["entity_cards"] for line in card["facts"]
        ]


def edges(graph: dict) -> set[str]:
    return {e["text"] for e in graph["edges"]} | {f["text"] for f in graph["foundation"]}


@pytest.fixture
def person(chain: httpx.AsyncClient, user_id: str) -> Person:
    return Person(chain, user_id)


def day(n: float) -> datetime:
    return T0 + timedelta(days=n)


async def test_questions_hypotheticals_and_disputed_claims_write_nothing(
    person: Person, resources: Clients
) -> None:
    await person.say("I live in Lisbon.", day(0))
    for i, text in enumerate(
        [
            "Do I live in Porto or Lisbon?",
            "Who is my sister?",
            "He said I work at Acme, but that's wrong.",
            "What if I moved to Berlin?",
            "I never said I live in London.",
            "I'd love to live in Paris someday.",
        ]
    ):
        answer = await person.say(text, day(0) + timedelta(minutes=i + 1))
        assert answer["facts"] == [] and answer["entities"] == [], text
    names = await rows(
        resources,
        "SELECT name FROM entities WHERE user_id = $1 AND entity_ref <> 'self:user'",
        person.user_id,
    )
    assert [n["name"] for n in names] == ["Lisbon"]
    assert "User lives in Lisbon" in edges(await person.hydrate("Lisbon", day(1)))


async def test_a_move_closes_the_old_home_and_a_past_now_still_sees_it(person: Person) -> None:
    await person.say("I live in Lisbon.", day(0))
    moved = await person.say("Actually I moved from Lisbon to Porto.", day(10))
    (fact,) = moved["facts"]
    assert (fact["text"], fact["outcome"]) == ("User lives in Porto", "superseded_previous")
    now = await person.hydrate("Lisbon or Porto", day(11))
    assert "User lives in Porto" in edges(now) and "User lives in Lisbon" not in edges(now)
    then = await person.hydrate("Lisbon or Porto", day(5))
    assert "User lives in Lisbon" in edges(then) and "User lives in Porto" not in edges(then)
    assert "User lives in Lisbon" in await person.retrieve("where did I live, Lisbon?", day(5))
    assert "User lives in Lisbon" not in await person.retrieve("Lisbon", day(11))


async def test_time_phrases_date_the_fact_and_leave_its_value(person: Person) -> None:
    answer = await person.say("I moved to Porto last week.", day(0))
    assert [e["name"] for e in answer["entities"]] == ["Porto"]
    (fact,) = answer["facts"]
    assert fact["text"] == "User lives in Porto"
    assert fact["valid_from"].startswith((T0 - timedelta(days=7)).date().isoformat())
    joined = await person.say("I joined Globex in March", day(1))
    works = next(f for f in joined["facts"] if f["predicate"] == "WORKS_AT")
    assert works["valid_from"].startswith("2025-03-01")


async def test_a_stay_until_friday_is_current_until_friday_then_history(person: Person) -> None:
    said = await person.say("I'm staying in Paris until Friday", day(0))  # a Wednesday
    (fact,) = said["facts"]
    assert fact["valid_to"].startswith("2026-01-10")
    assert "User is staying in Paris" in edges(await person.hydrate("Paris", day(1)))
    assert "User is staying in Paris" not in edges(await person.hydrate("Paris", day(4)))


async def test_no_longer_ends_a_fact(person: Person) -> None:
    await person.say("I work at Acme.", day(0))
    ended = await person.say("I no longer work at Acme.", day(3))
    assert [(f["predicate"], f["outcome"]) for f in ended["facts"]] == [("WORKS_AT", "ended")]
    assert "User works at Acme" not in edges(await person.hydrate("Acme", day(4)))
    assert "User works at Acme" in edges(await person.hydrate("Acme", day(1)))


async def test_two_martas_told_apart_by_talking_and_an_ambiguous_reminder_asks(
    person: Person, resources: Clients
) -> None:
    await person.say("My sister Marta lives in Lisbon.", day(0))
    second = await person.say(
        "My colleague Marta works with me in Berlin — a different Marta.", day(1)
    )
    martas = await rows(
        resources,
        """
        SELECT e.entity_id::text, e.entity_ref,
               ARRAY(SELECT a.alias FROM entity_aliases a WHERE a.entity_id = e.entity_id) AS al
          FROM entities e WHERE e.user_id = $1 AND e.name = 'Marta' ORDER BY e.created_at""",
        person.user_id,
    )
    assert [m["al"] for m in martas] == [["family Marta"], ["work Marta"]]
    created = {e["entity_id"] for e in second["entities"] if e["outcome"] == "created"}
    assert martas[1]["entity_id"] in created
    work = await person.hydrate("how is work Marta?", day(2))
    assert "work Marta works in Berlin" in edges(work)
    assert "Marta lives in Lisbon" not in edges(work)
    sister = await person.hydrate("how is family Marta?", day(2))
    assert "Marta lives in Lisbon" in edges(sister)

    remind = await person.say("Remind me to call Marta tomorrow", day(2))
    assert [t["text"] for t in remind["todos"]] == ["Call Marta"]
    (ask,) = [w for w in remind["warnings"] if w["code"] == "entity_ambiguous"]
    question = "Which Marta do you mean — family Marta (sister) or work Marta (colleague)?"
    assert ask["detail"].endswith(question)
    nxt = await person.talk.say("ok", now=day(2) + timedelta(minutes=1))
    scratch = nxt.answers["pulse-decay"]["session"]["scratch"]
    assert scratch["pending_questions"] == [question]


async def test_the_same_colleague_again_is_not_a_third_marta(
    person: Person, resources: Clients
) -> None:
    await person.say("My sister Marta lives in Lisbon.", day(0))
    await person.say("My colleague Marta works with me in Berlin.", day(1))
    await person.say("My colleague Marta is great.", day(2))
    count = await rows(
        resources,
        "SELECT count(*) AS n FROM entities WHERE user_id = $1 AND name = 'Marta'",
        person.user_id,
    )
    assert count == [{"n": 2}]


async def test_done_completes_the_one_pending_reminder_and_asks_when_several(
    person: Person,
) -> None:
    await person.say("Remind me to call Marta tomorrow", day(0))
    done = await person.say("I called Marta, that's done.", day(1))
    assert [(c["text"], c["kind"], c["outcome"]) for c in done["completions"]] == [
        ("Call Marta", "REMINDER", "completed")
    ]
    await person.say("Remind me to buy milk", day(2))
    await person.say("I'll send the report on Friday", day(2) + timedelta(minutes=1))
    unsure = await person.say("Done!", day(3))
    assert unsure["completions"] == []
    (ask,) = [w for w in unsure["warnings"] if w["code"] == "commitment_not_completed"]
    assert "'Buy milk'" in ask["detail"] and "'Send the report'" in ask["detail"]
    named = await person.say("I sent the report, done.", day(3) + timedelta(minutes=1))
    assert [c["text"] for c in named["completions"]] == ["Send the report"]


async def test_a_habit_check_in_keeps_the_habit(person: Person) -> None:
    await person.say("Every morning I stretch for ten minutes", day(0))
    done = await person.say("Stretching done for today", day(1))
    assert [(c["kind"], c["outcome"]) for c in done["completions"]] == [("HABIT", "checked_in")]
    graph = await person.hydrate("hi", day(1))
    assert graph is not None
