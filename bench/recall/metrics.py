"""Ranking fusion and recall metrics, pure.

A *ranked context* is a list of items in the order they would go into the prompt; each item
carries the set of LoCoMo turn ids it stands for (its provenance) and its token count. A
question's evidence recall at a budget is the share of its evidence turn ids covered by the
items inside the budget; "all evidence" is 1 when every one is covered, else 0.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

RRF_K = 60


def rrf(rankings: Sequence[Sequence[K]], k: int = RRF_K) -> list[K]:
    """Reciprocal-rank fusion: score(d) = sum over rankings of 1 / (k + rank), rank from 1.

    Ties keep the order in which items were first seen (first ranking first)."""
    scores: dict[K, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, 1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    order = {item: i for i, item in enumerate(scores)}
    return sorted(scores, key=lambda item: (-scores[item], order[item]))


@dataclass(frozen=True)
class Item:
    """One thing handed to the LLM: its kind, its text, the turn ids it stands for."""

    kind: str
    text: str
    turns: frozenset[str]
    tokens: int
    meta: dict = field(default_factory=dict, compare=False, hash=False)


def within_items(items: Sequence[Item], budget: int) -> list[Item]:
    """The first ``budget`` items."""
    return list(items[:budget])


def within_tokens(items: Sequence[Item], budget: int) -> list[Item]:
    """The longest prefix of items whose tokens add up to at most ``budget``.

    An item that does not fit ends the context: no skipping ahead to a shorter one, no
    truncation (a method whose first item is longer than the budget gets nothing)."""
    out: list[Item] = []
    used = 0
    for item in items:
        if used + item.tokens > budget:
            break
        out.append(item)
        used += item.tokens
    return out


def covered(items: Iterable[Item]) -> set[str]:
    found: set[str] = set()
    for item in items:
        found |= item.turns
    return found


def recall(found: set[str], evidence: Sequence[str]) -> float:
    if not evidence:
        raise ValueError("recall needs at least one evidence turn")
    return sum(1 for e in evidence if e in found) / len(evidence)


def all_found(found: set[str], evidence: Sequence[str]) -> float:
    return 1.0 if all(e in found for e in evidence) else 0.0


@dataclass
class Tally:
    """Sums of recall and all-evidence over questions, per group (category, "all")."""

    recall_sum: dict[str, float] = field(default_factory=dict)
    all_sum: dict[str, float] = field(default_factory=dict)
    count: dict[str, int] = field(default_factory=dict)

    def add(self, groups: Iterable[str], found: set[str], evidence: Sequence[str]) -> None:
        r, a = recall(found, evidence), all_found(found, evidence)
        for group in groups:
            self.recall_sum[group] = self.recall_sum.get(group, 0.0) + r
            self.all_sum[group] = self.all_sum.get(group, 0.0) + a
            self.count[group] = self.count.get(group, 0) + 1

    def recall(self, group: str) -> float:
        return (
            self.recall_sum.get(group, 0.0) / self.count[group]
            if self.count.get(group)
            else float("nan")
        )

    def all_rate(self, group: str) -> float:
        return (
            self.all_sum.get(group, 0.0) / self.count[group]
            if self.count.get(group)
            else float("nan")
        )


Cut = Callable[[Sequence[Item], int], list[Item]]


GROUNDED_SHARE = 0.5


def grounded(
    item: Item, turn_words: dict[str, frozenset[str]], share: float = GROUNDED_SHARE
) -> Item:
    """The item crediting only those provenance turns whose words it actually carries: at least
    ``share`` of the turn's distinct content words (``turn_words``) occur in the item's text.

    Provenance says where an item came from; this asks whether the turn's content reached the
    prompt. A raw turn is always grounded in itself; an episode whose provenance lists a whole
    session is grounded only in the turns its text quotes or closely restates."""
    from bench.recall.lexical import tokenize

    words = set(tokenize(item.text))
    kept = frozenset(
        t
        for t in item.turns
        if (need := turn_words.get(t)) is not None
        and (not need or len(need & words) >= share * len(need))
    )
    if kept == item.turns:
        return item
    return Item(item.kind, item.text, kept, item.tokens, item.meta)
