"""What the benchmarks share: a ``twin up`` stack in a subprocess, the machine's description,
percentiles, the token count, CPU time of a process, and the RESULTS.md section writer.

Nothing here imports the product's node code: the benchmarks talk to the product over HTTP,
as n8n does, and read Postgres directly only to map row ids back to source ids.
"""

from __future__ import annotations

import asyncio
import math
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "RESULTS.md"
OUT = ROOT / "bench" / "out"  # git-ignored: raw JSON of the last runs
PG_ADMIN = os.environ.get("TWIN_BENCH_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")
REDIS_BASE = os.environ.get("TWIN_BENCH_REDIS", "redis://127.0.0.1:6379")
NODE_PORTS = {  # services.core.settings.NODE_PORTS, without importing the product
    "pulse-decay": 8101,
    "graph-hydrator": 8102,
    "rag-gate": 8103,
    "envelope-validator": 8104,
    "reflection-writer": 8105,
    "memory-upserter": 8106,
}


# --- the token count --------------------------------------------------------------------------


def count_tokens(text: str) -> int:
    """Whitespace-separated words: the one tokenizer of every token budget in the benchmarks.

    Deterministic, model-free and the same for the product and the baselines (how it compares
    with an LLM's BPE count: bench/RESULTS.md, "Figures moved from docstrings").
    """
    return len(text.split())


# --- MiniLM embeddings, cached on disk -----------------------------------------------------------


