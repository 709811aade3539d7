"""``GET /v1/export``: all a person's memory as one JSON document — theirs only, and all of it.

Two people live through the same paths a conversation takes (profile, pulse, turns with plans,
a forget, an owned document, a consolidated session); each export is then checked against the
database itself: every table of the schema that holds person data is in the document, with
exactly the person's rows, and nothing of the other person is anywhere in it.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

import httpx
import msgspec
import pytest

from services.core.app import create_app
from services.core.deps import Clients
from services.core.settings import Settings
from services.memory_upserter.person.export import BATCH, export_document
from services.nodes import node_spec
from tests.memory_upserter.conftest import AGENT, T0, commit, fact, rows, turn

# Tables that hold no person's data, so carry no user_id: the agents' registry and the
# migration ledger. Any other table without a user_id fails the completeness test until it is
# classified here or given one.
NOT_PERSON_DATA = {"agents", "schema_migrations"}

USER_TABLES = """
SELECT c.table_name FROM information_schema.columns c
  JOIN information_schema.tables t USING (table_schema, table_name)
 WHERE c.table_schema = 'public' AND c.column_name = 'user_id' AND t.table_type = 'BASE TABLE'
"""


async def live_through(
    settings: Settings, resources: Clients, app_client, user_id: str, word: str
) -> None:
    """A person's memory built the way a conversation builds it; ``word`` marks it."""
    async with app_client(create_app(node_spec("memory-upserter"), settings, resources)) as up:
        assert (
            await up.post(
                "/v1/profile",
                json={
                    "user_id": user_id,
                    "display_name": f"Alex {word}",
                    "seed_text": f"I am {word}.",
                    "facts": [{"text": f"User works at {word} Labs", "value": f"{word} Labs"}],
                },
            )
        ).status_code == 200
        await commit(
            up,
            turn(
                user_id,
                f"My sister {word}a lives in Porto. Remind me to call {word}a on Friday.",
                plan={
                    "entities": [
                        {"name": f"{word}a", "category": "Person", "aliases": [f"{word}i"]}
                    ],
                    "facts": [
                        fact(
                            "HAS_SISTER",
                            f"{word}a is the user's sister",
                            obj=f"{word}a",
                            memory_type="PEOPLE",
                            fact_type="relationship",
                        ),
                        fact(
                            "LIVES_IN",
                            f"{word}a lives in Porto",
                            subject=f"{word}a",
                            value="Porto",
                            memory_type="PEOPLE",
                        ),
                    ],
                    "todos": [{"kind": "COMMITMENT", "text": f"Call {word}a", "due": "friday"}],
                },
            ),
        )
        await commit(
            up,
            turn(
                user_id,
                f"{word}a moved to Lisbon.",
                at=T0 + timedelta(minutes=3),
                plan={
                    "facts": [
                        fact(
                            "LIVES_IN",
                            f"{word}a lives in Lisbon",
                            subject=f"{word}a",
                            value="Lisbon",
                            memory_type="PEOPLE",
                        )
                    ]
                },
            ),
        )
        await commit(
            up,
            turn(
                user_id,
                f"I like {word} tea.",
                at=T0 + timedelta(minutes=5),
                plan={"facts": [fact("LIKES", f"User likes {word} tea", value=f"{word} tea")]},
            ),
        )
        assert (
            await up.post(
                "/v1/forget",
                json={
                    "user_id": user_id,
                    "scope": "global",
                    "targets": [{"text": f"{word} tea"}],
                    "hard": True,
                },
            )
        ).status_code == 200
        assert (
            await up.post(
                "/v1/knowledge",
                json={
                    "agent_id": AGENT,
                    "doc_id": f"notes-{word}",
                    "user_id": user_id,
                    "text": f"# My notes\n\n{word} notebook: bring the charger.",
                },
            )
        ).status_code == 200
    async with app_client(create_app(node_spec("pulse-decay"), settings, resources)) as pulse:
        assert (
            await pulse.post(
                "/v1/pulse",
                json={
                    "user_id": user_id,
                    "agent_id": AGENT,
                    "chat_id": "tg:1",
                    "message": f"I'm so happy about {word}a!",
                },
            )
        ).status_code == 200
    async with app_client(create_app(node_spec("reflection-writer"), settings, resources)) as rw:
        done = await rw.post(
            "/v1/consolidate",
            json={"user_id": user_id, "now": (T0 + timedelta(hours=3)).isoformat()},
        )
        assert done.status_code == 200, done.text


async def export(client: httpx.AsyncClient, user_id: str) -> dict:
    answer = await client.get("/v1/export", params={"user_id": user_id})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    return msgspec.json.decode(answer.content)


@pytest.fixture
async def two_people(
    settings: Settings, resources: Clients, app_client, user_id: str
) -> tuple[str, str]:
    other = user_id + "-b"
    await live_through(settings, resources, app_client, user_id, "Zorvath")
    await live_through(settings, resources, app_client, other, "Quillon")
    return user_id, other


