"""The summary spine: a new version every 20+ messages, four sections, at most 1,200 chars."""

from __future__ import annotations

from datetime import timedelta

from services.core.deps import Clients
from services.reflection_writer import spine
from services.reflection_writer.maintenance import upkeep
from services.reflection_writer.spine import SpineFact

from .conftest import T0, Log, chat


def test_people_facts_are_grouped_by_person_and_sections_keep_their_order() -> None:
    built = spine.build(
        [
            SpineFact("PROFILE", "Lives in Porto", "me"),
            SpineFact("PEOPLE", "Marta is my sister.", "Marta"),
            SpineFact("PROJECT", "Building a garden shed", "Shed"),
            SpineFact("PEOPLE", "Marta lives in Lisbon", "Marta"),
            SpineFact("PEOPLE", "John is my cofounder", "John"),
            SpineFact("PSYCHE", "Tends to procrastinate", "me"),
        ]
    )
    assert built.content == {
        "PROFILE": ["Lives in Porto"],
        "PROJECTS": ["Building a garden shed"],
        "PEOPLE": [
            "Marta: Marta is my sister; Marta lives in Lisbon",
            "John: John is my cofounder",
        ],
    }
    assert built.text.splitlines()[0] == "PROFILE: Lives in Porto"


def test_the_text_stays_within_1200_characters_with_every_section_represented() -> None:
    facts = [
        SpineFact(kind, f"{kind.lower()} fact {i} " + "detail " * 20, f"Person {i}")
        for kind in ("PROFILE", "PROJECT", "PEOPLE")
        for i in range(30)
    ]
    built = spine.build(facts)
    assert len(built.text) <= spine.SPINE_CHARS
    assert all(built.content[section] for section in spine.SECTIONS)
    assert spine.render(built.content) == built.text


def test_a_version_is_due_at_20_messages() -> None:
    assert not spine.due(19) and spine.due(20)


async def test_the_spine_gets_a_new_version_every_20_new_messages(
    resources: Clients, log: Log, user_id: str
) -> None:
    def lines(n: int) -> list[tuple[str, str]]:
        return chat(*(f"message {i}" for i in range(n)))

    await log.session(user_id, lines(10))
    marta = await log.entity(user_id, "Marta")
    await log.fact(user_id, marta, "Marta is my sister", pinned=True)
    assert (
        await upkeep(resources.db, resources.vectors, resources.embedder, user_id, T0)
    ).spine_version is None

    second = await log.session(user_id, lines(12), chat_id="tg:2", start=T0 + timedelta(hours=1))
    assert (
        await upkeep(
            resources.db, resources.vectors, resources.embedder, user_id, T0 + timedelta(hours=2)
        )
    ).spine_version == 1
    [v1] = await log.fetch("SELECT * FROM summary_spine WHERE user_id = $1", user_id)
    assert v1["message_count"] == 22 and v1["through_message_seq"] == second.seqs[-1]
    assert v1["text"] == "PEOPLE: Marta: Marta is my sister" and len(v1["text"]) <= 1200
    assert set(v1["content"]) == {"PROFILE", "PROJECTS", "PEOPLE"}

    await log.append(second, lines(5), start=T0 + timedelta(hours=3))
    assert (
        await upkeep(
            resources.db, resources.vectors, resources.embedder, user_id, T0 + timedelta(hours=4)
        )
    ).spine_version is None
    await log.append(second, lines(16), start=T0 + timedelta(hours=5))
    assert (
        await upkeep(
            resources.db, resources.vectors, resources.embedder, user_id, T0 + timedelta(hours=6)
        )
    ).spine_version == 2
    versions = await log.fetch(
        "SELECT version, message_count FROM summary_spine WHERE user_id = $1 ORDER BY version",
        user_id,
    )
    assert [tuple(v) for v in versions] == [(1, 22), (2, 21)]


async def test_the_spine_holds_no_agents_own_facts_or_todos(
    resources: Clients, log: Log, user_id: str
) -> None:
    """Every agent reads the spine: agent-scoped facts and todos stay out of it."""
    seeded = await log.session(user_id, chat(*(f"message {i}" for i in range(22))))
    marta = await log.entity(user_id, "Marta")
    await log.fact(user_id, marta, "Marta is my sister", pinned=True)
    secret = await log.fact(user_id, marta, "Marta confided her diagnosis", importance=3)
    async with resources.db.acquire() as conn:
        await conn.execute(
            "UPDATE relations SET scope = 'agent', agent_id = 'deanna' WHERE rel_id = $1::uuid",
            secret,
        )
    await log.todo(seeded, "Call the clinic")
    assert (
        await upkeep(
            resources.db, resources.vectors, resources.embedder, user_id, T0 + timedelta(hours=2)
        )
    ).spine_version == 1
    [v1] = await log.fetch("SELECT text FROM summary_spine WHERE user_id = $1", user_id)
    assert v1["text"] == "PEOPLE: Marta: Marta is my sister"
