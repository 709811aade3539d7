"""Child processes of the E2E test: each in its own process group, stopped by its own id."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import httpx


def free_port(span: str = "") -> int:
    """A free port; from ``span`` ("5690-5699") when given, for a machine whose ports are
    shared out between runs."""
    if span:
        low, _, high = span.partition("-")
        for port in range(int(low), int(high or low) + 1):
            if port not in _TAKEN and not port_in_use(port):
                _TAKEN.add(port)
                return port
        raise RuntimeError(f"no free port in {span}")
    while True:  # the OS may hand a port out again once closed: never the same one twice
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        if port not in _TAKEN:
            _TAKEN.add(port)
            return port


_TAKEN: set[int] = set()  # handed out this run (a port is free until bound)


def port_in_use(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


class Process:
    """A long-running child (n8n, ``twin up``) with its output in a log file."""

    def __init__(
        self,
        name: str,
        argv: Sequence[str | Path],
        env: dict[str, str],
        log_path: Path,
        cwd: Path | None = None,
    ) -> None:
        self.name = name
        self.log_path = log_path
        self._log = log_path.open("ab")
        self.proc = subprocess.Popen(
            [str(arg) for arg in argv],
            env=env,
            cwd=cwd,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )

    def alive(self) -> bool:
        return self.proc.poll() is None

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def wait_until(self, ready: Callable[[], bool], timeout: float, what: str) -> float:
        """Poll ``ready`` until true; fail with the log's tail if the process dies or time's up.
        Returns the seconds it took."""
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            if not self.alive():
                raise RuntimeError(
                    f"{self.name} exited ({self.proc.returncode}) before {what}:\n{self.log_tail()}"
                )
            with contextlib.suppress(httpx.HTTPError, OSError):
                if ready():
                    return time.monotonic() - started
            time.sleep(0.25)
        raise TimeoutError(f"{self.name}: not {what} after {timeout:.0f}s:\n{self.log_tail()}")

    def stop(self, grace: float = 25.0) -> None:
        """SIGTERM to the process group this child leads, then SIGKILL after ``grace``."""
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        self._log.close()


def run(
    argv: Sequence[str | Path], env: dict[str, str], timeout: float, what: str
) -> subprocess.CompletedProcess[str]:
    """A short CLI call; its whole output in the error when it fails."""
    done = subprocess.run(
        [str(arg) for arg in argv],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"{what} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    return done
