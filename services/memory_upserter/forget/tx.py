"""The Postgres half of a forget, inside the caller's transaction (the caller holds the user
lock): the rows a scope and its targets reach (:mod:`.store`), the quotes of them
elsewhere (:mod:`.quotes`), the stored answers that list them (hard), and the audit.
Commits reuse it for ``plan.forget``."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from datetime import datetime
from uuid import UUID

import asyncpg

from contracts.memory import Notice
from contracts.privacy import ForgetTarget
from services.core.deps import Connection
from services.memory_upserter.forget import audit as audits
from services.memory_upserter.forget import mentions, provenance, quotes, store
from services.memory_upserter.forget.redact import Needles
from services.memory_upserter.forget.types import Effects, Forgotten, Selection, merge
from services.memory_upserter.text import fold

AUDIT_KINDS = {
    "facts": "fact",
    "todos": "todo",
    "episodes": "episode",
    "messages": "message",
    "entities": "entity",
}


async def forget_in_transaction(
    conn: Connection,
    *,
    user_id: str,
    scope: str,
    agent_id: str | None,
    chat_id: str | None,
    targets: Sequence[ForgetTarget] = (),
    names_or_texts: Sequence[str] = (),
    everything: bool = False,
    include_history: bool = False,
    session_id: str | None = None,
    hard: bool,
    reason: str | None,
    now: datetime,
    request_id: str | None,
) -> Forgotten:
    """The Postgres half, inside the caller's transaction (the caller holds the user lock).
    ``names_or_texts`` (a plan's ``forget``) are entities when a name or alias matches, else
    texts."""
    done = Forgotten(Effects())
    at = provenance.At(user_id, hard, now, reason)
    scoped_agent = agent_id if scope == "agent" else None
    if not await conn.fetchval("SELECT EXISTS (SELECT 1 FROM users WHERE user_id = $1)", user_id):
        return _unknown_user(done, scope, agent_id, chat_id, everything=everything)
    if scope in ("session", "chat"):
        assert agent_id is not None and chat_id is not None, "checked: the scope needs both"
        done.session_chat = (agent_id, chat_id)
        if include_history:
            sessions = await store.sessions_to_forget(
                conn,
                user_id,
                agent_id,
                chat_id,
                uuid.UUID(session_id) if session_id else None,
                whole_chat=scope == "chat",
            )
            history = await provenance.read_sessions(conn, user_id, sessions, hard=hard)
            done.effects = await provenance.forget_history(conn, history, at)
            if hard:
                for sid in sessions:
                    done.effects.counts["snippets"] += await quotes.clear_snippets(
                        conn, user_id, sid
                    )
        fallback = "session"
    elif everything and scope == "global" and hard:
        done.effects = await store.forget_everything_hard(conn, user_id)
        done.wipe_user, fallback = True, "all"
    else:
        handles = [t.entity for t in targets if t.entity] + list(names_or_texts)
        found = await store.find_entities(conn, user_id, handles, hard=hard) if handles else []
        matched = {fold(n) for r in found for n in (r["name_normalized"], *r["aliases"])}
        texts = [t.text for t in targets if t.text]
        texts += [x for x in names_or_texts if fold(x) not in matched]
        for t in targets:
            if t.entity and not any(_answers(r, t.entity) for r in found):
                done.warnings.append(
                    Notice(code="entity_not_found", detail=f"no entity answers to {t.entity!r}")
                )
        entity_ids = [r["entity_id"] for r in found]
        if everything:
            entity_ids += await _scope_entities(conn, user_id, scoped_agent)
        done.names = sorted(
            {n for r in found if not r["is_self"] for n in (r["name_normalized"], *r["aliases"])}
        )
        done.texts = [fold(t) for t in texts]
        selection = Selection(
            user_id,
            scoped_agent,
            everything=everything,
            entity_ids=tuple(entity_ids),
            fact_ids=_ids(t.fact_id for t in targets),
            todo_ids=_ids(t.todo_id for t in targets),
            episode_ids=_ids(t.episode_id for t in targets),
            texts=tuple(texts),
            names_pattern=store.names_pattern(done.names),
        )
        linked = await provenance.linked_to(conn, user_id, entity_ids) if not everything else []
        done.effects = await store.forget_rows(conn, selection, hard=hard, now=now, reason=reason)
        if message_ids := _ids(t.message_id for t in targets):
            history = await provenance.read_messages(
                conn, user_id, scoped_agent, list(message_ids), hard=hard
            )
            done.warnings += provenance.unfound(message_ids, history)
            merge(done.effects, await provenance.forget_history(conn, history, at))
        if not everything:
            await mentions.redact_messages(
                conn,
                user_id=user_id,
                agent_id=scoped_agent,
                names_pattern=selection.names_pattern,
                needles=Needles(done.names, texts),
                entity_ids=done.effects.ids.get("entities", []),
                hard=hard,
                now=now,
                reason=reason,
                effects=done.effects,
            )
            merge(done.effects, await provenance.forget_unnamed(conn, linked, at))
        if texts and not any(done.effects.counts.values()):
            done.warnings.append(
                Notice(code="nothing_matched", detail="no fact, todo, episode or message holds it")
            )
        done.effects.counts["summaries"] += await quotes.drop_summaries(
            conn,
            user_id,
            everything=everything and scope == "global",
            texts=texts,
            names_pattern=selection.names_pattern,
        )
        done.effects.counts["seeds"] += await quotes.drop_seed(
            conn, user_id, texts=texts, names_pattern=selection.names_pattern
        )
        if everything:
            done.wipe_user = scope == "global"
            done.wipe_agent = scoped_agent
        fallback = "all" if everything else "entity"
    if hard and not done.wipe_user:  # a wiped user's answers went with the users row
        done.effects.counts["stored_answers"] += await audits.scrub_stored_answers(
            conn, user_id, done.effects
        )
    done.forget_ids = await audits.audit(
        conn,
        user_id=user_id,
        agent_id=agent_id,
        chat_id=chat_id,
        scope=scope,
        hard=hard,
        reason=reason,
        effects=done.effects,
        kinds=AUDIT_KINDS,
        fallback_kind=fallback,
        request_id=request_id,
        now=now,
    )
    return done


def _unknown_user(
    done: Forgotten, scope: str, agent_id: str | None, chat_id: str | None, *, everything: bool
) -> Forgotten:
    """No row of this user in Postgres: nothing to forget there and nothing to log (an audit
    row would be the first thing held about them); what working memory or the vector index
    may hold under the id is still cleaned."""
    done.warnings.append(
        Notice(code="unknown_user", detail="no memory is held for this user: nothing was logged")
    )
    if scope == "session" and agent_id is not None and chat_id is not None:
        done.session_chat = (agent_id, chat_id)
    done.wipe_user = everything and scope == "global"
    done.wipe_agent = agent_id if everything and scope == "agent" else None
    return done


async def _scope_entities(conn: Connection, user_id: str, agent_id: str | None) -> list[UUID]:
    rows = await conn.fetch(
        "SELECT entity_id FROM entities WHERE user_id = $1 AND entity_ref IS DISTINCT FROM "
        "'self:user' AND ($2::text IS NULL OR (scope = 'agent' AND agent_id = $2))",
        user_id,
        agent_id,
    )
    return [r[0] for r in rows]


def _answers(row: asyncpg.Record, handle: str) -> bool:
    key = fold(handle)
    return (
        str(row["entity_id"]) == key
        or handle == row["entity_ref"]
        or key in {fold(n) for n in (row["name_normalized"], *row["aliases"])}
    )


def _ids(values: Iterable[str | None]) -> tuple[UUID, ...]:
    return tuple(uuid.UUID(v) for v in values if v)
