"""Knowledge updates among recalled turns: the newer of two turns on one topic goes first. Pure.

A person restates what changed ("the deadline moved to May 3", "coverage is now 78 %"); both
the old and the new statement match the question, and the index has no reason to prefer
either. Two recalled turns are on one topic when they share at least :data:`MIN_SHARED`
of the question's BM25 terms in their words (not their speaker's name) and at least half of
the query terms the one with fewer of them contains; said by the same speaker (a person's
statement is superseded by their own later one, not by an assistant's reply or another
person's). Within the first :data:`WINDOW` turns, such a newer turn is moved right before the
older one, and the older one is marked ``newer_on_topic`` (the rank of the newer) in its score
details: it is history, not the current value.

Fitted offline on BEAM chats 1-5 and LoCoMo conv-26/conv-30 only (bench/recall, raw turns,
cosine/BM25 score fusion): BEAM knowledge updates and contradictions with the newer source
first 11 → 16 of 17; R@10 unchanged (moves stay within the first 10), R@5 0.422 → 0.370
on BEAM and 0.604 → 0.586 on LoCoMo (a newer turn on the topic is not always the answer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

WINDOW = 10
MIN_SHARED = 2


@dataclass(frozen=True, slots=True)
class Said:
    """What the rule needs of a turn: when, by whom (its speaker, else its role), and the
    query terms its words contain."""

    ts: datetime
    who: str
    topic: frozenset[int]


def same_topic(a: Said, b: Said) -> bool:
    shared = a.topic & b.topic
    return (
        a.who == b.who
        and len(shared) >= MIN_SHARED
        and 2 * len(shared) >= min(len(a.topic), len(b.topic))
    )


def newer_first(order: Sequence[str], said: Mapping[str, Said]) -> tuple[list[str], dict[str, int]]:
    """``order`` (turn ids, best first) with every newer same-topic turn of the first
    ``WINDOW`` moved right before the older one; and, per superseded turn, the 1-based rank
    of the newer turn that went before it."""
    head, rest = list(order[:WINDOW]), list(order[WINDOW:])
    for _ in range(WINDOW * WINDOW):  # each move fixes one pair; bounded all the same
        move = _first_move(head, said)
        if move is None:
            break
        older, newer = move
        head.insert(older, head.pop(newer))
    superseded = {}
    for i, a in enumerate(head):
        for j in range(i):
            b = head[j]
            if a in said and b in said and said[b].ts > said[a].ts and same_topic(said[a], said[b]):
                superseded[a] = j + 1
                break
    return head + rest, superseded


def _first_move(head: list[str], said: Mapping[str, Said]) -> tuple[int, int] | None:
    for i, a in enumerate(head):
        for j in range(i + 1, len(head)):
            b = head[j]
            if a in said and b in said and said[b].ts > said[a].ts and same_topic(said[a], said[b]):
                return i, j
    return None
