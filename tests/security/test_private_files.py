"""Nothing twin writes can be read by another user of the machine (issue 31 §2: as ``nobody``,
user "carol" was found in 3 files of ``./data`` and the hash of a word of her message
reversed). The real embedded Postgres and Redis and a real Qdrant Edge folder are written,
then the whole tree is walked: by its permission bits, and (when the suite runs as root) by
really trying to read every path as ``nobody``."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from services.core.embedded import EmbeddedPostgres, EmbeddedRedis
from services.core.embedded.private import PRIVATE_UMASK, keep_private
from services.core.vectors import EdgeVectorIndex

# Run as nobody by the system's Python (twin's own may live under root's 0700 home).
READER = """
import os, sys
read = []
for path in sys.argv[1:]:
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            open(path, "rb").read(1)
        read.append(path)
    except OSError:
        pass
print("\\n".join(read))
"""


@pytest.fixture
def private_process() -> Iterator[None]:
    """keep_private changes the process umask: give the test run its own back afterwards."""
    before = os.umask(0o022)
    os.umask(before)
    yield
    os.umask(before)


@pytest.fixture
def workdir() -> Iterator[Path]:
    """Like a clone's working folder (not pytest's tmp, whose parents are 0700 anyway)."""
    path = Path(tempfile.mkdtemp(prefix="twin-private-"))
    path.chmod(0o750)  # a project folder: others may not pass; the Postgres user must
    yield path
    shutil.rmtree(path, ignore_errors=True)


def tree(top: Path) -> list[Path]:
    return [top, *sorted(top.rglob("*"))]


def open_to_others(path: Path) -> bool:
    """Readable or writable by others, or readable or writable by the group (a parent the
    Postgres user may pass through has ``--x`` for it alone, via an ACL mask: not reading)."""
    mode = stat.S_IMODE(path.lstat().st_mode)
    return bool(mode & 0o007) or bool(mode & 0o060)


def test_keep_private_sets_umask_077_and_closes_an_old_open_tree(
    private_process: None, workdir: Path
) -> None:
    old = workdir / "data" / "qdrant"
    old.mkdir(parents=True, mode=0o755)
    (old / "wal").write_bytes(b"carol")
    (old / "wal").chmod(0o644)
    changed = keep_private([workdir / "data"])
    assert os.umask(PRIVATE_UMASK) == PRIVATE_UMASK
    assert str(old / "wal") in changed
    assert [p for p in tree(workdir / "data") if open_to_others(p)] == []
    (old / "new").write_text("x")  # what the process writes next is private too
    assert stat.S_IMODE((old / "new").stat().st_mode) == 0o600


async def test_the_embedded_stores_and_the_vector_folder_are_closed_to_other_users(
    private_process: None, workdir: Path
) -> None:
    data = workdir / "data"
    keep_private([data])
    postgres = EmbeddedPostgres(data / "postgres", durable=False)
    redis = EmbeddedRedis(data / "redis", persist=True)
    postgres.start()
    try:
        await _unique_key_race(postgres)
        redis.start()
        redis.stop()
        index = EdgeVectorIndex(data / "qdrant", dim=8)
        await index.ensure_collections()
        await index.close()
    finally:
        postgres.stop()
    assert_closed_to_others(workdir, data)
    assert "carol" not in postgres.log_path.read_text()  # an error's DETAIL is not logged


async def _unique_key_race(postgres: EmbeddedPostgres) -> None:
    """The error a unique-key race raises, whose DETAIL names the row's value."""
    conn = await asyncpg.connect(postgres.url("postgres"))
    try:
        await conn.execute("CREATE TABLE people (name text UNIQUE)")
        await conn.execute("INSERT INTO people VALUES ($1)", "carol")
        with pytest.raises(asyncpg.UniqueViolationError):
            await conn.execute("INSERT INTO people VALUES ($1)", "carol")
    finally:
        await conn.close()


def assert_closed_to_others(workdir: Path, data: Path) -> None:
    paths = tree(data)
    assert len(paths) > 50  # the cluster, its log, Redis's folder and log, the Edge shards
    assert [str(p) for p in paths if open_to_others(p)] == []
    assert stat.S_IMODE(workdir.stat().st_mode) == 0o750  # no parent was opened to all
    if os.geteuid() == 0 and Path("/usr/bin/python3").exists():
        read = subprocess.run(
            ["/usr/bin/python3", "-c", READER, *map(str, paths)],
            user="nobody",
            capture_output=True,
            text=True,
            check=True,
            cwd="/",
        ).stdout.split()
        assert read == [], f"nobody read {len(read)} paths, e.g. {read[:3]}"
