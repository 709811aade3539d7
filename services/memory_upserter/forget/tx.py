"""The Postgres half of a forget, inside the caller's transaction (the caller holds the user
lock): the rows a scope and its targets reach (:mod:`.store`), the quotes of them
elsewhere (:mod:`.quotes`), the stored answers that list them (hard), and the audit.
Commits reuse it for ``plan.forget``."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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
    ask = _Ask(
        user_id=user_id,
        scope=scope,
        agent_id=agent_id,
        chat_id=chat_id,
        targets=tuple(targets),
        names_or_texts=tuple(names_or_texts),
        everything=everything,
        include_history=include_history,
        session_id=session_id,
        hard=hard,
        reason=reason,
        now=now,
        request_id=request_id,
    )
    done = Forgotten(Effects())
    if not await conn.fetchval("SELECT EXISTS (SELECT 1 FROM users WHERE user_id = $1)", user_id):
        return _unknown_user(done, scope, agent_id, chat_id, everything=everything)
    if scope == "session":
        fallback = await _session(conn, ask, done)
    elif everything and scope == "global" and hard:
        done.effects = await store.forget_everything_hard(conn, user_id)
        done.wipe_user, fallback = True, "all"
    else:
        fallback = await _targets(conn, ask, done)
    await _audit(conn, ask, done, fallback)
    return done


async def _audit(conn: Connection, ask: _Ask, done: Forgotten, fallback: str) -> None:
    """Hard: the stored answers that list what went, scrubbed; then the audit rows."""
    if ask.hard and not done.wipe_user:  # a wiped user's answers went with the users row
        done.effects.counts["stored_answers"] += await audits.scrub_stored_answers(
            conn, ask.user_id, done.effects
        )
    done.forget_ids = await audits.audit(
        conn,
        user_id=ask.user_id,
        agent_id=ask.agent_id,
        chat_id=ask.chat_id,
        scope=ask.scope,
        hard=ask.hard,
        reason=ask.reason,
        effects=done.effects,
        kinds=AUDIT_KINDS,
        fallback_kind=fallback,
        request_id=ask.request_id,
        now=ask.now,
    )


@dataclass(frozen=True)
class _Ask:
    """What a forget was asked: whose, where, which targets, how."""

    user_id: str
    scope: str
    agent_id: str | None
    chat_id: str | None
    targets: tuple[ForgetTarget, ...]
    names_or_texts: tuple[str, ...]
    everything: bool
    include_history: bool
    session_id: str | None
    hard: bool
    reason: str | None
    now: datetime
    request_id: str | None

    @property
    def scoped_agent(self) -> str | None:
        return self.agent_id if self.scope == "agent" else None


async def _session(conn: Connection, ask: _Ask, done: Forgotten) -> str:
    """A session's conversation keys; with its history, its rows and what memory learned only
    from them (hard: the snippets quoting it too). The audit's fallback kind."""
    assert ask.agent_id is not None and ask.chat_id is not None, "checked: scope session needs both"
    done.session_chat = (ask.agent_id, ask.chat_id)
    sid = None
    if ask.include_history:
        asked = uuid.UUID(ask.session_id) if ask.session_id else None
        sid = await store.session_to_forget(conn, ask.user_id, ask.agent_id, ask.chat_id, asked)
    if sid is not None:
        session = await provenance.read_session(conn, ask.user_id, sid, hard=ask.hard)
        done.effects = await store.forget_rows(
            conn,
            Selection(ask.user_id, ask.agent_id, session_id=sid),
            hard=ask.hard,
            now=ask.now,
            reason=ask.reason,
        )
        learned = await provenance.forget_learned_from(
            conn, session, user_id=ask.user_id, hard=ask.hard, now=ask.now, reason=ask.reason
        )
        merge(done.effects, learned)
        if ask.hard:
            done.effects.counts["snippets"] += await quotes.clear_snippets(conn, ask.user_id, sid)
    return "session"


async def _targets(conn: Connection, ask: _Ask, done: Forgotten) -> str:
    """Entities, facts, todos, episodes and texts (or everything in an agent's scope): their
    rows, the messages that mention them, the summaries and seed quoting them. The audit's
    fallback kind."""
    selection, texts = await _selection(conn, ask, done)
    done.effects = await store.forget_rows(
        conn, selection, hard=ask.hard, now=ask.now, reason=ask.reason
    )
    if not ask.everything:
        await mentions.redact_messages(
            conn,
            user_id=ask.user_id,
            agent_id=ask.scoped_agent,
            names_pattern=selection.names_pattern,
            needles=Needles(done.names, texts),
            entity_ids=done.effects.ids.get("entities", []),
            hard=ask.hard,
            now=ask.now,
            reason=ask.reason,
            effects=done.effects,
        )
    if texts and not any(done.effects.counts.values()):
        done.warnings.append(
            Notice(code="nothing_matched", detail="no fact, todo, episode or message holds it")
        )
    done.effects.counts["summaries"] += await quotes.drop_summaries(
        conn,
        ask.user_id,
        everything=ask.everything and ask.scope == "global",
        texts=texts,
        names_pattern=selection.names_pattern,
    )
    done.effects.counts["seeds"] += await quotes.drop_seed(
        conn, ask.user_id, texts=texts, names_pattern=selection.names_pattern
    )
    if ask.everything:
        done.wipe_user = ask.scope == "global"
        done.wipe_agent = ask.scoped_agent
    return "all" if ask.everything else "entity"


async def _selection(conn: Connection, ask: _Ask, done: Forgotten) -> tuple[Selection, list[str]]:
    """The rows the targets reach, and the texts to look for: a name or alias that matches an
    entity is that entity, anything else a text (an entity target nobody answers to: a
    warning)."""
    targets, names_or_texts = ask.targets, ask.names_or_texts
    handles = [t.entity for t in targets if t.entity] + list(names_or_texts)
    found = await store.find_entities(conn, ask.user_id, handles, hard=ask.hard) if handles else []
    matched = {fold(n) for r in found for n in (r["name_normalized"], *r["aliases"])}
    texts = [t.text for t in targets if t.text]
    texts += [x for x in names_or_texts if fold(x) not in matched]
    for t in targets:
        if t.entity and not any(_answers(r, t.entity) for r in found):
            done.warnings.append(
                Notice(code="entity_not_found", detail=f"no entity answers to {t.entity!r}")
            )
    entity_ids = [r["entity_id"] for r in found]
    if ask.everything:
        entity_ids += await _scope_entities(conn, ask.user_id, ask.scoped_agent)
    done.names = sorted(
        {n for r in found if not r["is_self"] for n in (r["name_normalized"], *r["aliases"])}
    )
    done.texts = [fold(t) for t in texts]
    selection = Selection(
        ask.user_id,
        ask.scoped_agent,
        everything=ask.everything,
        entity_ids=tuple(entity_ids),
        fact_ids=_ids(t.fact_id for t in targets),
        todo_ids=_ids(t.todo_id for t in targets),
        episode_ids=_ids(t.episode_id for t in targets),
        texts=tuple(texts),
        names_pattern=store.names_pattern(done.names),
    )
    return selection, texts


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