def cached_embedder(threads: int = 1):
    """``embed(texts) -> (n, 384) float32`` with the product's offline MiniLM embedder
    (``services.core.embedder.MiniLMEmbedder``), every text's vector cached in
    ``bench/out/cache`` (the benchmarks embed the same texts every run)."""
    import hashlib

    import numpy as np

    from services.core.embedder import MiniLMEmbedder

    model = MiniLMEmbedder(threads=threads)
    cache = OUT / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / f"{hashlib.sha256(model.name.encode()).hexdigest()[:16]}.npz"
    known: dict[str, np.ndarray] = {}
    if path.exists():
        with np.load(path) as stored:
            known = dict(zip(stored["keys"].tolist(), stored["vectors"], strict=True))

    def key(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()[:32]

    def embed(texts: Sequence[str]) -> np.ndarray:
        keys = [key(t) for t in texts]
        missing = list(dict.fromkeys(t for t, k in zip(texts, keys, strict=True) if k not in known))
        if missing:
            for text, vector in zip(missing, model.embed_sync(missing), strict=True):
                known[key(text)] = vector
            np.savez(
                path,
                keys=np.array(list(known)),
                vectors=np.stack(list(known.values())).astype(np.float32),
            )
        if not keys:
            return np.zeros((0, model.dim), dtype=np.float32)
        return np.stack([known[k] for k in keys]).astype(np.float32)

    embed.name = model.name  # type: ignore[attr-defined]
    return embed


# --- percentiles ------------------------------------------------------------------------------


def percentile(samples: Sequence[float], p: float) -> float:
    """The p-th percentile (0..100), linear between closest ranks; NaN for no samples."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    if len(ordered) == 1:
        return float(ordered[0])
    rank = (len(ordered) - 1) * p / 100.0
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return float(ordered[low] + (ordered[high] - ordered[low]) * (rank - low))


# --- the machine ------------------------------------------------------------------------------


def machine() -> dict[str, str]:
    """nproc, CPU model, RAM, load, date, commit: the header of every result section."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        model = platform.processor()
    ram = ""
    try:
        kb = int(re.search(r"MemTotal:\s+(\d+)", Path("/proc/meminfo").read_text()).group(1))
        ram = f"{kb / 1024 / 1024:.1f} GiB"
    except (OSError, AttributeError):
        pass
    try:
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        load = ""
    return {
        "nproc": str(os.cpu_count()),
        "cpu": model,
        "ram": ram,
        "load": load,
        "python": platform.python_version(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "commit": git_commit(),
    }


def git_commit() -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            text=True,
            capture_output=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            text=True,
            capture_output=True,
        ).stdout.strip()
        return head + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def machine_line(info: dict[str, str]) -> str:
    return (
        f"{info['date']} · commit `{info['commit']}` · {info['nproc']} cores "
        f"({info['cpu']}) · {info['ram']} RAM · load average at start {info['load']} · "
        f"Python {info['python']}"
    )


# --- RESULTS.md -------------------------------------------------------------------------------


def write_section(name: str, body: str, path: Path = RESULTS) -> None:
    """Replace the text between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` (appended
    when absent), so each benchmark rewrites only its own section."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    block = f"{begin}\n{body.rstrip()}\n{end}"
    if begin in text and end in text:
        head, rest = text.split(begin, 1)
        _, tail = rest.split(end, 1)
        text = head + block + tail
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text)


def table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A markdown table; floats as given (format them before)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# --- CPU time of a process --------------------------------------------------------------------

_CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (all its threads), from /proc/PID/stat."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat.rsplit(")", 1)[1].split()  # after "(comm)": state is fields[0]
    return (int(fields[11]) + int(fields[12])) / _CLK_TCK


def rss_mib(pid: int, kind: str = "VmRSS") -> float:
    """Resident memory of a process in MiB, from /proc/PID/status: ``VmRSS`` (all of it),
    ``RssAnon`` (heap and other private memory) or ``RssFile`` (mapped files, e.g. shards)."""
    found = re.search(kind + r":\s+(\d+)", Path(f"/proc/{pid}/status").read_text())
    return int(found.group(1)) / 1024 if found else math.nan


# --- a twin up stack in a subprocess -----------------------------------------------------------


def dsn_for(database: str) -> str:
    base, _, _ = PG_ADMIN.rpartition("/")
    return f"{base}/{database}"


async def drop_database(database: str) -> None:
    import asyncpg

    if not database.startswith("twin_bench"):
        raise ValueError(f"refusing to drop {database!r}: bench databases start with twin_bench")
    admin = await asyncpg.connect(PG_ADMIN)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    finally:
        await admin.close()


async def copy_database(source: str, target: str) -> None:
    """``target`` := a copy of ``source`` (CREATE DATABASE … TEMPLATE; no one may be
    connected to ``source``). An existing ``target`` is dropped first."""
    import asyncpg

    await drop_database(target)
    admin = await asyncpg.connect(PG_ADMIN)
    try:
        await admin.execute(f'CREATE DATABASE "{target}" TEMPLATE "{source}"')
    finally:
        await admin.close()


def forget_seed(database: str, folder: Path) -> None:
    """Drop the saved copies :func:`restore_seed` made (before seeding anew)."""
    asyncio.run(drop_database(f"{database}_seed"))
    shutil.rmtree(folder.with_name(folder.name + "-seed"), ignore_errors=True)


def restore_seed(database: str, folder: Path) -> float:
    """Put a seeded memory back as it was seeded: the database from its ``{database}_seed``
    copy and the vector folder from ``{folder}-seed``, both made on the first call (when
    they do not exist yet, from the memory as it is now). Without it, every run of a reused
    seed starts from the last one's commits (more turns per user, fuller appendable
    segments), and runs of different builds are not comparable. Returns the seconds taken."""
    started = time.perf_counter()
    snapshot, saved = f"{database}_seed", folder.with_name(folder.name + "-seed")
    if not saved.exists():
        asyncio.run(copy_database(database, snapshot))
        shutil.copytree(folder, saved)
    else:
        asyncio.run(copy_database(snapshot, database))
        shutil.rmtree(folder)
        shutil.copytree(saved, folder)
    return time.perf_counter() - started


def flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


@dataclass
class Stack:
    """``twin up`` (migrate + all six nodes in one process) on a fresh database, a Redis db
    index of its own and a temporary Qdrant Edge folder, ports shifted by ``port_offset``.

    ``fresh=False`` keeps the database and ``qdrant_path`` as they are (a seeded memory).
    The server's log goes to ``log_path``; ``stop`` sends SIGTERM (the product drains and
    closes its pools) and waits.
    """

    database: str
    redis_db: int
    port_offset: int
    qdrant_path: str | None = None
    fresh: bool = True
    env: dict[str, str] = field(default_factory=dict)
    log_path: Path | None = None
    process: subprocess.Popen | None = None
    _temporary: str | None = None

    @property
    def dsn(self) -> str:
        return dsn_for(self.database)

    @property
    def redis_url(self) -> str:
        return f"{REDIS_BASE}/{self.redis_db}"

    def url(self, node: str) -> str:
        return f"http://127.0.0.1:{NODE_PORTS[node] + self.port_offset}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def prepare(self) -> None:
        """Fresh database, flushed Redis db, empty Qdrant folder (unless ``fresh=False``)."""
        if self.qdrant_path is None:  # a folder of our own, removed again by stop()
            self.qdrant_path = tempfile.mkdtemp(prefix=f"{self.database}-qdrant-")
            self._temporary = self.qdrant_path
        flush_redis(self.redis_url)  # working memory only: never the truth
        if self.fresh:
            asyncio.run(drop_database(self.database))
            shutil.rmtree(self.qdrant_path, ignore_errors=True)
            Path(self.qdrant_path).mkdir(parents=True)

    def start(self, timeout: float = 180.0) -> None:
        ports_free(self.port_offset)
        self.prepare()
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith("OPENAI_") and not k.startswith("TWIN_")
        }
        env.update(
            {
                "DATABASE_URL": self.dsn,
                "REDIS_URL": self.redis_url,
                "QDRANT_PATH": str(self.qdrant_path),
                "TWIN_PORT_OFFSET": str(self.port_offset),
                "TWIN_LOG_JSON": "true",
            }
        )
        env.update(self.env)
        if self.log_path is None:  # one request log line per request: overwritten each run
            OUT.mkdir(parents=True, exist_ok=True)
            self.log_path = OUT / f"{self.database}.log"
        log = open(self.log_path, "wb")  # noqa: SIM115 - kept open for the child's lifetime
        # TWIN_BENCH_SERVER_TREE: run the server from another checkout (same venv) — how a
        # before/after comparison runs one bench against two commits, side by side
        tree = os.environ.get("TWIN_BENCH_SERVER_TREE") or str(ROOT)
        env["PYTHONPATH"] = tree
        self.process = subprocess.Popen(
            [sys.executable, "-m", "services.cli", "up"],
            cwd=tree,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        deadline = time.monotonic() + timeout
        with httpx.Client(timeout=2.0) as client:
            for node in NODE_PORTS:
                while True:
                    if self.process.poll() is not None:
                        raise RuntimeError(
                            f"twin up exited ({self.process.returncode}):\n" + self.log_tail()
                        )
                    try:
                        if client.get(self.url(node) + "/readyz").status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    if time.monotonic() > deadline:
                        raise RuntimeError(
                            f"{node} not ready after {timeout} s:\n" + self.log_tail()
                        )
                    time.sleep(0.2)

    def log_tail(self, lines: int = 30) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self._temporary:
            shutil.rmtree(self._temporary, ignore_errors=True)
            self._temporary = None

    def __enter__(self) -> Stack:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def ports_free(port_offset: int) -> None:
    """Refuse to run beside a server already on the bench's ports: a ``twin up`` left running
    by an interrupted run would answer in the new one's place (and lose its data under it)."""
    import socket

    busy = []
    for port in NODE_PORTS.values():
        with socket.socket() as sock:
            sock.settimeout(0.2)
            if sock.connect_ex(("127.0.0.1", port + port_offset)) == 0:
                busy.append(port + port_offset)
    if busy:
        raise RuntimeError(
            f"ports {busy} already answer (a twin up left running by an "
            "interrupted run?): stop it first"
        )
