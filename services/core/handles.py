"""Short handles for GRAPH lines (pure): what the model names when a new fact replaces or ends
a known one, or when it says which todo is done.

A handle is a letter for the kind (``F`` a fact, ``T`` a todo) and the first six hex digits of
the row's id: ``F3a9c1b``. The envelope renders it beside each line; the commit resolves it back
among the user's own visible rows of that kind (case-insensitive, a stray ``#``, brackets or
spaces ignored). Six digits name one row among thousands; a prefix that matches several rows
resolves to none, with a warning, rather than a guess.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

HandleKind = Literal["fact", "todo"]
_LETTER: dict[HandleKind, str] = {"fact": "F", "todo": "T"}
_KIND = {letter: kind for kind, letter in _LETTER.items()}
DIGITS = 6
_HANDLE = re.compile(rf"^\W*([FfTt])[-:]?([0-9a-fA-F]{{{DIGITS}}})\W*$")


class Handle(NamedTuple):
    kind: HandleKind
    prefix: str  # lower-case hex digits an id (without hyphens) starts with


def handle_of(kind: HandleKind, row_id: str) -> str:
    """``F3a9c1b`` for the fact whose id starts ``3a9c1b…``."""
    return _LETTER[kind] + row_id.replace("-", "")[:DIGITS].lower()


def parse_handle(text: str) -> Handle | None:
    """The handle a model wrote (``F3a9c1b``, ``[f3a9c1b]``, ``#F3A9C1B``), or None."""
    match = _HANDLE.match(text.strip())
    if match is None:
        return None
    return Handle(_KIND[match[1].upper()], match[2].lower())


def matches(handle: Handle, row_id: str) -> bool:
    return row_id.replace("-", "").lower().startswith(handle.prefix)
