"""BEAM's knowledge updates and contradictions: does the newer statement rank above the older
one? Pure. Per question, within the first ``k`` items, the rank of the first item covering any
of the newer statement's messages against the first covering any of the older one's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from bench.recall.data import Question
from bench.recall.metrics import Item

OUTCOMES = ("newer first", "older first", "same item", "only newer", "only older", "neither")


def first_rank(items: Sequence[Item], turns: Sequence[str]) -> int | None:
    wanted = set(turns)
    return next((i for i, item in enumerate(items) if item.turns & wanted), None)


def outcome(items: Sequence[Item], question: Question) -> str:
    newer, older = first_rank(items, question.newer), first_rank(items, question.older)
    if newer is None and older is None:
        return "neither"
    if older is None:
        return "only newer"
    if newer is None:
        return "only older"
    if newer == older:  # one item carries both (an episode, a fact citing both)
        return "same item"
    return "newer first" if newer < older else "older first"


def tally(
    methods: Mapping[str, Mapping[str, Sequence[Item]]], questions: Sequence[Question], k: int = 10
) -> dict[str, Counter]:
    """``{method: Counter(outcome)}`` over the questions with an older and a newer statement."""
    dated = [q for q in questions if q.older and q.newer]
    return {
        name: Counter(outcome(list(ranked.get(q.qid, ()))[:k], q) for q in dated)
        for name, ranked in methods.items()
    }
