"""LoCoMo sessions as the slow brain reads them (pure but for reading the file): speaker A is the
person (``user``), speaker B the other side (``assistant``), one :class:`Message` a turn, the
session's date as every turn's time. Photos are left out (a caption is not anyone's words).

Splits: ``dev`` (conv-26, conv-30) is what the rules were tuned on; ``held-out`` (conv-41,
conv-42, every third session: S1, S4, S7…, so the hand labels stay few) was labelled after the
rules were frozen (commit 16969df) and is only scored.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from services.reflection_writer.model import Message

DATA = Path(os.environ.get("TWIN_LOCOMO", "../shared/bench/locomo/locomo-dev.json"))
SPLITS = {"dev": ("conv-26", "conv-30"), "held-out": ("conv-41", "conv-42")}


@dataclass(frozen=True)
class Session:
    conv: str
    number: int
    person: str  # speaker A's name
    other: str
    messages: list[Message]

    @property
    def key(self) -> str:
        return f"{self.conv}:S{self.number}"


def load(split: str, path: Path = DATA) -> list[Session]:
    """The split's sessions in order."""
    out = []
    for sample in json.loads(path.read_text()):
        if sample["sample_id"] not in SPLITS[split]:
            continue
        conv = sample["conversation"]
        numbers = sorted(
            int(k.split("_")[1]) for k in conv if k.startswith("session_") and k.count("_") == 1
        )
        for n in (n for n in numbers if split == "dev" or n % 3 == 1):
            ts = _date(conv.get(f"session_{n}_date_time", ""))
            messages = [
                Message(
                    turn["dia_id"],
                    i + 1,
                    "user" if turn["speaker"] == conv["speaker_a"] else "assistant",
                    turn["text"],
                    ts,
                    turn["speaker"],
                )
                for i, turn in enumerate(conv[f"session_{n}"])
            ]
            out.append(
                Session(sample["sample_id"], n, conv["speaker_a"], conv["speaker_b"], messages)
            )
    return out


def _date(text: str) -> datetime:
    try:
        return datetime.strptime(text, "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError:
        return datetime(2023, 1, 1, tzinfo=UTC)
