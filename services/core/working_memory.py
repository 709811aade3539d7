"""Redis working memory (003 §2.1, §3): one JSON blob per key, both read in one round trip.

Keys: ``sess:{user}:{agent}:{chat}`` and ``affect:{user}:{agent}:{chat}``, each id
percent-encoded so ids holding ``:`` or glob characters can never collide or over-match.
Losing Redis loses no durable data: everything here is rebuilt from Postgres or starts fresh.

Writers that read-modify-write a conversation (pulse-decay counting a message, memory-upserter
appending turns) use :meth:`WorkingMemory.update`: one ``MGET``, the caller's pure function,
then one script that writes only if neither blob changed since the read (compare-and-set);
on a conflict it reloads and recomputes, so concurrent turns never overwrite each other.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar
from urllib.parse import quote

import msgspec
import redis.asyncio as aioredis
import structlog

from contracts.slots import AffectSlot, SessionState

_session_decoder = msgspec.json.Decoder(SessionState)
_affect_decoder = msgspec.json.Decoder(AffectSlot)
_encoder = msgspec.json.Encoder()
T = TypeVar("T")

# KEYS: session, affect. ARGV: expected sha1 of each ('' = absent), then value + TTL of each
# ('' value = leave that key alone).
_SAVE_IF_UNCHANGED = """
local function digest(key)
  local value = redis.call('GET', key)
  if value then return redis.sha1hex(value) end
  return ''
