"""A todo a model re-lists with its state (pure): ``{"kind": "COMMITMENT", "text": "call the
plumber", "status": "done"}`` is the model saying the todo is done, in the only place it
thought of — a small model's habit, since ``todos`` holds new ones and ``done``/``dropped`` the
closed ones. Read so: its words join ``done`` (``"done"``, ``"completed"``, ``"finished"``,
``true`` for ``done``/``completed``) or ``dropped`` (``"cancelled"``, ``"dropped"``…), resolved
among the pending todos like any other words, and it is no new todo. A status that says the
todo is still open (``"pending"``, ``"todo"``) is left as it was: the field is dropped as
unknown, the todo kept."""

from __future__ import annotations

from typing import Any

from contracts.memory import Notice
from services.memory_upserter.text import fold

_DONE = frozenset("done complete completed finished finish closed resolved did ok yes true".split())
_DROPPED = frozenset(
    "cancelled canceled cancel dropped drop removed deleted skipped abandoned declined".split()
)
_STATE_FIELDS = ("status", "state", "done", "completed", "cancelled", "canceled")


def closed_state(part: Any) -> str | None:
    """``"done"`` or ``"dropped"`` when the todo part says it is closed, else None."""
    if not isinstance(part, dict):
        return None
    for key in _STATE_FIELDS:
        if key not in part:
            continue
        said = part[key]
        if key in ("done", "completed") and said is True:
            return "done"
        if key in ("cancelled", "canceled") and said is True:
            return "dropped"
        word = fold(str(said)).strip() if isinstance(said, str) else ""
        if word in _DONE and key in ("status", "state"):
            return "done"
        if word in _DROPPED and key in ("status", "state"):
            return "dropped"
    return None


def split_closed(
    parts: list[tuple[str, Any]],
) -> tuple[list[tuple[str, Any]], list[str], list[str], list[Notice]]:
    """The todo parts still to write, the words of those said done, of those said dropped,
    and a notice for each one read so."""
    kept: list[tuple[str, Any]] = []
    done: list[str] = []
    dropped: list[str] = []
    notes: list[Notice] = []
    for where, part in parts:
        state = closed_state(part)
        text = part.get("text") or part.get("task") if isinstance(part, dict) else None
        if state is None or not isinstance(text, str) or not text.strip():
            kept.append((where, part))
            continue
        (done if state == "done" else dropped).append(text.strip()[:120])
        notes.append(
            Notice(
                code="plan_repaired",
                detail=f"{where}: a todo listed as {state}: its words read as {state!r}",
            )
        )
    return kept, done, dropped, notes
