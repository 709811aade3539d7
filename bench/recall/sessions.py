"""Session granularity, MemPalace's definition: rank the items, map each to its session, keep
the distinct sessions in the order first met; R@k is the share of a question's evidence
sessions among the first k of them. Pure.

An item standing for turns of several sessions (an episode, a fact citing two sessions) brings
each of them, in session order; an item with no provenance brings none.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from bench.recall.data import Question, session_of
from bench.recall.metrics import Item

SESSION_BUDGETS = ("@5", "@10", "@20")


def _key(session: str) -> tuple[int, str]:
    digits = "".join(ch for ch in session if ch.isdigit())
    return (int(digits) if digits else 0, session)


def session_items(items: Sequence[Item]) -> list[Item]:
    """The distinct sessions of ranked ``items``, best first, one :class:`Item` each."""
    seen: dict[str, None] = {}
    for item in items:
        for session in sorted({session_of(t) for t in item.turns}, key=_key):
            seen.setdefault(session)
    return [Item("session", s, frozenset({s}), 1) for s in seen]


def session_questions(questions: Sequence[Question]) -> list[Question]:
    """The questions with their evidence turns replaced by the evidence's sessions."""
    return [
        dataclasses.replace(q, evidence=tuple(dict.fromkeys(session_of(e) for e in q.evidence)))
        for q in questions
    ]


def session_methods(
    methods: Mapping[str, Mapping[str, Sequence[Item]]],
) -> dict[str, dict[str, list[Item]]]:
    return {
        name: {qid: session_items(items) for qid, items in ranked.items()}
        for name, ranked in methods.items()
    }
