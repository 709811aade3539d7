"""``tools/n8n/install.sh`` on a machine without npm (issue 32): the E2E tests used to *error*
there; now the script exits 69 naming what is missing, and the E2E skips with that reason.
No network and no install: the script stops before it touches anything."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.e2e import n8n as n8n_tools


def _without_npm(tmp_path: Path) -> dict[str, str]:
    """A PATH with the tools the script needs before npm, and no npm; a cache with no n8n."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "env"):
        found = shutil.which(tool)
        assert found is not None
        (bin_dir / tool).symlink_to(found)
    return {"PATH": str(bin_dir), "HOME": str(tmp_path), "TWIN_CACHE": str(tmp_path / "cache")}


def test_install_without_npm_exits_69_and_says_what_is_missing(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(n8n_tools.INSTALL)], env=_without_npm(tmp_path), capture_output=True, text=True
    )
    assert done.returncode == n8n_tools.NPM_MISSING == 69
    assert done.stderr.startswith("[n8n-install] npm is not installed: it is needed")
    assert not (tmp_path / "cache").exists()  # nothing touched


def test_the_e2e_sees_npm_missing_as_a_reason_to_skip_and_shows_each_line(tmp_path: Path) -> None:
    shown: list[str] = []
    with pytest.raises(n8n_tools.NpmMissing, match="npm is not installed"):
        n8n_tools.install(progress=shown.append, env=_without_npm(tmp_path))
    assert shown and shown[0].startswith("[n8n-install] npm is not installed")
