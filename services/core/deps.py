"""The capabilities a handler asks for, and the one place that opens them.

A handler names what it uses as typed parameters (``db: Inject[Database]``), and litestar
hands them in:

========================  ===================  ===========================
parameter                 type                 store it needs
========================  ===================  ===========================
``db``                    :data:`Database`     ``postgres``
``vectors``               ``VectorIndex``      ``vectors``
``embedder``              ``Embedder``         ``embedder``
``llm``                   ``LLM | None``       ``llm`` (None: no model)
``memory``                ``WorkingMemory``    ``redis``
``settings``              ``Settings``         (always there)
``background``            ``Background``       (always there)
========================  ===================  ===========================

A node's needs are read off its handlers (:func:`services.core.injection.needs_of`): what
``twin serve <node>`` opens and what ``/readyz`` checks follow from the parameters, never from
a list kept beside them.
``llm`` alone may be None, by design rather than by outage: with no model endpoint configured,
the nodes run their deterministic offline engines (the judge's rules, the offline reflection
writer). Every other capability is always there once the node declares it.

A node may register providers of its own (``NodeSpec.dependencies``, e.g. a frozen dataclass
of the capabilities one flow uses); their parameters count too.

:class:`Clients` is the composition root's object: it opens the clients once (``twin serve``
per node, ``twin up`` once for all six, tests once per run) and closes them. Flow code never
sees it; it gets the capabilities, each one non-optional.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias, TypeVar

import asyncpg
import redis.asyncio as aioredis
import structlog
from asyncpg.pool import PoolConnectionProxy
from litestar.di import NamedDependency
from litestar.params import SkipValidation

from services.core.background import Background
from services.core.embedder import Embedder, open_embedder
from services.core.llm import LLM, open_llm
from services.core.settings import Settings
from services.core.stores import open_pg_pool, open_redis
from services.core.vectors import VectorIndex, VectorIndexUnavailable, open_vector_index
from services.core.vectors.space import check_vector_space
from services.core.vectors.withheld import WithheldIndex
from services.core.working_memory import WorkingMemory

if TYPE_CHECKING:
    Database: TypeAlias = asyncpg.Pool[asyncpg.Record]
    Connection: TypeAlias = asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]
else:  # asyncpg's classes are not generic at run time (litestar reads these annotations)
    Database = asyncpg.Pool
    Connection = asyncpg.Connection | PoolConnectionProxy
# Database: the database capability, the process's Postgres pool.
# Connection: what a query function takes, a connection or the pool's proxy of one.

T = TypeVar("T")

Inject: TypeAlias = NamedDependency[SkipValidation[T]]
"""How a handler or provider takes a capability: ``db: Inject[Database]``. Injected by name;
not validated per request (the process made it, and a Protocol cannot be checked)."""

POSTGRES, REDIS, VECTORS, EMBEDDER, LLM_STORE = "postgres", "redis", "vectors", "embedder", "llm"
STORES = frozenset({POSTGRES, REDIS, VECTORS, EMBEDDER, LLM_STORE})
CAPABILITIES: Mapping[str, str] = {
    "db": POSTGRES,
    "memory": REDIS,
    "vectors": VECTORS,
    "embedder": EMBEDDER,
    "llm": LLM_STORE,
}
"""Handler parameter name → the store it needs opened (and checked by ``/readyz``)."""


class MissingCapability(RuntimeError):
    """A capability was asked for that this process did not open (a wiring bug, not an outage)."""


class Clients:
    """The process's open clients, each opened once and only if some handler needs it."""

    def __init__(
        self,
        settings: Settings,
        *,
        db: Database | None = None,
        redis: aioredis.Redis | None = None,
        vectors: VectorIndex | None = None,
        embedder: Embedder | None = None,
        llm: LLM | None = None,
        background: Background | None = None,
    ) -> None:
        self.settings = settings
        self.background = background or Background()
        self._db, self._redis, self._vectors = db, redis, vectors
        self._embedder, self._llm = embedder, llm
        self._memory: WorkingMemory | None = None

    @classmethod
    async def open(cls, settings: Settings, needs: Iterable[str]) -> Clients:
        """Open the stores named in ``needs`` (see :data:`STORES`)."""
        wanted = frozenset(needs)
        if unknown := wanted - STORES:
            raise ValueError(f"unknown dependencies: {sorted(unknown)}")
        clients = cls(settings)
        if POSTGRES in wanted:
            clients._db = await open_pg_pool(settings)
        if REDIS in wanted:
            clients._redis = open_redis(settings)
        if EMBEDDER in wanted:
            clients._embedder = await asyncio.to_thread(
                open_embedder,
                kind=settings.embedder,
                base_url=settings.openai_base_url,
                api_key=settings.openai_api_key,
                model=settings.embedding_model,
                dim=settings.embedding_dim,
                threads=settings.model_threads,
            )
        if VECTORS in wanted:
            clients._vectors = await _open_vectors(settings, clients._embedder)
        if LLM_STORE in wanted:
            clients._llm = open_llm(
                base_url=settings.openai_base_url,
                api_key=settings.openai_api_key,
                model=settings.llm_model,
                timeout=settings.llm_timeout_s,
            )
        return clients

    def replace(
        self,
        *,
        settings: Settings | None = None,
        db: Database | None = None,
        redis: aioredis.Redis | None = None,
        vectors: VectorIndex | None = None,
        embedder: Embedder | None = None,
        llm: LLM | None = None,
        memory: WorkingMemory | None = None,
        background: Background | None = None,
    ) -> Clients:
        """The same clients with some swapped (a test's broken index, a scripted model, a
        full background); the original still owns and closes its own."""
        clients = Clients(
            settings or self.settings,
            db=db or self._db,
            redis=redis or self._redis,
            vectors=vectors or self._vectors,
            embedder=embedder or self._embedder,
            llm=llm or self._llm,
            background=background or self.background,
        )
        clients._memory = memory
        return clients

    @property
    def opened(self) -> frozenset[str]:
        """The stores this process opened."""
        present = {
            POSTGRES: self._db,
            REDIS: self._redis,
            VECTORS: self._vectors,
            EMBEDDER: self._embedder,
            LLM_STORE: self._llm,
        }
        return frozenset(name for name, client in present.items() if client is not None)

    @property
    def db(self) -> Database:
        return _present(self._db, POSTGRES)

    @property
    def redis(self) -> aioredis.Redis:
        return _present(self._redis, REDIS)

    @property
    def vectors(self) -> VectorIndex:
        return _present(self._vectors, VECTORS)

    @property
    def embedder(self) -> Embedder:
        return _present(self._embedder, EMBEDDER)

    @property
    def llm(self) -> LLM | None:
        """The configured chat model, or None: no endpoint configured, offline engines answer."""
        return self._llm

    @property
    def memory(self) -> WorkingMemory:
        """Working memory over this process's Redis client, with the configured TTLs."""
        if self._memory is None:
            self._memory = WorkingMemory(
                self.redis,
                affect_ttl_s=self.settings.affect_ttl_s,
                session_ttl_s=self.settings.session_ttl_s,
            )
        return self._memory

    async def close(self) -> None:
        """Finish the work started after replies, then close every client; a failure closing
        one never keeps the others open."""
        log = structlog.get_logger()
        await self.background.drain()
        closers = [
            (POSTGRES, self._db.close() if self._db else None),
            (REDIS, self._redis.aclose() if self._redis else None),
            (VECTORS, self._vectors.close() if self._vectors else None),
            (EMBEDDER, self._embedder.close() if self._embedder else None),
            (LLM_STORE, self._llm.close() if self._llm else None),
        ]
        for name, closing in closers:
            if closing is None:
                continue
            try:
                await asyncio.wait_for(closing, timeout=10)
            except Exception as exc:  # noqa: BLE001 - shutting down: log and go on
                log.warning("close_failed", dependency=name, error=repr(exc))


