"""LoCoMo, read into plain records: conversations → sessions (with their dates) → turns, and the
questions with their resolvable evidence turn ids.

Data: ``../shared/bench/locomo/locomo-dev.json`` beside the repository (CC BY-NC 4.0; its README
describes the shape). ``TWIN_LOCOMO`` points elsewhere, e.g. at the full ``locomo10.json``.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bench.common import ROOT

DEFAULT_PATH = ROOT.parent / "shared" / "bench" / "locomo" / "locomo-dev.json"
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
# Category 5: the question names the wrong speaker (or something never said); scored only when
# asked for (``--adversarial``), never in the headline tables of categories 1-4.
ADVERSARIAL = {5: "adversarial"}
SCORED = set(CATEGORIES)  # which LoCoMo categories scored_questions keeps
# LoCoMo turns carry no time of their own: turn i of a session is dated start + i x this.
TURN_SPACING = timedelta(seconds=30)

_DATE = re.compile(
    r"^\s*(\d{1,2}):(\d{2})\s*([ap]m)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$", re.IGNORECASE
)


@dataclass(frozen=True)
class Turn:
    dia_id: str
    speaker: str
    text: str
    caption: str | None
    session: int
    position: int  # 0-based index in the session
    ts: datetime
    role: str = "user"  # how the product is sent it: LoCoMo's two humans are both "user"

    @property
    def content(self) -> str:
        """The turn as said, a shared photo's caption included."""
        if self.caption:
            return f"{self.text} [shares a photo: {self.caption}]"
        return self.text


@dataclass(frozen=True)
class Session:
    number: int
    date_text: str  # as LoCoMo writes it: "1:56 pm on 8 May, 2023"
    start: datetime
    turns: tuple[Turn, ...]

    @property
    def end(self) -> datetime:
        return self.turns[-1].ts if self.turns else self.start


@dataclass(frozen=True)
class Question:
    qid: str  # "<sample_id>#<index in qa>"
    sample_id: str
    text: str
    answer: str
    category: int
    evidence: tuple[str, ...]  # resolvable dia_ids only, deduplicated, in order
    ability: str = ""  # BEAM's ability; LoCoMo questions are grouped by category
    older: tuple[str, ...] = ()  # BEAM updates/contradictions: the superseded statement's ids
    newer: tuple[str, ...] = ()  # … and the statement that should win

    @property
    def group(self) -> str:
        return self.ability or {**CATEGORIES, **ADVERSARIAL}[self.category]


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    speakers: tuple[str, str]
    sessions: tuple[Session, ...]
    questions: tuple[Question, ...]

    @property
    def turns(self) -> list[Turn]:
        return [t for s in self.sessions for t in s.turns]

    @property
    def end(self) -> datetime:
        return max(s.end for s in self.sessions)


def session_of(dia_id: str) -> str:
    """The session a turn id belongs to: ``"D3:5"`` → ``"D3"``."""
    return dia_id.split(":", 1)[0]


def indexed_text(turn: Turn, session: Session) -> str:
    """How the baselines index a turn: ``[session date] speaker: text [shares a photo: …]``."""
    return f"[{session.date_text}] {turn.speaker}: {turn.content}"


def parse_date(text: str) -> datetime:
    """``'1:56 pm on 8 May, 2023'`` → an aware UTC datetime."""
    match = _DATE.match(text)
    if not match:
        raise ValueError(f"unrecognised LoCoMo date {text!r}")
    hour, minute, half, day, month, year = match.groups()
    hour = int(hour) % 12 + (12 if half.lower() == "pm" else 0)
    month_no = datetime.strptime(month[:3].title(), "%b").month
    return datetime(int(year), month_no, int(day), hour, int(minute), tzinfo=UTC)


def load(path: Path | str | None = None) -> list[Conversation]:
    path = Path(path or os.environ.get("TWIN_LOCOMO") or DEFAULT_PATH)
    raw = json.loads(path.read_text())
    return [_conversation(item) for item in raw]


def _conversation(item: dict) -> Conversation:
    conv = item["conversation"]
    numbers = sorted(
        int(m.group(1)) for key in conv if (m := re.fullmatch(r"session_(\d+)", key)) and conv[key]
    )
    sessions = []
    for n in numbers:
        date_text = conv[f"session_{n}_date_time"]
        start = parse_date(date_text)
        turns = tuple(
            Turn(
                dia_id=t["dia_id"],
                speaker=t["speaker"],
                text=t["text"],
                caption=t.get("blip_caption") or None,
                session=n,
                position=i,
                ts=start + i * TURN_SPACING,
            )
            for i, t in enumerate(conv[f"session_{n}"])
        )
        sessions.append(Session(n, date_text, start, turns))
    known = {t.dia_id for s in sessions for t in s.turns}
    questions = []
    for index, qa in enumerate(item["qa"]):
        evidence = tuple(
            dict.fromkeys(e for e in _evidence_ids(qa.get("evidence") or []) if e in known)
        )
        questions.append(
            Question(
                qid=f"{item['sample_id']}#{index}",
                sample_id=item["sample_id"],
                text=qa["question"],
                answer=str(qa.get("answer", qa.get("adversarial_answer", ""))),
                category=int(qa["category"]),
                evidence=evidence,
            )
        )
    return Conversation(
        item["sample_id"], (conv["speaker_a"], conv["speaker_b"]), tuple(sessions), tuple(questions)
    )


def _evidence_ids(values: list[str]) -> list[str]:
    """Evidence entries are usually "D1:3"; a few hold several ids ("D8:6; D9:17")."""
    out = []
    for value in values:
        out.extend(re.findall(r"D\d+:\d+", str(value)))
    return out


def scored_questions(conversation: Conversation) -> list[Question]:
    """The questions recall is measured on: LoCoMo's categories 1-4 (and 5 when
    :func:`score_adversarial` was called; every BEAM ability) with at least one evidence turn."""
    return [q for q in conversation.questions if (q.ability or q.category in SCORED) and q.evidence]


def score_adversarial() -> None:
    """Score LoCoMo's category 5 too (the run's questions; its tables get an adversarial
    column)."""
    SCORED.update(ADVERSARIAL)
