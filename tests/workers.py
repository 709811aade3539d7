"""The suite on every core: ``uv run pytest`` runs the whole suite in worker processes
(pytest-xdist; ``-n auto`` in pyproject.toml's addopts): one a core and one more, up to four.
A run of some files or folders stays in one process (no workers to start).

What a worker takes whole, and what it keeps for itself:

- **a unit** (:func:`unit`): a test file, whose module fixtures are then built once; all the
  E2E tests of one n8n mode (that mode's stacks are built once, and the two modes' waits
  overlap); all the tests of one recorded set's replays (each conversation is replayed once per
  style). The E2E units are handed out first, then the replay sets', then the files;
- **Postgres**: each worker creates its own databases (their names are random already);
- **Redis**: the run's db, as runs side by side already share it: every test writes only under
  its own fresh user ids (tests/conftest.py);
- **ports**: the tests pick free or random ones; a ``TWIN_PORT_OFFSET`` given to the run moves
  up by 10 a worker, so two workers' ``twin up`` never share a node port.

``-s`` (the figures the replay tests print past capture) runs in one process, as does
``TWIN_TEST_WORKERS=0``; ``TWIN_TEST_WORKERS=N`` sets the number of workers.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

N8N_MODES = ("single", "queue")  # tests/e2e/stack.py: the stack fixture's ids
MAX_WORKERS = 4
STORES_OUT = "twin_stores"
# what tests/conftest.py's summary line says of the stores (set where the fixtures run)
STORES_KEY = pytest.StashKey[dict[str, str]]()


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """The whole suite (``uv run pytest``, no paths): one worker a core and one more, since the
    two E2E workers mostly wait on n8n; a run of some files or folders, or with ``-s``: none."""
    fixed = os.environ.get("TWIN_TEST_WORKERS", "").strip()
    if fixed:
        return int(fixed)
    whole = config.args_source is pytest.Config.ArgsSource.TESTPATHS
    if not whole or config.getoption("capture") == "no":
        return 0
    return max(1, min(MAX_WORKERS, len(os.sched_getaffinity(0)) + 1))


def worker_index() -> int:
    """0 for the first worker or a run without workers, 1 for the second, …"""
    return int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)


def pytest_configure(config: pytest.Config) -> None:
    """A worker's own ports: the offsets given to the run move up by 10 a worker (six node ports
    each), and a span of n8n ports given to the run is cut into one slice a worker."""
    index, count = worker_index(), int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    for name in ("TWIN_PORT_OFFSET", "TWIN_E2E_PORT_OFFSET"):
        if os.environ.get(name) and index:
            os.environ[name] = str(int(os.environ[name]) + 10 * index)
    span = os.environ.get("TWIN_E2E_N8N_PORTS", "")
    if span and count > 1:
        low, _, high = span.partition("-")
        size = (int(high or low) - int(low) + 1) // count
        start = int(low) + index * size
        os.environ["TWIN_E2E_N8N_PORTS"] = f"{start}-{start + size - 1}"


def unit(nodeid: str) -> str:
    """The unit a worker takes whole, read from a test's id: an E2E test of one n8n mode goes
    with that mode's (its stacks), a test of one recorded set's replays with that set's (its
    replays: ``careful-v5`` in the id, or the set ``v5`` alone), any other with its file's."""
    path, _, rest = nodeid.partition("::")
    words = rest.partition("[")[2].removesuffix("]").split("-")
    if path.startswith("tests/e2e/") and (modes := [w for w in words if w in N8N_MODES]):
        return f"tests/e2e::{modes[0]}"
    played = re.search(r"(?:^|-)(?:careful|sloppy)-(v\d+)(?:-|$)|^(v\d+)$", "-".join(words))
    return f"{path}::{played.group(1) or played.group(2)}" if played else path


class ByUnit(LoadScopeScheduling):
    """xdist's scope scheduling with :func:`unit` as the scope (xdist's own ``loadgroup`` reads
    marks it cannot apply to node ids under pytest 9.2)."""

    def _split_scope(self, nodeid: str) -> str:
        return unit(nodeid)


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> ByUnit | None:
    """Ours for xdist's default (``load``); any other ``--dist`` asked for is xdist's."""
    return ByUnit(config, log) if config.getvalue("dist") == "load" else None


def _rank(item: pytest.Item) -> int:
    found = unit(item.nodeid)
    return 0 if found.startswith("tests/e2e::") else 1 if "::" in found else 2


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a worker: the E2E units first, then the replay sets', then the files in collection
    order (pyproject's ``--no-loadscope-reorder`` hands units out in this order)."""
    if "PYTEST_XDIST_WORKER" in os.environ:
        items.sort(key=_rank)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A worker hands the stores it used (tests/conftest.py's summary line) to the main
    process."""
    out = getattr(session.config, "workeroutput", None)
    if out is not None:
        out[STORES_OUT] = session.config.stash.get(STORES_KEY, {})


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    described = getattr(node, "workeroutput", {}).get(STORES_OUT) or {}
    seen = node.config.stash.setdefault(STORES_KEY, {})
    for store, how in described.items():
        seen[store] = how if store not in seen or how == seen[store] else f"{seen[store]}; {how}"