async def test_the_export_holds_every_row_of_every_person_table_and_only_the_persons(
    client: httpx.AsyncClient, resources: Clients, two_people: tuple[str, str]
) -> None:
    me, other = two_people
    document = await export(client, me)
    tables = {r["table_name"] for r in await rows(resources, USER_TABLES)}
    assert set(document["tables"]) == tables  # from the schema: a new table is exported too
    for table in tables:
        (held,) = await rows(
            resources, f'SELECT count(*) AS n FROM "{table}" WHERE user_id = $1', me
        )
        assert len(document["tables"][table]) == held["n"], table
        assert all(r["user_id"] == me for r in document["tables"][table]), table
    raw = msgspec.json.encode(document).decode()
    assert other not in raw and "quillon" not in raw.lower()  # isolation, anywhere in it
    held = {t for t, found in document["tables"].items() if found}
    assert held >= {
        "users",
        "user_seeds",
        "entities",
        "entity_aliases",
        "relations",
        "todos",
        "messages",
        "sessions",
        "episodes",
        "knowledge_chunks",
        "forget_log",
    }
    facts = {r["text"]: r["status"] for r in document["tables"]["relations"]}
    assert facts["Zorvatha lives in Porto"] == "SUPERSEDED"  # facts come with their history
    assert facts["Zorvatha lives in Lisbon"] == "ACTIVE"
    assert "User likes Zorvath tea" not in facts  # hard-forgotten: gone, only the audit stays
    audit = document["tables"]["forget_log"]
    assert audit and all(r["hard"] for r in audit)
    (conversation,) = document["working_memory"]
    assert conversation["affect"]["user_id"] == me and conversation["session"] is not None


async def test_every_table_either_holds_person_rows_by_user_id_or_is_declared_not_to(
    resources: Clients,
) -> None:
    every = {
        r["table_name"]
        for r in await rows(
            resources,
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
        )
    }
    with_user = {r["table_name"] for r in await rows(resources, USER_TABLES)}
    assert every - with_user == NOT_PERSON_DATA


async def test_a_person_twin_core_does_not_know_gets_an_empty_document(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    document = await export(client, user_id)
    assert document["user_id"] == user_id and document["working_memory"] == []
    assert set(document["tables"]) == {r["table_name"] for r in await rows(resources, USER_TABLES)}
    assert all(found == [] for found in document["tables"].values())


async def test_a_large_memory_leaves_in_pieces_and_reads_as_one_document(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "first"))
    (session,) = await rows(
        resources, "SELECT session_id, agent_id, chat_id FROM sessions WHERE user_id = $1", user_id
    )
    async with resources.db.acquire() as conn:
        await conn.executemany(
            """INSERT INTO messages (message_id, user_id, agent_id, chat_id, session_id, turn_id,
                                     position, role, text, ts)
               VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, 0, 'user', $6, now())""",
            [
                (
                    user_id,
                    session["agent_id"],
                    session["chat_id"],
                    session["session_id"],
                    f"bulk{i}",
                    f"message number {i}",
                )
                for i in range(2 * BATCH + 7)
            ],
        )
    pieces = [piece async for piece in export_document(resources.db, resources.memory, user_id)]
    whole = b"".join(pieces)
    assert max(map(len, pieces)) < len(whole) / 2  # rows leave in batches, not as one body
    document = msgspec.json.decode(whole)
    assert len(document["tables"]["messages"]) == 2 * BATCH + 7 + 2


async def test_export_needs_the_bearer_token_like_every_v1_route(
    settings: Settings, resources: Clients, app_client, user_id: str
) -> None:
    guarded = msgspec.structs.replace(settings, node_token="s3cret-token")
    async with app_client(create_app(node_spec("memory-upserter"), guarded, resources)) as up:
        refused = await up.get("/v1/export", params={"user_id": user_id})
        allowed = await up.get(
            "/v1/export",
            params={"user_id": user_id},
            headers={"Authorization": "Bearer s3cret-token"},
        )
    assert refused.status_code == 401 and allowed.status_code == 200


@pytest.mark.parametrize("bad", ["@shared", ""])
async def test_a_malformed_or_reserved_user_id_is_a_422_naming_it(
    client: httpx.AsyncClient, bad: str
) -> None:
    answer = await client.get("/v1/export", params={"user_id": bad})
    assert answer.status_code == 422, answer.text
    assert [e["path"] for e in answer.json()["errors"]] == ["$.user_id"]


def _comparable(document: dict) -> dict:
    """The tables without what an import derives afresh (index stamps)."""
    return {
        table: [{k: v for k, v in row.items() if k != "indexed_at"} for row in found]
        for table, found in document["tables"].items()
    }


