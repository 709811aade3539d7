"""The suite on every core: ``uv run pytest`` runs the whole suite in worker processes
(pytest-xdist; ``-n auto --dist loadgroup`` in pyproject.toml's addopts): one a core and one
more, up to four. A run of some files or folders stays in one process (no workers to start).

What a worker shares with the others and what it keeps for itself:

- **a test file stays whole on one worker** (its module fixtures are built once), and so does
  every folder whose session fixtures are costly: ``tests/e2e`` (one unit per n8n mode: each
  mode's stacks are built once, and the two modes' waits overlap) and ``tests/model_loop`` (one
  unit per recorded set: each conversation is replayed once per style for the whole run).
  They are handed out first, the rest as workers free up;
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
from pathlib import Path

import pytest

TESTS = Path(__file__).parent
# folders whose tests share costly session fixtures: one worker each, handed out first
WHOLE = ("e2e", "model_loop")
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


def _group(item: pytest.Item) -> str:
    """The unit a worker takes whole: each n8n mode's E2E tests (that mode's stacks), each
    recorded set's replay tests (its replays), the rest of a :data:`WHOLE` folder, else the
    test's file."""
    parts = item.path.relative_to(TESTS).parts if item.path.is_relative_to(TESTS) else ()
    if not parts or parts[0] not in WHOLE:
        return str(item.path)
    params = item.callspec.params if hasattr(item, "callspec") else {}
    if "stack" in params:
        return f"{parts[0]}-{params['stack']}"
    styles = (
        [params["style"]] if "style" in params else getattr(params.get("recorded"), "styles", ())
    ) or getattr(getattr(item, "module", None), "STYLES", ())
    if styles:  # "careful-v5": the v5 set's replays; "careful": the first set's
        return f"{parts[0]}-v{styles[0].rpartition('-v')[2] if '-v' in styles[0] else '1'}"
    return parts[0]


def _rank(item: pytest.Item) -> int:
    group = _group(item).partition("-")[0]
    return WHOLE.index(group) if group in WHOLE else len(WHOLE)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a worker: mark each test with its unit before xdist reads the marks (in a hook of its
    own, which this one precedes), and put the whole folders first (pyproject's
    ``--no-loadscope-reorder`` keeps this order when units are handed out)."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    for item in items:
        item.add_marker(pytest.mark.xdist_group(_group(item)))
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
