"""The one "which X?" question (003 §10) — pure: its wording, and reading it back.

"Which Marta do you mean — work Marta (colleague) or Marta Silva (works at Acme)?". The read
side asks it when a mention names several entities (``graph_hydrator.question``), the write
side when a todo or a fact names someone several people answer to
(``memory_upserter.extract.people``, ``memory_upserter.commit.names``); both build it here, so
the person always reads one phrasing and the next turn can tell which question its answer
closes (:func:`read_question`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

_QUESTION = re.compile(r"^Which (?P<shown>.+?) do you mean — (?P<rest>.+)\?$", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Which:
    """A question read back: the word it asks about and each candidate's phrase, in order."""

    shown: str
    phrases: tuple[str, ...]


def phrase(label: str, detail: str | None) -> str:
    """One candidate: "work Marta (colleague)", or its label alone."""
    return f"{label} ({detail})" if detail else label


def numbered(phrases: Sequence[str]) -> list[str]:
    """Phrases that would still read the same get their place: "Marta (sister) #2"."""
    repeated = {p for p in phrases if phrases.count(p) > 1}
    return [f"{p} #{n}" if p in repeated else p for n, p in enumerate(phrases, start=1)]


def which_question(shown: str, phrases: Sequence[str]) -> str:
    """ "Which {shown} do you mean — a, b or c?" """
    listed = phrases[0] if len(phrases) == 1 else ", ".join(phrases[:-1]) + " or " + phrases[-1]
    return f"Which {shown} do you mean — {listed}?"


def read_question(text: str) -> Which | None:
    """The question :func:`which_question` wrote, read back; None for any other text."""
    match = _QUESTION.match(text.strip())
    if match is None:
        return None
    parts, depth, current = [], 0, ""
    rest = match["rest"]
    i = 0
    while i < len(rest):
        ch = rest[i]
        depth += {"(": 1, ")": -1}.get(ch, 0)
        sep = next((s for s in (", ", " or ") if depth == 0 and rest.startswith(s, i)), None)
        if sep is not None:
            parts.append(current)
            current, i = "", i + len(sep)
            continue
        current += ch
        i += 1
    parts.append(current)
    return Which(match["shown"], tuple(p.strip() for p in parts if p.strip()))
