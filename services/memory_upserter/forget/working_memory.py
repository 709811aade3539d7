"""The working-memory half of a forget: Redis keys deleted or rewritten, for one user only.

A wiped user (or agent) loses every key; a forgotten session its chat's keys; otherwise each of
the user's conversations is rewritten without the forgotten entity ids and without the turns
that name a forgotten entity or contain a forgotten text — and, for a hard forget, a
conversation that held any of it loses its keys (a rewrite would leave the old value in the
server's memory until it is reused).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from urllib.parse import unquote

import msgspec

from contracts.slots import AffectSlot, SessionState
from services.core.working_memory import Snapshot, WorkingMemory
from services.memory_upserter.text import fold

Scrubbed = tuple[SessionState | None, AffectSlot | None] | None  # what a rewrite wrote


@dataclass(frozen=True)
class Reach:
    """What the Postgres half forgot, as the working memory needs it."""

    wipe_user: bool = False
    wipe_agent: str | None = None
    session_chat: tuple[str, str] | None = None
    entity_ids: Collection[str] = ()
    message_ids: Collection[str] = ()
    names: Sequence[str] = ()  # normalized entity names and aliases
    texts: Sequence[str] = ()  # normalized texts


@dataclass(frozen=True)
class RedisEffect:
    deleted: int = 0
    rewritten: int = 0
    conversations: int = 0  # conversations touched (the legacy ``working_memory`` count)


async def forget_in_working_memory(
    memory: WorkingMemory, user_id: str, reach: Reach, *, hard: bool, agent_scope: str | None
) -> RedisEffect:
    if reach.wipe_user or reach.wipe_agent:
        n = await memory.delete_all(user_id, None if reach.wipe_user else reach.wipe_agent)
        return RedisEffect(deleted=n, conversations=n)
    if reach.session_chat is not None:
        n = await memory.delete(user_id, *reach.session_chat)
        return RedisEffect(deleted=n, conversations=n)
    entity_ids, message_ids = set(reach.entity_ids), set(reach.message_ids)
    if not (entity_ids or message_ids or reach.names or reach.texts):
        return RedisEffect()
    names = (
        re.compile(r"\b(?:" + "|".join(map(re.escape, reach.names)) + r")\b")
        if reach.names
        else None
    )
    deleted = rewritten = touched = 0
    for agent_id, chat_id in conversations(await memory.keys_of(user_id, agent_scope)):

        def scrub(seen: Snapshot) -> tuple[SessionState | None, AffectSlot | None, Scrubbed]:
            session, affect = scrubbed(
                seen.session, seen.affect, entity_ids, message_ids, names, reach.texts
            )
            if (session, affect) == (seen.session, seen.affect):
                return None, None, None
            if hard:  # the keys go below: no rewrite
                return None, None, (None, None)
            return session, affect, (session, affect)

        written: Scrubbed = await memory.update(user_id, agent_id, chat_id, scrub)
        if written is None:
            continue
        touched += 1
        if hard:
            deleted += await memory.delete(user_id, agent_id, chat_id)
        else:
            rewritten += sum(blob is not None for blob in written)
    return RedisEffect(deleted=deleted, rewritten=rewritten, conversations=touched)


def scrubbed(
    session: SessionState | None,
    affect: AffectSlot | None,
    entity_ids: set[str],
    message_ids: set[str],
    names: re.Pattern[str] | None,
    texts: Sequence[str],
) -> tuple[SessionState | None, AffectSlot | None]:
    """The blobs without the forgotten entity ids and without turns that mention them."""

    def mentions(text: str) -> bool:
        folded = fold(text)
        return bool(names and names.search(folded)) or any(t in folded for t in texts)

    if session is not None:
        session = msgspec.structs.replace(
            session,
            active_entity_ids=[e for e in session.active_entity_ids if e not in entity_ids],
            turns=[
                t for t in session.turns if t.message_id not in message_ids and not mentions(t.text)
            ],
        )
    if affect is not None:
        affect = msgspec.structs.replace(
            affect, active_entity_ids=[e for e in affect.active_entity_ids if e not in entity_ids]
        )
    return session, affect


def conversations(keys: Sequence[str]) -> list[tuple[str, str]]:
    """(agent, chat) of every working-memory key, once (keys are kind:user:agent:chat)."""
    found = []
    for key in keys:
        parts = key.split(":")
        if len(parts) == 4:
            found.append((unquote(parts[2]), unquote(parts[3])))
    return list(dict.fromkeys(found))
