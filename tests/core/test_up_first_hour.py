"""A new user's first hour with ``twin up`` and ``twin chat``, as they meet it (issue 32): the
real commands in subprocesses, one ``twin up`` for the module.

- ``twin up`` says when it is ready and what to run next;
- a second ``twin up`` on the same vector folder stops at once and names the one holding it
  (it used to start, then answer 503 for everything vector-backed);
- Ctrl-C at ``twin chat``'s prompt ends it at once (it used to wait for Enter);
- ``twin chat`` one offset off names the offset that answers;
- a second ``twin up`` on taken ports says so in a line (it used to print a traceback).
"""

from __future__ import annotations

import os
import pty
import random
import select
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from services.core.settings import Settings

TWIN = [sys.executable, "-m", "services.cli"]


class Stack:
    def __init__(self, proc: subprocess.Popen[str], env: dict[str, str], offset: int) -> None:
        self.proc, self.env, self.offset = proc, env, offset
        self.ready = ""


@pytest.fixture(scope="module")
def stack(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    base = settings.database_url.rpartition("/")[0]
    name = f"twin_cli_{uuid.uuid4().hex[:8]}"
    offset = random.randrange(2_000, 22_000, 10)
    env = {
        **os.environ,
        "DATABASE_URL": f"{base}/{name}",
        "REDIS_URL": settings.redis_url,
        "QDRANT_PATH": str(tmp_path_factory.mktemp("first-hour") / "qdrant"),
        "TWIN_PORT_OFFSET": str(offset),
        "TWIN_LOG_JSON": "true",
        "TWIN_EMBEDDER": "hashing",  # what is checked here never embeds: start in seconds
    }
    for key in ("OPENAI_BASE_URL", "OPENAI_API_KEY"):
        env.pop(key, None)
    proc = subprocess.Popen(
        [*TWIN, "up"], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    up = Stack(proc, env, offset)
    try:
        up.ready = _line_starting(proc, "ready: ", timeout_s=90)
        yield up
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
        _drop(f"{base}/postgres", name)


def _line_starting(proc: subprocess.Popen[str], prefix: str, timeout_s: float) -> str:
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith(prefix):
            return line.strip()
        if not line and proc.poll() is not None:
            break
    raise AssertionError(f"`twin up` never printed {prefix!r}")


def _drop(admin_dsn: str, name: str) -> None:
    import asyncio

    async def drop() -> None:
        admin = await asyncpg.connect(admin_dsn)
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()

    asyncio.run(drop())


def test_twin_up_says_when_it_is_ready_and_what_to_run_next(stack: Stack) -> None:
    first, last = stack.offset + 8101, stack.offset + 8106
    assert stack.ready == (
        f"ready: the six nodes answer on 127.0.0.1:{first}–{last}. Now run, in a second "
        f"terminal: TWIN_PORT_OFFSET={stack.offset} uv run twin chat --user alice --agent deanna"
    )


def test_a_second_twin_up_on_the_same_vectors_stops_and_names_the_first(stack: Stack) -> None:
    env = stack.env | {"TWIN_PORT_OFFSET": str(stack.offset + 5)}
    second = subprocess.run([*TWIN, "up"], env=env, capture_output=True, text=True, timeout=60)
    assert second.returncode == 1
    folder = Path(env["QDRANT_PATH"])
    assert second.stderr.startswith(
        f"twin up: the vector folder {folder} is in use by process {stack.proc.pid} ("
    ), second.stderr
    assert "Traceback" not in second.stderr and "ready:" not in second.stdout
    # it stopped before anything started: no store, no node, one line of why
    assert second.stdout == "" and second.stderr.strip().count("\n") == 0, second


def test_ctrl_c_at_the_chat_prompt_ends_it_at_once(stack: Stack) -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: twin chat on a terminal, as a person runs it
        os.execvpe(TWIN[0], [*TWIN, "chat", "--user", "alice", "--agent", "deanna"], stack.env)
    shown = _read_until(fd, b"you> ", timeout_s=60)
    assert b"you> " in shown, shown
    assert b"Chat play:alice: every persona you talk to as this user shares it" in shown
    os.write(fd, b"\x03")  # Ctrl-C, through the terminal
    status = _wait(pid, timeout_s=10)  # one Ctrl-C is enough: no second signal is sent
    os.close(fd)
    assert status == 130, status


def test_twin_chat_one_offset_off_names_the_offset_that_answers(stack: Stack) -> None:
    env = stack.env | {"TWIN_PORT_OFFSET": str(stack.offset + 1)}
    done = subprocess.run(
        [*TWIN, "chat", "--user", "alice", "--agent", "deanna"],
        env=env,
        input="hello\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith(
        f"twin chat: The Twin Core nodes answer at TWIN_PORT_OFFSET={stack.offset}, "
        f"not {stack.offset + 1}: run `TWIN_PORT_OFFSET={stack.offset} uv run twin chat …`"
    ), done.stderr


def _read_until(fd: int, marker: bytes, timeout_s: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + timeout_s
    while marker not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                seen += os.read(fd, 4096)
            except OSError:
                break
    return seen


def _wait(pid: int, timeout_s: float) -> int | None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.05)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None


def test_a_second_twin_up_on_taken_ports_says_so_and_how_to_run_beside(
    stack: Stack, tmp_path: Path
) -> None:
    """Its own vector folder, the first one's ports: one line instead of a traceback."""
    env = stack.env | {"QDRANT_PATH": str(tmp_path / "qdrant")}
    second = subprocess.run(
        [*TWIN, "up", "--no-migrate"], env=env, capture_output=True, text=True, timeout=60
    )
    assert second.returncode == 1
    assert second.stderr.startswith(
        f"twin up: 127.0.0.1:{stack.offset + 8101} (pulse-decay's port) is already in use, "
    ), second.stderr
    assert "TWIN_PORT_OFFSET=100 uv run twin up" in second.stderr
    assert "Traceback" not in second.stderr
