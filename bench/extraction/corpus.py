"""The labelled corpus (``data/messages.txt``, ``data/dialogues.json``), its held-out split, and
the scoring of what the offline judge wrote against what it must (and may) write — pure.

A message's facts are matched on subject, canonical predicate and value (case and accents
folded; ``a/b`` alternatives); a fact labelled with ``@from``/``@to`` matches only with that
validity date (``@to=any``: with some end). What the judge wrote that is neither a must nor a
may is a false write. The Telegram-style corpus (``data/telegram.txt``) also labels the plan's
todos (``TODO=words``: a todo whose text holds the words), ``forget`` targets (``FORGET=…``) and a
completion (``DONE=yes``); its held-out part is two items in five by a salted hash of the text.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from services.core.memory_store import canonical_predicate
from services.memory_upserter.commit.read import fold

DATA = Path(__file__).resolve().parent / "data"
HELD_OUT_SHARE = 4  # one item in four (by a hash of its text) is held out
SELF_STATEMENTS = (
    "name",
    "age",
    "job",
    "employer",
    "home",
    "birthplace",
    "languages",
    "family",
    "friends",
    "pets",
    "diet",
    "allergy",
    "likes",
    "projects",
)
NO_WRITE = ("question", "hypothetical", "negation", "wish", "disputed", "quoted", "past")


@dataclass(frozen=True)
class Fact:
    subject: str  # "user" or a folded name
    predicate: str
    values: tuple[str, ...]  # folded alternatives
    valid_from: str | None = None  # YYYY-MM-DD
    valid_to: str | None = None

    def matches(self, other: Fact) -> bool:
        if self.predicate == "TODO" and other.predicate == "TODO":
            values = any(v in w for v in self.values for w in other.values)
        else:
            values = bool(set(self.values) & set(other.values))
        return (
            self.subject == other.subject
            and self.predicate == other.predicate
            and values
            and (self.valid_from is None or self.valid_from == other.valid_from)
            and (
                self.valid_to is None
                or self.valid_to == other.valid_to
                or (self.valid_to == "any" and other.valid_to is not None)
            )
        )


@dataclass(frozen=True)
class Message:
    category: str
    text: str
    must: tuple[Fact, ...]
    may: tuple[Fact, ...]
    held_out: bool
    asked: str | None = None  # the question just asked (``question >> answer`` in the file)


def held_out(key: str) -> bool:
    return int(hashlib.sha1(key.encode()).hexdigest(), 16) % HELD_OUT_SHARE == 0


def held_out_telegram(key: str) -> bool:
    """Two items in five (fixed before any rule was tuned on the Telegram corpus)."""
    return int(hashlib.sha1(f"telegram:{key}".encode()).hexdigest(), 16) % 5 < 2


def parse_fact(label: str) -> Fact:
    """``PRED=value``, ``Subject:PRED=value``, with ``@from=…`` / ``@to=…``."""
    bounds = dict(re.findall(r"@(from|to)=(\S+)", label))
    label = re.sub(r"\s*@(?:from|to)=\S+", "", label).strip()
    head, _, value = label.partition("=")
    subject, _, predicate = head.rpartition(":")
    return Fact(
        fold(subject) if subject else "user",
        canonical_predicate(predicate.strip()),
        tuple(fold(v) for v in value.split("/")),
        bounds.get("from"),
        bounds.get("to"),
    )


def _facts(column: str) -> tuple[Fact, ...]:
    return tuple(parse_fact(p) for p in column.split(";") if p.strip())


def held_out_half(key: str) -> bool:
    """One item in two, by a salted hash (``telegram-fresh2.txt``: split before the judge ran)."""
    return int(hashlib.sha1(f"fresh2:{key}".encode()).hexdigest(), 16) % 2 == 0


def held_out_doings(key: str) -> bool:
    """Two items in five of ``telegram-doings.txt``, by a hash salted apart from the others
    (fixed in the commit that wrote the file, before any rule was tuned on it)."""
    return int(hashlib.sha1(f"doings:{key}".encode()).hexdigest(), 16) % 5 < 2


def held_out_people(key: str) -> bool:
    """Two items in five of the people corpus (``people.txt``, round 10), by a salted hash
    fixed and committed before any rule was tuned on it."""
    return int(hashlib.sha1(f"people:{key}".encode()).hexdigest(), 16) % 5 < 2


def _all_held_out(key: str) -> bool:
    return True


def _all_tuned(key: str) -> bool:
    return False


# How each file splits: by a hash of the text, or whole (``*-fresh``: written and labelled
# before the judge ever ran on it, never tuned on; ``*-probe``: written to tune on).
SPLITS = {
    "telegram.txt": held_out_telegram,
    "telegram-fresh.txt": _all_held_out,
    "telegram-probe.txt": _all_tuned,
    "locomo-style.txt": _all_tuned,  # LoCoMo-style frames (bench/extraction/styled.py)
    "answers.txt": held_out_telegram,  # question >> answer pairs (round 8): two in five held out
    "telegram-fresh2.txt": held_out_half,  # round 10: written and split before the judge ran
    "telegram-doings.txt": held_out_doings,  # activities, likes, plans (round 10): two in five
    "people.txt": held_out_people,  # people and standing facts (round 10): two in five held out
}


def load_messages(path: Path = DATA / "messages.txt") -> list[Message]:
    split = SPLITS.get(path.name, held_out)
    out = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        category, text, must, may = (c.strip() for c in line.split("|", 3))
        asked, _, said = text.rpartition(" >> ")
        held = split(text)
        out.append(Message(category, said, _facts(must), _facts(may), held, asked or None))
    return out


def load_dialogues(path: Path = DATA / "dialogues.json") -> list[dict]:
    dialogues = json.loads(path.read_text())
    for d in dialogues:
        d["held_out"] = held_out(d["id"])
    return dialogues


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    messages: int = 0
    wrong: int = 0  # messages with at least one false write
    garbled: int = (
        0  # false writes of a labelled kind with the wrong value (a fragment, a lost object)
    )
    missed: list[str] = field(default_factory=list)
    false: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.tp, self.fp, self.fn = self.tp + other.tp, self.fp + other.fp, self.fn + other.fn
        self.messages += other.messages
        self.wrong += other.wrong
        self.garbled += other.garbled

    @property
    def precision(self) -> float | None:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def garbled_share(self) -> float | None:
        """Of the facts written, the share that are a labelled kind with a wrong value."""
        return self.garbled / (self.tp + self.fp) if self.tp + self.fp else None

    @property
    def recall(self) -> float | None:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else None


def score(message: Message, written: Sequence[Fact]) -> Tally:
    """One message: what must be written and was (tp), was not (fn), and false writes (fp)."""
    tally = Tally(messages=1)
    used: set[int] = set()
    for want in message.must:
        hit = next((i for i, w in enumerate(written) if i not in used and want.matches(w)), None)
        if hit is None:
            tally.fn += 1
            tally.missed.append(f"{message.text!r}: missed {want}")
        else:
            used.add(hit)
            tally.tp += 1
    for i, w in enumerate(written):
        if i in used or any(m.matches(w) for m in message.may):
            continue
        loose = Fact(w.subject, w.predicate, w.values)
        if any(want.matches(loose) or loose.matches(want) for want in message.must):
            continue  # the right fact with the wrong dates: already counted as missed
        tally.fp += 1
        labelled = (*message.must, *message.may)
        tally.garbled += any((f.subject, f.predicate) == (w.subject, w.predicate) for f in labelled)
        tally.false.append(f"{message.text!r}: wrote {w}")
    tally.wrong = int(tally.fp > 0)
    return tally


def ratio(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def by_category(messages: Iterable[Message], tallies: Iterable[Tally]) -> dict[str, Tally]:
    out: dict[str, Tally] = {}
    for message, tally in zip(messages, tallies, strict=True):
        out.setdefault(message.category, Tally()).add(tally)
    return out
