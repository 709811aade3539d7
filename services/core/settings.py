"""Settings: read from the environment once, by the entry point, and handed down.

Nothing in the project reads ``os.environ`` except :func:`Settings.from_env`, which the CLI
calls. Tests build ``Settings`` directly with the values they need.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

NODE_PORTS: dict[str, int] = {
    "pulse-decay": 8101,
    "graph-hydrator": 8102,
    "rag-gate": 8103,
    "envelope-validator": 8104,
    "reflection-writer": 8105,
    "memory-upserter": 8106,
}


class SettingsError(ValueError):
    """An environment variable holds a value the product cannot use."""


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    # None: the embedded server under data_dir (services.core.embedded), started by the CLI
    database_url: str | None = None
    redis_url: str | None = None
    data_dir: str = "./data"
    embedded_redis_persist: bool = False  # the embedded Redis keeps nothing on disk unless set
    # Stores the process runs itself; set by embedded_stores(), never from the environment.
    embedded: frozenset[str] = frozenset()
    qdrant_path: str = "./data/qdrant"
    qdrant_url: str | None = None
    qdrant_api_key: str | None = None
    openai_base_url: str | None = None
    openai_api_key: str | None = None
    llm_model: str = "gpt-4o-mini"
    embedder: str = "minilm"  # minilm | minilm-float32 | hashing | multilingual-e5 | openai
    embedding_model: str = "text-embedding-3-small"
    embedding_dim: int = 384
    model_threads: int = 1
    node_token: str | None = None
    host: str = "127.0.0.1"
    # Beyond loopback without node_token the nodes refuse to start unless this is set
    # (services.core.exposure); with no token, Host must be loopback, host or one of these.
    allow_open: bool = False
    allowed_hosts: str = ""  # comma-separated Host names, e.g. "twin.lan,192.168.1.20"
    port_offset: int = 0  # added to every node's port (8101..8106), e.g. to run two stacks
    pg_pool_max: int = 10
    pg_timeout_s: float = 5.0
    # How long a request waits for a free pool connection before it answers 503 + Retry-After
    # (n8n's HTTP steps give up after 5–10 s: a wait longer than that helps nobody).
    pg_acquire_timeout_s: float = 3.0
    redis_timeout_s: float = 2.0
    llm_timeout_s: float = 5.0
    ready_timeout_s: float = 1.0
    retry_after_s: int = 5
    max_body_bytes: int = 1_048_576
    # Slow and greedy clients (services.core.guard): headers must arrive within this time
    # (408), and each node's port holds at most this many open connections (503); six nodes
    # at 128 stay under a 1,024 file-descriptor limit with room for the stores.
    header_timeout_s: float = 10.0
    body_timeout_s: float = 30.0  # from the headers to the body's last byte (408 after)
    max_connections: int = 128
    # SIGTERM: /readyz answers 503 this long while requests are still served, then the ports
    # close and in-flight requests finish (services.core.drain); 0: close at once
    drain_s: float = 2.0
    session_idle_minutes: int = 30
    # How long a consolidation lease holds a session; a worker that died mid-session blocks
    # it this long. Keep it above the model budget + embedding + writes of one session.
    consolidation_lease_s: float = 300.0
    working_memory_turns: int = 20
    index_after_reply: bool = True  # commit answers once Postgres holds the turn; vectors follow
    index_sweep_s: float = 300.0  # memory-upserter indexes what is left unindexed; 0: never
    affect_ttl_s: int = 1800
    session_ttl_s: int = 86_400
    log_json: bool | None = None  # None: JSON when stdout is not a terminal

    def port_of(self, node: str) -> int:
        return NODE_PORTS[node] + self.port_offset

    @property
    def store_modes(self) -> dict[str, str]:
        """``embedded`` or ``external`` for each store, as /readyz and the logs report it."""

        def mode(embedded: bool) -> str:
            return "embedded" if embedded else "external"

        return {
            "postgres": mode("postgres" in self.embedded),
            "redis": mode("redis" in self.embedded),
            "vectors": mode(self.qdrant_url is None),
        }

    @property
    def llm_configured(self) -> bool:
        return bool(self.openai_api_key or self.openai_base_url)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        """Build settings from an environment mapping (``os.environ`` in the entry point)."""
        values: dict[str, Any] = {}
        for field, (var, kind) in _ENV.items():
            raw = env.get(var)
            if raw is None or raw == "":
                continue
            values[field] = _parse(var, raw, kind)
        return cls(**values)


def _parse(var: str, raw: str, kind: type) -> object:
    if kind is bool:
        lowered = raw.strip().lower()
        if lowered in {"1", "true", "yes", "on"}:
            return True
        if lowered in {"0", "false", "no", "off"}:
            return False
        raise SettingsError(f"{var} must be true or false, got {raw!r}")
    if kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            raise SettingsError(f"{var} must be a number, got {raw!r}") from None
    return raw


_ENV: dict[str, tuple[str, type]] = {
    "database_url": ("DATABASE_URL", str),
    "redis_url": ("REDIS_URL", str),
    "data_dir": ("TWIN_DATA_DIR", str),
    "embedded_redis_persist": ("TWIN_EMBEDDED_REDIS_PERSIST", bool),
    "qdrant_path": ("QDRANT_PATH", str),
    "qdrant_url": ("QDRANT_URL", str),
    "qdrant_api_key": ("QDRANT_API_KEY", str),
    "openai_base_url": ("OPENAI_BASE_URL", str),
    "openai_api_key": ("OPENAI_API_KEY", str),
    "llm_model": ("TWIN_LLM_MODEL", str),
    "embedder": ("TWIN_EMBEDDER", str),
    "embedding_model": ("TWIN_EMBEDDING_MODEL", str),
    "embedding_dim": ("TWIN_EMBEDDING_DIM", int),
    "model_threads": ("TWIN_MODEL_THREADS", int),
    "node_token": ("TWIN_NODE_TOKEN", str),
    "host": ("TWIN_HOST", str),
    "allow_open": ("TWIN_ALLOW_OPEN", bool),
    "allowed_hosts": ("TWIN_ALLOWED_HOSTS", str),
    "port_offset": ("TWIN_PORT_OFFSET", int),
    "pg_pool_max": ("TWIN_PG_POOL_MAX", int),
    "pg_timeout_s": ("TWIN_PG_TIMEOUT_S", float),
    "pg_acquire_timeout_s": ("TWIN_PG_ACQUIRE_TIMEOUT_S", float),
    "redis_timeout_s": ("TWIN_REDIS_TIMEOUT_S", float),
    "llm_timeout_s": ("TWIN_LLM_TIMEOUT_S", float),
    "ready_timeout_s": ("TWIN_READY_TIMEOUT_S", float),
    "retry_after_s": ("TWIN_RETRY_AFTER_S", int),
    "max_body_bytes": ("TWIN_MAX_BODY_BYTES", int),
    "header_timeout_s": ("TWIN_HEADER_TIMEOUT_S", float),
    "body_timeout_s": ("TWIN_BODY_TIMEOUT_S", float),
    "max_connections": ("TWIN_MAX_CONNECTIONS", int),
    "drain_s": ("TWIN_DRAIN_S", float),
    "session_idle_minutes": ("TWIN_SESSION_IDLE_MINUTES", int),
    "consolidation_lease_s": ("TWIN_CONSOLIDATION_LEASE_S", float),
    "working_memory_turns": ("TWIN_WORKING_MEMORY_TURNS", int),
    "index_after_reply": ("TWIN_INDEX_AFTER_REPLY", bool),
    "index_sweep_s": ("TWIN_INDEX_SWEEP_S", float),
    "affect_ttl_s": ("TWIN_AFFECT_TTL_S", int),
    "session_ttl_s": ("TWIN_SESSION_TTL_S", int),
    "log_json": ("TWIN_LOG_JSON", bool),
}


def env_table() -> list[tuple[str, str, object]]:
    """(variable, field, default) rows, for the README's configuration table."""
    defaults = Settings()
    return [(var, field, getattr(defaults, field)) for field, (var, _) in _ENV.items()]