async def test_an_export_imported_where_the_person_is_unknown_restores_every_row_once(
    settings: Settings, resources: Clients, app_client, client: httpx.AsyncClient, user_id: str
) -> None:
    await live_through(settings, resources, app_client, user_id, "Zorvath")
    before = await export(client, user_id)
    wiped = await client.post(
        "/v1/forget", json={"user_id": user_id, "scope": "global", "everything": True, "hard": True}
    )
    assert wiped.status_code == 200, wiped.text
    for table, found in (await export(client, user_id))["tables"].items():
        assert found == [] or table == "forget_log", table

    first = await client.post("/v1/import", json=before)
    assert first.status_code == 200, first.text
    assert first.json()["inserted"]["relations"] == len(before["tables"]["relations"])
    assert first.json()["facts_indexed"] >= 1
    after = await export(client, user_id)
    restored, original = _comparable(after), _comparable(before)
    audit = restored.pop("forget_log")  # the audit also keeps the wipe's own line
    assert all(row in audit for row in original.pop("forget_log"))
    assert restored == original
    hits = await resources.vectors.search(
        "facts", user_id=user_id, text="Zorvatha Lisbon", agent_id=AGENT, limit=5
    )
    assert hits  # indexed afresh

    again = await client.post("/v1/import", json=before)
    assert again.status_code == 200 and set(again.json()["inserted"].values()) == {0}
    assert _comparable(await export(client, user_id)) == _comparable(after)


async def test_an_import_naming_another_user_or_an_unknown_table_is_refused_whole(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    document = {
        "user_id": user_id,
        "tables": {
            "users": [{"user_id": user_id}],
            "todos": [
                {"user_id": "someone-else", "todo_id": "0" * 8 + "-0000-4000-8000-" + "0" * 12}
            ],
            "secrets": [],
        },
    }
    answer = await client.post("/v1/import", json=document)
    assert answer.status_code == 422, answer.text
    assert {e["path"] for e in answer.json()["errors"]} == {
        "$.tables.secrets",
        "$.tables.todos[0].user_id",
    }
    assert await rows(resources, "SELECT 1 FROM users WHERE user_id = $1", user_id) == []


async def test_an_import_whose_rows_do_not_hold_together_is_a_422_naming_the_table(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    orphan = {
        "user_id": user_id,
        "alias_id": str(uuid.uuid4()),
        "entity_id": str(uuid.uuid4()),
        "alias": "Zed",
    }
    answer = await client.post(
        "/v1/import",
        json={
            "user_id": user_id,
            "tables": {"users": [{"user_id": user_id}], "entity_aliases": [orphan]},
        },
    )
    assert answer.status_code == 422, answer.text
    assert [e["path"] for e in answer.json()["errors"]] == ["$.tables.entity_aliases"], answer.text
    assert await rows(resources, "SELECT 1 FROM users WHERE user_id = $1", user_id) == []


async def test_an_import_of_rows_another_user_holds_is_refused_and_unknown_columns_warn(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "hi", plan={"todos": [{"kind": "THREAD", "text": "Ask"}]}))
    (todo,) = await rows(resources, "SELECT * FROM todos WHERE user_id = $1", user_id)
    thief = user_id + "-b"
    stolen = {
        k: (str(v) if v is not None and not isinstance(v, (bool, int)) else v)
        for k, v in todo.items()
    }
    stolen = {**stolen, "user_id": thief, "session_id": None}
    taken = await client.post(
        "/v1/import",
        json={"user_id": thief, "tables": {"users": [{"user_id": thief}], "todos": [stolen]}},
    )
    assert taken.status_code == 422, taken.text
    assert [e["path"] for e in taken.json()["errors"]] == ["$.tables.todos"]
    assert await rows(resources, "SELECT 1 FROM users WHERE user_id = $1", thief) == []

    odd = await client.post(
        "/v1/import",
        json={"user_id": thief, "tables": {"users": [{"user_id": thief, "shoe_size": 43}]}},
    )
    assert odd.status_code == 200, odd.text
    warnings = odd.json()["warnings"]
    assert [w["code"] for w in warnings] == ["unknown_columns"]
    assert "users.shoe_size" in warnings[0]["detail"]


async def test_imported_episodes_are_recalled_at_once(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    episode = str(uuid.uuid4())
    document = {
        "user_id": user_id,
        "tables": {
            "users": [{"user_id": user_id}],
            "episodes": [
                {
                    "episode_id": episode,
                    "user_id": user_id,
                    "agent_id": AGENT,
                    "ts": T0.isoformat(),
                    "day": T0.date().isoformat(),
                    "reflection": "Planned the Zorvath trip to the mountains.",
                    "first_message_seq": 1,
                    "last_message_seq": 2,
                }
            ],
        },
    }
    answer = await client.post("/v1/import", json=document)
    assert answer.status_code == 200, answer.text
    hits = await resources.vectors.search(
        "episodes", user_id=user_id, agent_id=AGENT, text="Zorvath trip", limit=5
    )
    assert [h.id for h in hits] == [episode]
