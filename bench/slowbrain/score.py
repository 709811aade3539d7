"""Scoring the offline engine's drafts against ``labels.md`` (see ``__main__``).

A label line is ``<field> | <where> | yes|no | <text>``: ``person | conv-41 | yes | Maria``
(a person of the person's life, for the whole conversation), ``evidence``, ``psyche`` and
``one-liner`` keyed by session (``conv-41:S3``) and the exact text the engine wrote. Lines
that do not start with one of the four fields are prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.slowbrain.sessions import Session, load

FIELDS = ("person", "evidence", "psyche", "one-liner")


@dataclass
class Labels:
    marks: dict[tuple[str, str, str], bool] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> Labels:
        labels = cls()
        for line in path.read_text().splitlines():
            parts = [p.strip() for p in line.split("|", 3)]
            if len(parts) == 4 and parts[0] in FIELDS and parts[2] in ("yes", "no"):
                labels.marks[(parts[0], parts[1], parts[3])] = parts[2] == "yes"
        return labels

    def get(self, kind: str, where: str, text: str) -> bool | None:
        return self.marks.get((kind, where, " ".join(text.split())))

    def people_of(self, conv: str) -> list[str]:
        return [t for (k, w, t), yes in self.marks.items() if k == "person" and w == conv and yes]


def draft_all(split: str) -> list[tuple[Session, Any]]:
    from services.reflection_writer import engine_offline  # the engine of --engine-root

    return [(s, engine_offline.draft(s.messages, [])) for s in load(split)]


@dataclass
class Tally:
    yes: int = 0
    no: int = 0
    missing: int = 0

    def add(self, mark: bool | None) -> None:
        if mark is None:
            self.missing += 1
        elif mark:
            self.yes += 1
        else:
            self.no += 1

    def rate(self) -> str:
        n = self.yes + self.no
        return f"{self.yes / n:.2f} ({self.yes}/{n})" if n else "– (0)"


@dataclass
class Report:
    split: str
    sessions: int
    tallies: dict[str, Tally]
    people_found: int
    people_gold: int
    unlabelled: list[str]

    def text(self) -> str:
        t = self.tallies
        evidence = t["evidence"].yes + t["evidence"].no + t["evidence"].missing
        recall = self.people_found / self.people_gold if self.people_gold else 0.0
        return "\n".join(
            [
                f"split {self.split}: {self.sessions} sessions",
                f"people precision {t['person'].rate()}, recall {recall:.2f} "
                f"({self.people_found}/{self.people_gold})",
                f"evidence precision {t['evidence'].rate()}, "
                f"{evidence / max(self.sessions, 1):.2f} lines a session",
                f"psyche precision {t['psyche'].rate()}",
                f"one-liner good {t['one-liner'].rate()}",
                f"unlabelled outputs {sum(x.missing for x in t.values())}",
            ]
        )


def score(drafts: list[tuple[Session, Any]], labels: Labels, split: str) -> Report:
    tallies = {k: Tally() for k in FIELDS}
    unlabelled: list[str] = []
    found = gold = 0

    def mark(kind: str, where: str, text: str) -> None:
        got = labels.get(kind, where, text)
        tallies[kind].add(got)
        if got is None:
            unlabelled.append(f"{kind} | {where} | ? | {' '.join(text.split())}")

    for session, draft in drafts:
        for name in draft.summary.people:
            mark("person", session.conv, name)
        for line in draft.reflection.evidence:
            mark("evidence", session.key, line.text)
        for item in draft.psyche:
            mark("psyche", session.key, item.text)
        mark("one-liner", session.key, draft.summary.one_liner)
        named = _named(session, labels.people_of(session.conv))
        gold += len(named)
        found += len(named & set(draft.summary.people))
    return Report(split, len(drafts), tallies, found, gold, unlabelled)


def _named(session: Session, people: list[str]) -> set[str]:
    """The labelled people the person names in this session (whole words, any case)."""
    said = " ".join(m.text for m in session.messages if m.role == "user")
    return {p for p in people if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", said)}
