"""A reader's walk through a package (issue #18): follow the calls in execution order, reading
each function once, and count the *stays* — the stretches spent in one file before the walk
moves to another (a call into another file, or a return to the caller's) — and the *returns*,
the stays in a file the walk had left before. Files in the package's subfolders are the
package's.

:func:`trace` records, with ``sys.setprofile``, every first entry into a function of the
package and every return from it; a call to a function read already is not followed (nor are
the calls it makes), code outside the package is skipped through (a callback it makes into the
package is followed from where the walk stands). A coroutine's suspension and resumption are
not calls: only its start and its final return move the walk. Only the calling task is walked:
work it spawns in the background is not part of it.
"""

from __future__ import annotations

import asyncio
import dis
import sys
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")
_YIELD = dis.opmap["YIELD_VALUE"]


@dataclass(frozen=True)
class Stay:
    module: str  # the file's path in the package without ``.py`` (``commit/write``)
    function: str  # the function the walk entered the file in (or returned to)


@dataclass
class Walk:
    root: Path
    task: asyncio.Task[Any] | None = None  # the task walked (others, e.g. background, are not)
    stays: list[Stay] = field(default_factory=list)
    _read: set[Any] = field(default_factory=set)  # code objects read already
    _live: set[FrameType] = field(default_factory=set)  # started, not finished
    _stack: list[tuple[FrameType, bool]] = field(default_factory=list)  # (frame, followed)

    def _mine(self, frame: FrameType) -> bool:
        return self.root in Path(frame.f_code.co_filename).parents

    def _move(self, frame: FrameType) -> None:
        module = Path(frame.f_code.co_filename).relative_to(self.root).with_suffix("").as_posix()
        if not self.stays or self.stays[-1].module != module:
            self.stays.append(Stay(module, self._named(frame)))

    def _event(self, frame: FrameType, event: str, arg: object) -> None:
        if event not in ("call", "return") or not self._mine(frame):
            return
        if asyncio.current_task() is not self.task:
            return
        if event == "call":
            if frame in self._live:  # a coroutine or generator resumed
                return
            self._live.add(frame)
            followed = frame.f_code not in self._read
            self._read.add(frame.f_code)
            self._stack.append((frame, followed))
            if followed:
                self._move(frame)
            return
        if frame.f_code.co_code[frame.f_lasti] == _YIELD:  # suspended, not finished
            return
        self._live.discard(frame)
        while self._stack:  # a generator abandoned without finishing leaves its entry
            top, followed = self._stack.pop()
            if top is frame:
                break
        back = next((f for f, followed in reversed(self._stack) if followed), None)
        if back is not None:
            self._move(back)

    def _named(self, frame: FrameType) -> str:
        """The function a frame belongs to: a comprehension's or lambda's enclosing one."""
        if not frame.f_code.co_name.startswith("<"):
            return frame.f_code.co_name
        outer = next(
            (f for f, _ in reversed(self._stack) if not f.f_code.co_name.startswith("<")), frame
        )
        return outer.f_code.co_name

    @property
    def returns(self) -> list[Stay]:
        """The stays in a file the walk had left before: each one a reader turning back."""
        return [
            s for i, s in enumerate(self.stays) if any(p.module == s.module for p in self.stays[:i])
        ]

    @property
    def files(self) -> set[str]:
        return {s.module for s in self.stays}

    def render(self) -> str:
        return " → ".join(f"{s.module}:{s.function}" for s in self.stays)


@contextmanager
def _profiled(walk: Walk) -> Iterator[None]:
    before = sys.getprofile()
    sys.setprofile(walk._event)
    try:
        yield
    finally:
        sys.setprofile(before)


async def trace(root: Path, work: Callable[[], Awaitable[T]]) -> tuple[T, Walk]:
    """``work()``'s result, and the walk it made through the package at ``root``."""
    walk = Walk(root, asyncio.current_task())
    with _profiled(walk):
        result = await work()
    return result, walk