end
if digest(KEYS[1]) ~= ARGV[1] or digest(KEYS[2]) ~= ARGV[2] then return 0 end
if ARGV[3] ~= '' then redis.call('SET', KEYS[1], ARGV[3], 'EX', ARGV[4]) end
if ARGV[5] ~= '' then redis.call('SET', KEYS[2], ARGV[5], 'EX', ARGV[6]) end
return 1
"""


class ConcurrentUpdate(Exception):
    """The conversation kept changing between read and write; the caller may retry later."""


@dataclass(frozen=True)
class Snapshot:
    """What one read saw: the decoded blobs and digests of the raw bytes behind them."""

    user_id: str
    agent_id: str
    chat_id: str
    session: SessionState | None
    affect: AffectSlot | None
    session_digest: str
    affect_digest: str


def _part(value: str) -> str:
    return quote(value, safe="")


def session_key(user_id: str, agent_id: str, chat_id: str) -> str:
    return f"sess:{_part(user_id)}:{_part(agent_id)}:{_part(chat_id)}"


def affect_key(user_id: str, agent_id: str, chat_id: str) -> str:
    return f"affect:{_part(user_id)}:{_part(agent_id)}:{_part(chat_id)}"


def user_key_patterns(user_id: str, agent_id: str | None = None) -> list[str]:
    """SCAN patterns matching every working-memory key of a user (or of one of their agents)."""
    agent = _part(agent_id) if agent_id else "*"
    return [f"{kind}:{_part(user_id)}:{agent}:*" for kind in ("sess", "affect")]


class WorkingMemory:
    """Typed access to the two blobs of one conversation; corrupt blobs read as missing."""

    def __init__(self, redis: aioredis.Redis, *, affect_ttl_s: int, session_ttl_s: int) -> None:
        self._redis = redis
        self._affect_ttl_s = affect_ttl_s
        self._session_ttl_s = session_ttl_s
        self._save_script = redis.register_script(_SAVE_IF_UNCHANGED)

    async def load(
        self, user_id: str, agent_id: str, chat_id: str
    ) -> tuple[SessionState | None, AffectSlot | None]:
        raw_session, raw_affect = await self._redis.mget(
            session_key(user_id, agent_id, chat_id), affect_key(user_id, agent_id, chat_id)
        )
        return _decode(raw_session, _session_decoder), _decode(raw_affect, _affect_decoder)

    async def snapshot(self, user_id: str, agent_id: str, chat_id: str) -> Snapshot:
        """Both blobs in one round trip, with digests for :meth:`save_if_unchanged`."""
        raw_session, raw_affect = await self._redis.mget(
            session_key(user_id, agent_id, chat_id), affect_key(user_id, agent_id, chat_id)
        )
        return Snapshot(
            user_id=user_id,
            agent_id=agent_id,
            chat_id=chat_id,
            session=_decode(raw_session, _session_decoder),
            affect=_decode(raw_affect, _affect_decoder),
            session_digest=_digest(raw_session),
            affect_digest=_digest(raw_affect),
        )

    async def save_if_unchanged(
        self, seen: Snapshot, session: SessionState | None, affect: AffectSlot | None
    ) -> bool:
        """Write the given blobs in one round trip iff neither changed since ``seen``."""
        ids = (seen.user_id, seen.agent_id, seen.chat_id)
        for blob in (session, affect):
            if blob is not None and (blob.user_id, blob.agent_id, blob.chat_id) != ids:
                raise ValueError("a conversation's blobs can only replace its own")
        written = await self._save_script(
            keys=[session_key(*ids), affect_key(*ids)],
            args=[
                seen.session_digest,
                seen.affect_digest,
                _encoder.encode(session) if session is not None else b"",
                self._session_ttl_s,
                _encoder.encode(affect) if affect is not None else b"",
                self._affect_ttl_s,
            ],
        )
        return bool(written)

    async def update(
        self,
        user_id: str,
        agent_id: str,
        chat_id: str,
        compute: Callable[[Snapshot], tuple[SessionState | None, AffectSlot | None, T]],
        *,
        attempts: int = 8,
    ) -> T:
        """Read, ``compute(snapshot) -> (session, affect, result)``, compare-and-set, retry.

        ``compute`` must be pure (it may run several times). Returns its ``result``; raises
        :class:`ConcurrentUpdate` if the conversation changed on every attempt.
        """
        for _ in range(attempts):
            seen = await self.snapshot(user_id, agent_id, chat_id)
            session, affect, result = compute(seen)
            if session is None and affect is None:
                return result
            if await self.save_if_unchanged(seen, session, affect):
                return result
            structlog.get_logger().info("working_memory_conflict_retry")
        raise ConcurrentUpdate(f"conversation changed {attempts} times while being updated")

    async def load_session(self, user_id: str, agent_id: str, chat_id: str) -> SessionState | None:
        raw = await self._redis.get(session_key(user_id, agent_id, chat_id))
        return _decode(raw, _session_decoder)

    async def save(
        self,
        session: SessionState | None = None,
        affect: AffectSlot | None = None,
    ) -> None:
        """Write either or both blobs in one round trip; affect expires after its TTL."""
        pipe = self._redis.pipeline(transaction=False)
        if session is not None:
            key = session_key(session.user_id, session.agent_id, session.chat_id)
            pipe.set(key, _encoder.encode(session), ex=self._session_ttl_s)
        if affect is not None:
            key = affect_key(affect.user_id, affect.agent_id, affect.chat_id or "")
            pipe.set(key, _encoder.encode(affect), ex=self._affect_ttl_s)
        await pipe.execute()

    async def delete(self, user_id: str, agent_id: str, chat_id: str) -> int:
        return await self._redis.delete(
            session_key(user_id, agent_id, chat_id), affect_key(user_id, agent_id, chat_id)
        )

    async def keys_of(self, user_id: str, agent_id: str | None = None) -> list[str]:
        keys: list[str] = []
        for pattern in user_key_patterns(user_id, agent_id):
            async for key in self._redis.scan_iter(match=pattern, count=500):
                keys.append(key.decode() if isinstance(key, bytes) else key)
        return keys

    async def delete_all(self, user_id: str, agent_id: str | None = None) -> int:
        """Remove every working-memory key of a user (or of one agent of theirs)."""
        keys = await self.keys_of(user_id, agent_id)
        return await self._redis.delete(*keys) if keys else 0


def _digest(raw: bytes | str | None) -> str:
    if raw is None:
        return ""
    data = raw.encode() if isinstance(raw, str) else raw
    return hashlib.sha1(data, usedforsecurity=False).hexdigest()


def _decode(raw: bytes | str | None, decoder: msgspec.json.Decoder[T]) -> T | None:
    if raw is None:
        return None
    try:
        return decoder.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        structlog.get_logger().warning("working_memory_corrupt", error=str(exc)[:200])
        return None
