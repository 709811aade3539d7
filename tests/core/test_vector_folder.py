"""One process serves an embedded Qdrant Edge folder (issue 32): a second is refused at once,
naming the holder, and the folder is free again the moment the holder dies, ``kill -9`` too."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from services.core.embedded import EmbeddedStoreError
from services.core.embedded.vectors import vector_folder_held

HOLD = (
    "import sys, time; from pathlib import Path\n"
    "from services.core.embedded.vectors import vector_folder_held\n"
    "with vector_folder_held(Path(sys.argv[1])):\n"
    "    print('held', flush=True); time.sleep(60)\n"
)


def _holder(folder: Path) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(folder)], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    return proc


def test_a_second_process_is_refused_naming_the_first_until_it_dies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "qdrant"
    holder = _holder(folder)
    try:
        with pytest.raises(EmbeddedStoreError) as refused, vector_folder_held(folder):
            pass
        assert f"the vector folder {folder} is in use by process {holder.pid} (" in str(
            refused.value
        )
        assert "TWIN_DATA_DIR" in str(refused.value) and "QDRANT_URL" in str(refused.value)
    finally:
        os.kill(holder.pid, signal.SIGKILL)  # no clean exit: the kernel drops the lock
        holder.wait(timeout=10)

    def waited(*_: object) -> None:
        raise AssertionError("taking a dead holder's lock waited")

    monkeypatch.setattr(time, "sleep", waited)  # at once: nothing waits for the lock to clear
    with vector_folder_held(folder):
        assert (tmp_path / "qdrant.lock").read_text() == f"{os.getpid()}\n"
    assert not folder.exists() or not any(folder.iterdir())  # the lock is beside, not in it
