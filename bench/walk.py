"""A reader's walk through the code a call runs (issues #18 and #26): follow the calls in
execution order, reading each function once, and count the *stays* — the stretches spent in one
file before the walk moves to another (a call into another file, or a return to the caller's) —
and the *returns*, the stays in a file the walk had left before (a walk A → B → A counts one).

:func:`trace` records, with ``sys.setprofile``, every first entry into a function of the walked
folders (``roots``: ``services/memory_upserter`` alone, or with ``services/core``) and every
return from it; a call to a function read already is not followed (nor are the calls it makes),
code outside the folders is skipped through (a callback it makes into them is followed from
where the walk stands). A coroutine's suspension and resumption are not calls: only its start
and its final return move the walk. Only the calling task is walked: work it spawns in the
background is not part of it. Each stay keeps the call depth it was entered at (the number of
followed frames under it), so :meth:`Walk.render` can show the walk as a tree.

The same trace read another way, :attr:`Walk.calls`: the file of each function the walk reads,
in the order it reads them, a stop where the file changes — the walk as its calls alone, the
way a reviewer following the call path through the source counts it ("38 stops in 19 files,
19 returns", issue #26). It is the lenient reading: coming back to the caller's file after a
callee returns is no stop (the reader already holds the caller's place), only reading another
function of it is; a comprehension or lambda is read with the function that holds it. The
stays count every return to the caller's file as well, so their figures are the higher ones.

``tests/memory_upserter/commit/test_walk.py`` walks one representative ``/v1/commit`` (a plan
with entities, facts, a todo and a completion, against the run's real Postgres and Redis) and
prints the figures: ``uv run pytest -q -s -p no:cacheprovider
tests/memory_upserter/commit/test_walk.py``.
"""

from __future__ import annotations

import asyncio
import dis
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")
_YIELD = dis.opmap["YIELD_VALUE"]


@dataclass(frozen=True)
class Stay:
    module: str  # the file's path under the walk's base, without ``.py`` (``commit/write``)
    function: str  # the function the walk entered the file in (or returned to)
    depth: int = 0  # followed frames under it when the walk entered (0: the walked call)


