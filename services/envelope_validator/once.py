"""Every old turn appears once in the prompt (pure).

One message can reach the envelope three ways: replayed as a recent turn (pulse-decay's
session), recalled as evidence for this message (rag-gate's ``EPISODE.turns``, or as a recalled
turn's ``context``), and as the previous session's tail. It is shown where it first appears in
this order — the replayed history (real roles, the conversation itself), then a recalled turn
(dated, ranked), then the tail — and dropped from the later places, with a warning.

A turn is the same turn by its ``message_id``, or, when one side has none, by its role and
normalized text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import msgspec

from contracts.recall import RecalledTurn
from contracts.slots import Turn
from services.envelope_validator.caps import Warnings, normalize


@dataclass(slots=True)
class Shown:
    """The turns already shown, by id and by (role, normalized text)."""

    ids: set[str] = field(default_factory=set)
    texts: set[tuple[str, str]] = field(default_factory=set)

    def has(self, turn: Turn | RecalledTurn) -> bool:
        if turn.message_id and turn.message_id in self.ids:
            return True
        return (turn.role, normalize(turn.text)) in self.texts

    def add(self, turns: Iterable[Turn | RecalledTurn]) -> Shown:
        for turn in turns:
            if turn.message_id:
                self.ids.add(turn.message_id)
            self.texts.add((turn.role, normalize(turn.text)))
        return self


def recalled_once(
    recalled: Sequence[RecalledTurn], history: Sequence[Turn], w: Warnings
) -> list[RecalledTurn]:
    """The recalled turns not replayed in the history; a context the history holds is left
    off its turn."""
    shown = Shown().add(history)
    kept, dropped, contexts = [], 0, 0
    for turn in recalled:
        if shown.has(turn):
            dropped += 1
            continue
        if turn.context is not None and shown.has(turn.context):
            turn = msgspec.structs.replace(turn, context=None)
            contexts += 1
        kept.append(turn)
    if dropped or contexts:
        w.add(
            "deduplicated",
            "EPISODE.turns",
            f"{dropped} recalled turn(s) and {contexts} context turn(s) left out: the recent "
            "turns already replay them",
        )
    return kept


def tail_once(
    tail: Sequence[Turn], history: Sequence[Turn], recalled: Sequence[RecalledTurn], w: Warnings
) -> list[Turn]:
    """The previous session's tail without the turns the history or a rendered recalled turn
    (or its context) already shows."""
    shown = Shown().add(history).add(recalled)
    shown.add(turn.context for turn in recalled if turn.context is not None)
    kept = [turn for turn in tail if not shown.has(turn)]
    if len(kept) < len(tail):
        w.add(
            "deduplicated",
            "EPISODE.previous_session_tail",
            f"{len(tail) - len(kept)} turn(s) left out: already shown as a recent or a "
            "recalled turn",
        )
    return kept


NEWER = "newer_on_topic"  # rag-gate's score detail: the rank of the later turn on its topic


def newer_still_listed(
    kept: Sequence[RecalledTurn], ranked: Sequence[RecalledTurn]
) -> list[RecalledTurn]:
    """``kept`` (what is left of rag-gate's ``ranked`` turns) with each turn's ``newer_on_topic``
    pointing at the later turn's rank among ``kept``, or dropped when that turn is no longer
    listed (the recent turns replay it): a turn reads as history only beside the turn that
    superseded it, never alone on an ordinary turn."""
    position = {t.message_id: n for n, t in enumerate(kept, 1) if t.message_id}
    out = []
    for turn in kept:
        rank = int(turn.score_details.get(NEWER, 0))
        if rank:
            newer = ranked[rank - 1].message_id if rank <= len(ranked) else None
            details = {k: v for k, v in turn.score_details.items() if k != NEWER}
            if newer in position:
                details[NEWER] = float(position[newer])
            turn = msgspec.structs.replace(turn, score_details=details)
        out.append(turn)
    return out