def _present(client: T | None, store: str) -> T:
    if client is None:
        raise MissingCapability(f"{store} was not opened: no handler of this process asks for it")
    return client


async def _open_vectors(settings: Settings, embedder: Embedder | None) -> VectorIndex:
    if embedder is not None:  # before a shard opens: another embedder's index is refused
        _check_space(settings, embedder)
    index: VectorIndex = open_vector_index(
        path=settings.qdrant_path,
        url=settings.qdrant_url,
        api_key=settings.qdrant_api_key,
        dim=settings.embedding_dim,
    )
    try:
        await index.ensure_collections()
    except VectorIndexUnavailable as exc:
        # Start anyway, like a lazy pg pool: /readyz names the index, retrieval degrades,
        # and the index creates its collections once it answers.
        structlog.get_logger().warning("vectors_unavailable_at_start", error=str(exc)[:300])
    if embedder is not None and (wanted := getattr(embedder, "stands_in_for", None)):
        index = WithheldIndex(index, embedder=embedder.name, wanted=wanted)
        structlog.get_logger().warning("vectors_withheld", reason=index.reason)
    return index


def _check_space(settings: Settings, embedder: Embedder) -> None:
    """The Edge index must hold this embedder's vectors (:mod:`services.core.vectors.space`).
    A stand-in (the hashing embedder when MiniLM failed to load) neither stamps nor is refused:
    the node stays up, and :class:`WithheldIndex` keeps its vectors out of the index."""
    if settings.qdrant_url or not settings.qdrant_path:
        return
    if getattr(embedder, "stands_in_for", None):
        structlog.get_logger().warning(
            "vector_space_unchecked", embedder=embedder.name, path=settings.qdrant_path
        )
        return
    try:
        check_vector_space(Path(settings.qdrant_path), name=embedder.name, dim=embedder.dim)
    except OSError as exc:  # an unreadable folder: the index reports itself unavailable
        structlog.get_logger().warning("vector_space_unchecked", error=repr(exc)[:300])