@dataclass
class Walk:
    roots: tuple[Path, ...]  # the folders walked; their files (at any depth) are followed
    base: Path  # files are named by their path under it
    task: asyncio.Task[Any] | None = None  # the task walked (others, e.g. background, are not)
    thread: int = field(default_factory=threading.get_ident)  # the walked task's loop
    stays: list[Stay] = field(default_factory=list)
    calls: list[Stay] = field(default_factory=list)  # the walk as its calls alone
    _read: set[Any] = field(default_factory=set)  # code objects read already
    _live: set[FrameType] = field(default_factory=set)  # started, not finished
    _stack: list[tuple[FrameType, bool]] = field(default_factory=list)  # (frame, followed)
    _handed: threading.local = field(default_factory=threading.local)  # .on: the task's work

    def _walked(self) -> bool:
        """This event belongs to the walked task: on its loop, the task runs; in a worker
        thread, work it handed over (:class:`_Handing`) runs."""
        if threading.get_ident() == self.thread:
            return asyncio.current_task() is self.task
        return getattr(self._handed, "on", False)

    def run_handed(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        self._handed.on = True
        try:
            return fn(*args, **kwargs)
        finally:
            self._handed.on = False

    def _mine(self, frame: FrameType) -> bool:
        parents = Path(frame.f_code.co_filename).parents
        return any(root in parents for root in self.roots)

    def _depth(self) -> int:
        return sum(1 for _, followed in self._stack if followed) - 1

    def _module(self, frame: FrameType) -> str:
        path = Path(frame.f_code.co_filename).relative_to(self.base)
        return path.with_suffix("").as_posix()

    def _move(self, frame: FrameType) -> None:
        module = self._module(frame)
        if not self.stays or self.stays[-1].module != module:
            self.stays.append(Stay(module, self._named(frame), self._depth()))

    def _call(self, frame: FrameType) -> None:
        """A function read for the first time: a stop when its file is not the last call's (a
        comprehension or lambda belongs to the function holding it: no call of its own)."""
        if frame.f_code.co_name.startswith("<"):
            return
        module = self._module(frame)
        if not self.calls or self.calls[-1].module != module:
            self.calls.append(Stay(module, frame.f_code.co_name, self._depth()))

    def _event(self, frame: FrameType, event: str, arg: object) -> None:
        if event not in ("call", "return") or not self._mine(frame):
            return
        if not self._walked():
            return
        if event == "call":
            self._enter(frame)
        else:
            self._leave(frame)

    def _enter(self, frame: FrameType) -> None:
        if frame in self._live:  # a coroutine or generator resumed
            return
        self._live.add(frame)
        # under a function read already, the walk skips through: nothing it calls is followed
        skipping = bool(self._stack) and not self._stack[-1][1]
        followed = not skipping and frame.f_code not in self._read
        if followed:
            self._read.add(frame.f_code)
        self._stack.append((frame, followed))
        if followed:
            self._move(frame)
            self._call(frame)

    def _leave(self, frame: FrameType) -> None:
        if frame.f_code.co_code[frame.f_lasti] == _YIELD:  # suspended, not finished
            return
        self._live.discard(frame)
        while self._stack:  # a generator abandoned without finishing leaves its entry
            top, _ = self._stack.pop()
            if top is frame:
                break
        back = next((f for f, followed in reversed(self._stack) if followed), None)
        if back is not None:
            self._move(back)

    def _named(self, frame: FrameType) -> str:
        """The function a frame belongs to: a comprehension's or lambda's enclosing one."""
        if not frame.f_code.co_name.startswith("<"):
            return frame.f_code.co_name
        frames = [f for f, _ in self._stack]
        below = frames[: frames.index(frame) + 1] if frame in frames else frames
        outer = next((f for f in reversed(below) if not f.f_code.co_name.startswith("<")), frame)
        return outer.f_code.co_name

    @property
    def returns(self) -> list[Stay]:
        """The stays in a file the walk had left before: each one a reader turning back."""
        return _returns(self.stays)

    @property
    def call_returns(self) -> list[Stay]:
        """The calls into a file the walk had left before (:attr:`calls`)."""
        return _returns(self.calls)

    @property
    def files(self) -> set[str]:
        return {s.module for s in self.stays}

    def figures(self) -> str:
        return (
            f"{len(self.stays)} stays in {len(self.files)} files, {len(self.returns)} returns; "
            f"calls alone: {len(self.calls)} stops, {len(self.call_returns)} returns"
        )

    def render(self, tree: bool = False, *, calls: bool = False) -> str:
        """The stays (or the :attr:`calls`) in order, ``file:function`` joined by arrows, or
        one a line indented by depth (``tree``), returns marked ``↩``."""
        stops = self.calls if calls else self.stays
        back = {id(s) for s in _returns(stops)}
        if not tree:
            return " → ".join(f"{s.module}:{s.function}" for s in stops)
        return "\n".join(
            f"{'  ' * s.depth}{'↩ ' if id(s) in back else ''}{s.module}:{s.function}" for s in stops
        )


def _returns(stops: list[Stay]) -> list[Stay]:
    seen: set[str] = set()
    back = []
    for stop in stops:
        if stop.module in seen:
            back.append(stop)
        seen.add(stop.module)
    return back


class _Handing(ThreadPoolExecutor):
    """The loop's default executor while a walk runs: its threads are profiled, and what the
    walked task submits (``asyncio.to_thread``) runs marked as the walk's."""

    def __init__(self, walk: Walk) -> None:
        super().__init__(initializer=sys.setprofile, initargs=(walk._event,))
        self.walk = walk

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        if threading.get_ident() == self.walk.thread and asyncio.current_task() is self.walk.task:
            return super().submit(self.walk.run_handed, fn, *args, **kwargs)
        return super().submit(fn, *args, **kwargs)


@contextmanager
def _profiled(walk: Walk) -> Iterator[None]:
    loop = asyncio.get_running_loop()
    before, executor = sys.getprofile(), loop._default_executor  # type: ignore[attr-defined]
    handing = _Handing(walk)
    loop.set_default_executor(handing)
    sys.setprofile(walk._event)
    try:
        yield
    finally:
        sys.setprofile(before)
        loop._default_executor = executor  # type: ignore[attr-defined]
        handing.shutdown(wait=True)


async def trace(
    roots: Path | tuple[Path, ...], work: Callable[[], Awaitable[T]], base: Path | None = None
) -> tuple[T, Walk]:
    """``work()``'s result, and the walk it made through the folders at ``roots`` (files
    named under ``base``, by default the one root, or the roots' common parent)."""
    folders = roots if isinstance(roots, tuple) else (roots,)
    if base is None:
        base = folders[0] if len(folders) == 1 else Path(*_common(folders))
    walk = Walk(folders, base, asyncio.current_task())
    with _profiled(walk):
        result = await work()
    return result, walk


def _common(folders: tuple[Path, ...]) -> tuple[str, ...]:
    parts = [f.parts for f in folders]
    common: list[str] = []
    for column in zip(*parts, strict=False):
        if len(set(column)) != 1:
            break
        common.append(column[0])
    return tuple(common)
