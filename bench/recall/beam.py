"""BEAM (100K tier), read into the same records as LoCoMo: a chat is a
:class:`~bench.recall.data.Conversation`, a batch a session, a message a turn.

Data: ``../shared/bench/beam/100K/<chat>/`` beside the repository (chats 1-10; 11-20 are held
out and not here; its README describes the shape). A message's turn id is ``D<batch>:<id>``,
so :func:`~bench.recall.data.session_of` gives its batch. The batch's date is the
``time_anchor`` of its first dated message; message i of a batch is dated start + i x 30 s.
The generation marker `` ->-> b,t`` is cut from the content. Abstention questions carry no
source messages, so they are not scored for recall.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

from bench.common import ROOT
from bench.recall.data import TURN_SPACING, Conversation, Question, Session, Turn

DEFAULT_DIR = ROOT.parent / "shared" / "bench" / "beam" / "100K"
MARKER = re.compile(r"\s*->->\s*\d+\s*,\s*\d+\s*$")
# which side of a source dict is the older statement, which the newer
SIDES = {
    "knowledge_update": ("original_info", "updated_info"),
    "contradiction_resolution": ("first_statement", "second_statement"),
}


def parse_anchor(text: str) -> datetime:
    """``'March-15-2024'`` → an aware UTC datetime (midday)."""
    return datetime.strptime(text, "%B-%d-%Y").replace(hour=12, tzinfo=UTC)


def load(chats: list[int], root: Path = DEFAULT_DIR) -> list[Conversation]:
    return [load_chat(root / str(n), f"beam-{n}") for n in chats]


def load_chat(folder: Path, sample_id: str) -> Conversation:
    batches = json.loads((folder / "chat.json").read_text())
    sessions = tuple(_session(batch) for batch in batches)
    dia = {t.dia_id.split(":", 1)[1]: t.dia_id for s in sessions for t in s.turns}
    probing = json.loads((folder / "probing_questions.json").read_text())
    questions = tuple(
        _question(sample_id, ability, i, raw, dia)
        for ability, items in probing.items()
        for i, raw in enumerate(items)
    )
    return Conversation(sample_id, ("user", "assistant"), sessions, questions)


def _session(batch: dict) -> Session:
    number = int(batch["batch_number"])
    messages = [m for turn in batch["turns"] for m in turn]
    anchor = batch.get("time_anchor") or next(
        m["time_anchor"] for m in messages if "time_anchor" in m
    )
    start = parse_anchor(anchor)
    turns = tuple(
        Turn(
            dia_id=f"D{number}:{m['id']}",
            speaker=m["role"],
            text=MARKER.sub("", m["content"]),
            caption=None,
            session=number,
            position=i,
            ts=start + i * TURN_SPACING,
            role=m["role"],
        )
        for i, m in enumerate(messages)
    )
    return Session(number, anchor, start, turns)


def _ids(value, dia: dict[str, str]) -> tuple[str, ...]:
    """Source message ids (a list, or a dict of lists) → resolvable turn ids, in order."""
    values = value.values() if isinstance(value, dict) else [value or []]
    return tuple(dict.fromkeys(dia[str(i)] for ids in values for i in ids if str(i) in dia))


def _question(sample_id: str, ability: str, index: int, raw: dict, dia: dict) -> Question:
    sources = raw.get("source_chat_ids")
    older = newer = ()
    if ability in SIDES and isinstance(sources, dict):
        first, second = (_ids(sources.get(side, []), dia) for side in SIDES[ability])
        older, newer = _order(first, second)
    return Question(
        qid=f"{sample_id}#{ability}:{index}",
        sample_id=sample_id,
        text=raw["question"],
        answer=str(raw.get("answer") or raw.get("ideal_answer") or raw.get("ideal_response") or ""),
        category=0,
        evidence=_ids(sources, dia),
        ability=ability,
        older=older,
        newer=newer,
    )


def _order(a: tuple[str, ...], b: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(older, newer) by message position: BEAM's "first" statement is not always the earlier
    one. Sides that share a message, or are empty, have no order: ``((), ())``."""
    if not a or not b or set(a) & set(b):
        return (), ()
    position = lambda t: int(t.split(":", 1)[1])  # noqa: E731
    if max(map(position, a)) < min(map(position, b)):
        return a, b
    if max(map(position, b)) < min(map(position, a)):
        return b, a
    return (), ()
