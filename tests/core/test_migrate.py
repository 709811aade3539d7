"""The migration runner and the schema's guarantees, against a real Postgres.

Every database here is throwaway: created for this module (or for one runner test that needs an
empty one) and dropped at the end. Admin DSN: ``TWIN_TEST_PG_ADMIN``.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from services.core.migrate import (
    MIGRATIONS_DIR,
    MigrationError,
    apply_migrations,
    current_version,
    load_migrations,
    pending,
)

PG_ADMIN = os.environ.get("TWIN_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")
ALL_VERSIONS = [m.version for m in load_migrations()]

NewDatabase = Callable[[], Awaitable[str]]


@pytest.fixture(scope="module")
async def new_database() -> AsyncIterator[NewDatabase]:
    """A factory of empty databases, all dropped when the module is done."""
    created: list[str] = []

    async def create() -> str:
        name = f"twin_mig_{uuid.uuid4().hex[:12]}"
        admin = await asyncpg.connect(PG_ADMIN)
        try:
            await admin.execute(f'CREATE DATABASE "{name}"')
        finally:
            await admin.close()
        created.append(name)
        return f"{PG_ADMIN.rpartition('/')[0]}/{name}"

    yield create
    admin = await asyncpg.connect(PG_ADMIN)
    try:
        for name in created:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@pytest.fixture(scope="module")
async def migrated(new_database: NewDatabase) -> str:
    dsn = await new_database()
    await apply_migrations(dsn)
    return dsn


@pytest.fixture
async def conn(migrated: str) -> AsyncIterator[asyncpg.Connection]:
    connection = await asyncpg.connect(migrated)
    yield connection
    await connection.close()


@pytest.fixture
async def user(conn: asyncpg.Connection) -> str:
    """A fresh user with one agent, 'deanna'."""
    user_id = f"u-{uuid.uuid4().hex[:10]}"
    await conn.execute("INSERT INTO users (user_id) VALUES ($1)", user_id)
    await conn.execute("INSERT INTO agents (agent_id) VALUES ('deanna') ON CONFLICT DO NOTHING")
    return user_id


def _append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as file:
        file.write(text)


async def _schema_snapshot(dsn: str) -> list[tuple]:
    connection = await asyncpg.connect(dsn)
    try:
        columns = await connection.fetch(
            """SELECT table_name, column_name, data_type, is_nullable, column_default,
                      generation_expression
               FROM information_schema.columns WHERE table_schema = 'public'
               ORDER BY table_name, ordinal_position"""
        )
        indexes = await connection.fetch(
            "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' "
            "ORDER BY indexname"
        )
        constraints = await connection.fetch(
            "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) "
            "FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2"
        )
        versions = await connection.fetch(
            "SELECT version, checksum, applied_at FROM schema_migrations ORDER BY version"
        )
    finally:
        await connection.close()
    return [tuple(r) for r in [*columns, *indexes, *constraints, *versions]]


async def _entity(conn: asyncpg.Connection, user_id: str, name: str = "Marta") -> uuid.UUID:
    return await conn.fetchval(
        "INSERT INTO entities (user_id, name, category) VALUES ($1, $2, 'Person') "
        "RETURNING entity_id",
        user_id,
        name,
    )


async def _fact(conn: asyncpg.Connection, user_id: str, subject: uuid.UUID, **cols: object):
    values = {
        "user_id": user_id,
        "subject_id": subject,
        "predicate": "LIVES_IN",
        "object_value": '"Austin"',
        "memory_type": "PEOPLE",
        "text": "Marta lives in Austin",
        "source": "llm_plan",
        **cols,
    }
    names = ", ".join(values)
    params = ", ".join(f"${i}" for i in range(1, len(values) + 1))
    return await conn.fetchval(
        f"INSERT INTO relations ({names}) VALUES ({params}) RETURNING rel_id", *values.values()
    )


async def _session(conn: asyncpg.Connection, user_id: str, chat: str = "c1") -> uuid.UUID:
    return await conn.fetchval(
        "INSERT INTO sessions (user_id, agent_id, chat_id) VALUES ($1, 'deanna', $2) "
        "RETURNING session_id",
        user_id,
        chat,
    )


# --- the runner -------------------------------------------------------------------------------


async def test_applies_every_file_in_order_on_an_empty_database(new_database: NewDatabase):
    dsn = await new_database()
    assert await pending(dsn) == ALL_VERSIONS
    assert await apply_migrations(dsn) == ALL_VERSIONS
    assert await pending(dsn) == []
    connection = await asyncpg.connect(dsn)
    try:
        assert await current_version(connection) == ALL_VERSIONS[-1]
        tables = {
            r["tablename"]
            for r in await connection.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            )
        }
    finally:
        await connection.close()
    assert tables >= {
        "schema_migrations",
        "users",
        "agents",
        "user_seeds",
        "user_state",
        "idempotency_keys",
        "forget_log",
        "entities",
        "entity_aliases",
        "relations",
        "sessions",
        "messages",
        "episodes",
        "todos",
        "summary_spine",
        "knowledge_chunks",
    }


async def test_current_version_is_none_before_any_migration(new_database: NewDatabase):
    connection = await asyncpg.connect(await new_database())
    try:
        assert await current_version(connection) is None
    finally:
        await connection.close()


async def test_applying_twice_applies_nothing_and_changes_nothing(migrated: str):
    before = await _schema_snapshot(migrated)
    assert await apply_migrations(migrated) == []
    assert await _schema_snapshot(migrated) == before


async def test_concurrent_runners_apply_each_file_once(new_database: NewDatabase):
    dsn = await new_database()
    results = await asyncio.gather(apply_migrations(dsn), apply_migrations(dsn))
    assert sorted(results, key=len) == [[], ALL_VERSIONS]
    connection = await asyncpg.connect(dsn)
    try:
        assert await connection.fetchval("SELECT count(*) FROM schema_migrations") == len(
            ALL_VERSIONS
        )
    finally:
        await connection.close()


async def test_an_edited_applied_file_is_refused(new_database: NewDatabase, tmp_path: Path):
    shutil.copytree(MIGRATIONS_DIR, tmp_path, dirs_exist_ok=True)
    dsn = await new_database()
    await apply_migrations(dsn, directory=tmp_path)
    first = ALL_VERSIONS[0]
    _append(tmp_path / f"{first}.sql", "\n-- an innocent-looking edit\n")
    with pytest.raises(MigrationError, match=f"{first} changed since they ran"):
        await apply_migrations(dsn, directory=tmp_path)


async def test_line_endings_do_not_change_a_checksum(tmp_path: Path):
    (tmp_path / "0001_a.sql").write_bytes(b"SELECT 1;\nSELECT 2;\n")
    lf = load_migrations(tmp_path)[0].checksum
    (tmp_path / "0001_a.sql").write_bytes(b"SELECT 1;\r\nSELECT 2;\r\n")
    assert load_migrations(tmp_path)[0].checksum == lf


async def test_a_failing_file_is_rolled_back_and_not_recorded(
    new_database: NewDatabase, tmp_path: Path
):
    (tmp_path / "0001_ok.sql").write_text("CREATE TABLE a (x int);")
    (tmp_path / "0002_bad.sql").write_text("CREATE TABLE b (x int);\nSELECT 1/0;")
    dsn = await new_database()
    with pytest.raises(MigrationError, match="0002_bad failed and was rolled back"):
        await apply_migrations(dsn, directory=tmp_path)
    connection = await asyncpg.connect(dsn)
    try:
        assert await connection.fetchval("SELECT to_regclass('b')") is None
        assert await current_version(connection) == "0001_ok"
    finally:
        await connection.close()
    assert await pending(dsn, directory=tmp_path) == ["0002_bad"]


async def test_badly_named_or_duplicate_numbered_files_are_refused(tmp_path: Path):
    (tmp_path / "1_short.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="NNNN_lowercase_words.sql"):
        load_migrations(tmp_path)
    (tmp_path / "1_short.sql").unlink()
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0001_b.sql").write_text("SELECT 1;")
    with pytest.raises(MigrationError, match="share the number 0001"):
        load_migrations(tmp_path)


async def test_0010_gives_messages_logged_before_it_the_entities_of_the_facts_they_gave(
    new_database: NewDatabase, tmp_path: Path
):
    for path in sorted(MIGRATIONS_DIR.glob("*.sql")):
        if path.stem < "0010":
            shutil.copy(path, tmp_path)
    dsn = await new_database()
    await apply_migrations(dsn, directory=tmp_path)
    connection = await asyncpg.connect(dsn)
    try:
        user = f"u-{uuid.uuid4().hex[:10]}"
        await connection.execute("INSERT INTO users (user_id) VALUES ($1)", user)
        await connection.execute("INSERT INTO agents (agent_id) VALUES ('deanna')")
        me = await connection.fetchval(
            "INSERT INTO entities (user_id, name, category, entity_ref) "
            "VALUES ($1, 'me', 'Person', 'self:user') RETURNING entity_id",
            user,
        )
        marta, session = await _entity(connection, user), await _session(connection, user)
        said, other = uuid.uuid4(), uuid.uuid4()
        for position, message in enumerate((said, other)):
            await connection.execute(
                "INSERT INTO messages (message_id, user_id, agent_id, chat_id, session_id, "
                "turn_id, position, role, text, ts) "
                "VALUES ($1, $2, 'deanna', 'c1', $3, 't-1', $4, 'user', 'hi', now())",
                message,
                user,
                session,
                position,
            )
        await _fact(connection, user, marta, provenance_message_ids=f'["{said}"]')
        await _fact(  # the person's own entity is never one a turn names
            connection,
            user,
            me,
            predicate="KNOWS",
            object_id=marta,
            object_value=None,
            text="I know Marta",
            provenance_message_ids=f'["{said}", "not-a-uuid"]',
        )
        shutil.copy(MIGRATIONS_DIR / "0010_message_entities.sql", tmp_path)
        assert await apply_migrations(dsn, directory=tmp_path) == ["0010_message_entities"]
        named = dict(
            await connection.fetch("SELECT message_id, entity_ids FROM messages ORDER BY position")
        )
        assert named == {said: [marta], other: []}
    finally:
        await connection.close()


# --- the schema's guarantees ------------------------------------------------------------------


async def test_twin_normalize_lowercases_and_strips_accents(conn: asyncpg.Connection):
    assert await conn.fetchval("SELECT twin_normalize('Márta')") == "marta"
    assert await conn.fetchval("SELECT twin_normalize('ŁÓDŹ Ærø')") == "lodz aero"


async def test_names_and_aliases_are_normalized_by_the_database(
    conn: asyncpg.Connection, user: str
):
    entity = await _entity(conn, user, "Márta")
    await conn.execute(
        "INSERT INTO entity_aliases (user_id, entity_id, alias) VALUES ($1, $2, 'Work MÁRTA')",
        user,
        entity,
    )
    assert (
        await conn.fetchval("SELECT name_normalized FROM entities WHERE entity_id = $1", entity)
        == "marta"
    )
    assert (
        await conn.fetchval(
            "SELECT alias_normalized FROM entity_aliases WHERE entity_id = $1", entity
        )
        == "work marta"
    )
    with pytest.raises(asyncpg.UniqueViolationError):
        await conn.execute(
            "INSERT INTO entity_aliases (user_id, entity_id, alias) VALUES ($1, $2, 'work marta')",
            user,
            entity,
        )


async def test_agent_scope_requires_an_agent_id(conn: asyncpg.Connection, user: str):
    with pytest.raises(asyncpg.CheckViolationError, match="entities_agent_scope"):
        await conn.execute(
            "INSERT INTO entities (user_id, scope, name) VALUES ($1, 'agent', 'Marta')", user
        )
    with pytest.raises(asyncpg.CheckViolationError, match="entities_agent_scope"):
        await conn.execute(
            "INSERT INTO entities (user_id, scope, agent_id, name) "
            "VALUES ($1, 'global', 'deanna', 'Marta')",
            user,
        )
    subject = await _entity(conn, user)
    with pytest.raises(asyncpg.CheckViolationError, match="relations_agent_scope"):
        await _fact(conn, user, subject, scope="agent")
    assert await _fact(conn, user, subject, scope="agent", agent_id="deanna")


async def test_a_fact_has_an_object_entity_or_a_value_never_both(
    conn: asyncpg.Connection, user: str
):
    subject, other = await _entity(conn, user), await _entity(conn, user, "John")
    with pytest.raises(asyncpg.CheckViolationError, match="relations_one_object"):
        await _fact(conn, user, subject, object_id=other)  # and the default object_value
    with pytest.raises(asyncpg.CheckViolationError, match="relations_one_object"):
        await _fact(conn, user, subject, object_value=None)
    assert await _fact(conn, user, subject, predicate="KNOWS", object_id=other, object_value=None)


async def test_a_pinned_fact_has_importance_three(conn: asyncpg.Connection, user: str):
    subject = await _entity(conn, user)
    with pytest.raises(asyncpg.CheckViolationError, match="relations_pinned_importance"):
        await _fact(conn, user, subject, pinned=True, importance=2)
    assert await _fact(conn, user, subject, pinned=True, importance=3)


async def test_one_active_fact_per_memory_key_until_it_is_superseded(
    conn: asyncpg.Connection, user: str
):
    subject = await _entity(conn, user)
    key = "people|person|marta|fact"
    first = await _fact(conn, user, subject, memory_key=key)
    with pytest.raises(asyncpg.UniqueViolationError, match="uniq_relations_memory_key"):
        await _fact(conn, user, subject, memory_key=key, object_value='"Boston"')
    second = await _fact(
        conn,
        user,
        subject,
        memory_key=key,
        object_value='"Boston"',
        status="SUPERSEDED",
        valid_to=None,
    )
    assert second  # a closed row never collides
    await conn.execute(
        "UPDATE relations SET status = 'SUPERSEDED', valid_to = now() WHERE rel_id = $1", first
    )
    assert await _fact(conn, user, subject, memory_key=key, object_value='"Boston"')
    assert (
        await conn.fetchval("SELECT count(*) FROM relations WHERE user_id = $1 AND active", user)
        == 1
    )


async def test_the_same_active_edge_is_stored_once(conn: asyncpg.Connection, user: str):
    subject = await _entity(conn, user)
    await _fact(conn, user, subject)
    with pytest.raises(asyncpg.UniqueViolationError, match="uniq_relations"):
        await _fact(conn, user, subject)
    assert await _fact(conn, user, subject, scope="agent", agent_id="deanna")  # other scope


async def test_an_edge_cannot_point_at_another_users_entity(conn: asyncpg.Connection, user: str):
    other_user = f"u-{uuid.uuid4().hex[:10]}"
    await conn.execute("INSERT INTO users (user_id) VALUES ($1)", other_user)
    theirs = await _entity(conn, other_user, "Marta")
    mine = await _entity(conn, user, "Me")
    with pytest.raises(asyncpg.ForeignKeyViolationError):
        await _fact(conn, user, mine, predicate="KNOWS", object_id=theirs, object_value=None)


async def test_a_retried_turn_never_logs_a_message_twice(conn: asyncpg.Connection, user: str):
    session = await _session(conn, user)
    insert = (
        "INSERT INTO messages (user_id, agent_id, chat_id, session_id, turn_id, position, role, "
        "text, ts) VALUES ($1, 'deanna', 'c1', $2, 't-1', $3, $4, 'hi', now())"
    )
    await conn.execute(insert, user, session, 0, "user")
    await conn.execute(insert, user, session, 1, "assistant")
    with pytest.raises(asyncpg.UniqueViolationError, match="messages_turn_position_key"):
        await conn.execute(insert, user, session, 0, "user")


async def test_one_open_session_per_chat(conn: asyncpg.Connection, user: str):
    first = await _session(conn, user)
    with pytest.raises(asyncpg.UniqueViolationError, match="sessions_one_open_key"):
        await _session(conn, user)
    await conn.execute("UPDATE sessions SET ended_at = now() WHERE session_id = $1", first)
    assert await _session(conn, user) != first


async def test_a_retried_consolidation_finds_its_episode(conn: asyncpg.Connection, user: str):
    session = await _session(conn, user)
    insert = (
        "INSERT INTO episodes (user_id, agent_id, session_id, ts, day, reflection, "
        "first_message_seq, last_message_seq) "
        "VALUES ($1, 'deanna', $2, now(), current_date, 'Observation: ...', 10, $3) "
        "ON CONFLICT ON CONSTRAINT episodes_range_key DO NOTHING RETURNING episode_id"
    )
    assert await conn.fetchval(insert, user, session, 14) is not None
    assert await conn.fetchval(insert, user, session, 16) is None


async def test_a_pending_todo_is_captured_once(conn: asyncpg.Connection, user: str):
    insert = (
        "INSERT INTO todos (user_id, agent_id, kind, text, status, completed_at) "
        "VALUES ($1, 'deanna', 'COMMITMENT', $2, $3, $4)"
    )
    await conn.execute(insert, user, "Call Márta", "PENDING", None)
    with pytest.raises(asyncpg.UniqueViolationError, match="uniq_todos_pending"):
        await conn.execute(insert, user, "call marta", "PENDING", None)
    await conn.execute(
        "UPDATE todos SET status = 'DONE', completed_at = now() WHERE user_id = $1", user
    )
    await conn.execute(insert, user, "call marta", "PENDING", None)
    with pytest.raises(asyncpg.CheckViolationError, match="todos_completed"):
        await conn.execute(insert, user, "walk", "DONE", None)


async def test_deleting_a_user_removes_their_data_but_not_the_audit(
    conn: asyncpg.Connection, user: str
):
    subject = await _entity(conn, user)
    await _fact(conn, user, subject)
    await conn.execute(
        "INSERT INTO forget_log (user_id, scope, target_kind, hard) "
        "VALUES ($1, 'global', 'all', true)",
        user,
    )
    await conn.execute("DELETE FROM users WHERE user_id = $1", user)
    assert await conn.fetchval("SELECT count(*) FROM entities WHERE user_id = $1", user) == 0
    assert await conn.fetchval("SELECT count(*) FROM relations WHERE user_id = $1", user) == 0
    assert await conn.fetchval("SELECT count(*) FROM forget_log WHERE user_id = $1", user) == 1


async def test_hard_deleting_a_session_takes_its_messages_and_unlinks_the_rest(
    conn: asyncpg.Connection, user: str
):
    session = await _session(conn, user)
    await conn.execute(
        "INSERT INTO messages (user_id, agent_id, chat_id, session_id, turn_id, role, text, ts) "
        "VALUES ($1, 'deanna', 'c1', $2, 't-1', 'user', 'hi', now())",
        user,
        session,
    )
    episode = await conn.fetchval(
        "INSERT INTO episodes (user_id, agent_id, session_id, ts, day, reflection, "
        "first_message_seq, last_message_seq) VALUES ($1, 'deanna', $2, now(), current_date, "
        "'Observation: ...', 1, 1) RETURNING episode_id",
        user,
        session,
    )
    todo = await conn.fetchval(
        "INSERT INTO todos (user_id, agent_id, kind, text, session_id, episode_id) "
        "VALUES ($1, 'deanna', 'GOAL', 'Run 5k', $2, $3) RETURNING todo_id",
        user,
        session,
        episode,
    )
    await conn.execute("DELETE FROM sessions WHERE session_id = $1", session)
    assert await conn.fetchval("SELECT count(*) FROM messages WHERE user_id = $1", user) == 0
    assert await conn.fetchval(
        "SELECT (user_id, session_id) FROM episodes WHERE episode_id = $1", episode
    ) == (user, None)
    assert await conn.fetchval(
        "SELECT (user_id, session_id, episode_id) FROM todos WHERE todo_id = $1", todo
    ) == (user, None, episode)


async def test_a_session_with_unconsolidated_turns_is_due(conn: asyncpg.Connection, user: str):
    session = await _session(conn, user)
    due = "SELECT needs_consolidation FROM sessions WHERE session_id = $1"
    assert await conn.fetchval(due, session) is False
    await conn.execute("UPDATE sessions SET last_message_seq = 42 WHERE session_id = $1", session)
    assert await conn.fetchval(due, session) is True
    await conn.execute(
        "UPDATE sessions SET checkpoint_message_seq = 42 WHERE session_id = $1", session
    )
    assert await conn.fetchval(due, session) is False


async def test_knowledge_reingest_of_the_same_chunk_is_a_no_op(conn: asyncpg.Connection):
    await conn.execute("INSERT INTO agents (agent_id) VALUES ('deanna') ON CONFLICT DO NOTHING")
    doc = f"doc-{uuid.uuid4().hex[:8]}"
    insert = (
        "INSERT INTO knowledge_chunks (agent_id, doc_id, position, text, content_hash) "
        "VALUES ('deanna', $1, 0, 'Protein: 1.6 g/kg', 'h1') "
        "ON CONFLICT (agent_id, COALESCE(user_id, ''), doc_id, content_hash) DO NOTHING"
    )
    await conn.execute(insert, doc)
    await conn.execute(insert, doc)
    assert await conn.fetchval("SELECT count(*) FROM knowledge_chunks WHERE doc_id = $1", doc) == 1
