"""Recorded handles, translated to the replay's (pure).

A GRAPH line carries a handle made of its row's id (``F3a9c1b``, ``T07be2c``:
:mod:`services.core.handles`), and ids are new on every run. So a recorded answer that names a
handle (``replaces``, ``ends``, ``done``, ``dropped``) keeps, beside its raw text, the text of
the line each handle named when it was written (``handles``: handle → text). On replay, the
same text is looked up among the lines of the replay's own prompt and the recorded handle is
swapped for the one that line carries now. When the product now words the line a little
differently ("Get Rita a farewell card pls" is shown as "Get Rita a farewell card" since todos
lose their "pls"), the line of the same kind whose words overlap most — at least
:data:`SAME_LINE` of them, and no other line as much — is that line. A text the replay's prompt
does not show leaves the handle as recorded: the commit then answers it as any unknown handle (a
warning), which is what the product would do with that answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

_HANDLE = re.compile(r"\b[FT][0-9a-f]{6}\b", re.IGNORECASE)
_TEXT_KEYS = ("fact", "todo")
# the share of words (Jaccard) a line reworded by the product still shares with the recorded one
SAME_LINE = 0.6


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def graph_handles(messages: Iterable[dict[str, Any]]) -> dict[str, str]:
    """Handle → text of every GRAPH fact and todo line the prompt's messages show."""
    found: dict[str, str] = {}
    for message in messages:
        for line in str(message.get("content", "")).splitlines():
            if not line.startswith("{"):
                continue
            try:
                row = json.loads(line)
            except ValueError:
                continue
            text = next((row[k] for k in _TEXT_KEYS if isinstance(row.get(k), str)), None)
            if isinstance(row, dict) and isinstance(row.get("id"), str) and text is not None:
                found[row["id"]] = text
    return found


def named(raw: str) -> list[str]:
    """The handles a raw answer names, in order, once each."""
    return list(dict.fromkeys(m.group(0) for m in _HANDLE.finditer(raw)))


def recorded(raw: str, shown: dict[str, str]) -> dict[str, str]:
    """What a recording keeps: each handle the answer names → the text of the line it named."""
    lowered = {h.lower(): text for h, text in shown.items()}
    return {h: lowered[h.lower()] for h in named(raw) if h.lower() in lowered}


def translate(raw: str, then: dict[str, str], shown: dict[str, str]) -> str:
    """``raw`` with each recorded handle (``then``: handle → text) replaced by the handle the
    line of the same text carries in this prompt (``shown``); unknown texts stay as recorded."""
    swap = {old.lower(): new for old, text in then.items() if (new := _line(old, text, shown))}
    return _HANDLE.sub(lambda m: swap.get(m.group(0).lower(), m.group(0)), raw)


def _line(old: str, text: str, shown: dict[str, str]) -> str | None:
    """The handle of the shown line that is the recorded one: the same text, else the one line
    of the same kind (fact or todo) sharing most of its words, if enough."""
    same = [h for h, t in shown.items() if _norm(t) == _norm(text)]
    if same:
        return same[0]
    kind = old[0].lower()
    scored = sorted(
        ((_overlap(text, t), h) for h, t in shown.items() if h[0].lower() == kind), reverse=True
    )
    if not scored or scored[0][0] < SAME_LINE or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


def _overlap(a: str, b: str) -> float:
    words_a, words_b = set(_norm(a).split()), set(_norm(b).split())
    return len(words_a & words_b) / len(words_a | words_b) if words_a | words_b else 0.0
