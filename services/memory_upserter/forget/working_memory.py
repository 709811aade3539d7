"""The working-memory half of a forget: Redis keys deleted or rewritten, for one user only.

A wiped user (or agent) loses every key; a forgotten session its chat's keys; otherwise each of
the user's conversations is rewritten without the forgotten entity ids and messages, and with
the sentences that name a forgotten entity or contain a forgotten text cut out of its turns and
its summary (:mod:`.redact`): a turn left empty goes, the others stay. Soft and hard alike: a
rewrite replaces the value, as a delete would remove it (in both cases the old bytes sit in the
server's freed memory until reused, and in a persisting server's snapshot until the next one;
the receipt says so).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from urllib.parse import unquote

import msgspec

from contracts.slots import AffectSlot, SessionState
from services.core.working_memory import Snapshot, WorkingMemory
from services.memory_upserter.forget.redact import Needles, redact

Scrubbed = tuple[SessionState | None, AffectSlot | None] | None  # what a rewrite wrote


@dataclass(frozen=True)
class Reach:
    """What the Postgres half forgot, as the working memory needs it."""

    wipe_user: bool = False
    wipe_agent: str | None = None
    session_chat: tuple[str, str] | None = None
    entity_ids: Collection[str] = ()
    message_ids: Collection[str] = ()
    needles: Needles = Needles()  # the forgotten names, aliases and texts


@dataclass(frozen=True)
class RedisEffect:
    deleted: int = 0
    rewritten: int = 0
    conversations: int = 0  # conversations touched (the legacy ``working_memory`` count)


async def forget_in_working_memory(
    memory: WorkingMemory, user_id: str, reach: Reach, *, agent_scope: str | None
) -> RedisEffect:
    if reach.wipe_user or reach.wipe_agent:
        n = await memory.delete_all(user_id, None if reach.wipe_user else reach.wipe_agent)
        return RedisEffect(deleted=n, conversations=n)
    if reach.session_chat is not None:
        n = await memory.delete(user_id, *reach.session_chat)
        return RedisEffect(deleted=n, conversations=n)
    entity_ids, message_ids = set(reach.entity_ids), set(reach.message_ids)
    if not (entity_ids or message_ids or reach.needles):
        return RedisEffect()
    rewritten = touched = 0
    for agent_id, chat_id in conversations(await memory.keys_of(user_id, agent_scope)):

        def scrub(seen: Snapshot) -> tuple[SessionState | None, AffectSlot | None, Scrubbed]:
            session, affect = scrubbed(
                seen.session, seen.affect, entity_ids, message_ids, reach.needles
            )
            if (session, affect) == (seen.session, seen.affect):
                return None, None, None
            return session, affect, (session, affect)

        written: Scrubbed = await memory.update(user_id, agent_id, chat_id, scrub)
        if written is None:
            continue
        touched += 1
        rewritten += sum(blob is not None for blob in written)
    return RedisEffect(rewritten=rewritten, conversations=touched)


def scrubbed(
    session: SessionState | None,
    affect: AffectSlot | None,
    entity_ids: set[str],
    message_ids: set[str],
    needles: Needles,
) -> tuple[SessionState | None, AffectSlot | None]:
    """The blobs without the forgotten entity ids and messages, and with what names the
    forgotten cut out of every turn and the summary (a turn left empty goes)."""
    if session is not None:
        turns = [
            msgspec.structs.replace(t, text=redact(t.text, needles))
            for t in session.turns
            if t.message_id not in message_ids
        ]
        session = msgspec.structs.replace(
            session,
            active_entity_ids=[e for e in session.active_entity_ids if e not in entity_ids],
            turns=[t for t in turns if t.text],
            summary=redact(session.summary, needles),
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
