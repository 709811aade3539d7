"""The reader's walk (bench/walk.py) on a package written for the test: what a stay and a return
are, what is skipped through, and that work handed to a thread is walked where it was handed."""

from __future__ import annotations

import asyncio
import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from bench.walk import trace

MODULES = {
    "steps.py": """
import asyncio
from walked import helpers, pure

async def run():
    first = pure.double(1)          # steps → pure → steps: one return
    second = pure.double(2)         # read already: not followed
    third = helpers.twice(3)        # helpers calls pure.triple: under a function read anew
    again = helpers.twice(4)        # read already: skipped through with all it calls
    handed = await asyncio.to_thread(pure.square, 5)
    return [first, second, third, again, handed]
""",
    "helpers.py": """
from walked import pure

def twice(x):
    if x > 3:
        pure.half(x)  # first called under twice read already: not followed either
    return pure.triple(x) - x
""",
    "pure.py": """
def double(x):
    return 2 * x

def triple(x):
    return 3 * x

def square(x):
    return x * x

def half(x):
    return x / 2
""",
}


@pytest.fixture
def walked(tmp_path: Path) -> Iterator[tuple[ModuleType, Path]]:
    package = tmp_path / "walked"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name, source in MODULES.items():
        (package / name).write_text(source)
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module("walked.steps"), package
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m == "walked" or m.startswith("walked.")]:
            del sys.modules[name]


async def test_a_walk_counts_each_turn_back_to_a_file_left_once(
    walked: tuple[ModuleType, Path],
) -> None:
    steps, package = walked
    result, walk = await trace(package, steps.run)
    assert result == [2, 4, 6, 8, 25]
    assert [(s.module, s.function) for s in walk.stays] == [
        ("steps", "run"),
        ("pure", "double"),
        ("steps", "run"),  # A → B → A: one return
        ("helpers", "twice"),
        ("pure", "triple"),  # back in pure, left before: a return too
        ("helpers", "twice"),
        ("steps", "run"),
        ("pure", "square"),  # handed to a thread by the walked task: walked where handed
        ("steps", "run"),
    ]
    assert [s.depth for s in walk.stays] == [0, 1, 0, 1, 2, 1, 0, 1, 0]
    assert len(walk.returns) == 6 and walk.files == {"steps", "pure", "helpers"}
    assert walk.figures().startswith("9 stays in 3 files, 6 returns;")  # stays less files
    assert walk.render(tree=True).splitlines()[2] == "↩ steps:run"


async def test_the_calls_alone_stop_only_where_a_function_of_another_file_is_read(
    walked: tuple[ModuleType, Path],
) -> None:
    """Coming back to the caller's file is no stop; reading a function of a file left is a
    return; a function of the file the last call was in (``square`` after ``triple``) is none."""
    steps, package = walked
    _, walk = await trace(package, steps.run)
    assert [(s.module, s.function) for s in walk.calls] == [
        ("steps", "run"),
        ("pure", "double"),
        ("helpers", "twice"),
        ("pure", "triple"),  # pure was left for helpers: a return
    ]
    assert [(s.module, s.function) for s in walk.call_returns] == [("pure", "triple")]
    assert walk.figures().endswith("calls alone: 4 stops, 1 returns")
    assert walk.render(calls=True) == "steps:run → pure:double → helpers:twice → pure:triple"


async def test_other_tasks_and_their_threads_are_not_walked(
    walked: tuple[ModuleType, Path],
) -> None:
    steps, package = walked
    pure = importlib.import_module("walked.pure")

    async def work() -> int:
        background = asyncio.create_task(asyncio.to_thread(pure.triple, 2))
        await asyncio.sleep(0)
        return await background

    result, walk = await trace(package, work)
    assert result == 6 and walk.stays == []
