"""LoCoMo as a person's life (``uv run python -m bench.extraction.locomo``): speaker A of each
dev conversation is the person, committed turn by turn with the session's date as "now";
speaker B's turns are the other speaker's. What the offline judge writes, in process:

- the per-turn write rate (a fact or a todo from the person's turn);
- which relation kinds the person's graph holds (home, job, relative, partner, pet, friend …),
  by predicate;
- todos and completions written;
- a hand-labelled sample of the person's facts (``data/locomo_labels.tsv``: dia_id, fact text,
  ``clean`` / ``garbled`` / ``wrong``): the share of each among the sample's labelled facts.
  ``--sample N`` prints N facts (a fixed seed) with their labels, unlabelled ones marked ``?``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from bench.extraction.corpus import DATA
from bench.extraction.judge_run import LOCOMO
from services.memory_upserter.extract.extractor import Utterance, extract

LABELS = DATA / "locomo_labels.tsv"
KINDS = {
    "home": ("LIVES_IN", "FROM", "BORN_IN", "STAYING_IN"),
    "job": ("WORKS_AT", "JOB_TITLE", "JOB_STATUS", "WORKS_IN"),
    "relative": (
        "HAS_MOTHER", "HAS_FATHER", "HAS_SISTER", "HAS_BROTHER", "HAS_SON", "HAS_DAUGHTER",
        "HAS_CHILD", "HAS_CHILDREN", "HAS_GRANDMOTHER", "HAS_GRANDFATHER", "HAS_COUSIN",
        "HAS_AUNT", "HAS_UNCLE", "HAS_NIECE", "HAS_NEPHEW", "DECEASED", "HAS_SIBLINGS",
    ),
    "partner": (
        "HAS_PARTNER", "HAS_WIFE", "HAS_HUSBAND", "HAS_SPOUSE", "HAS_BOYFRIEND",
        "HAS_GIRLFRIEND", "HAS_FIANCE", "MARRIED", "EXPECTING",
    ),
    "pet": ("HAS_PET",),
    "friend": ("HAS_FRIEND", "HAS_ROOMMATE"),
    "health": ("CONDITION", "ALLERGY", "INTOLERANCE", "DIET", "INJURY"),
}  # fmt: skip


@dataclass
class Written:
    dia_id: str
    turn: str
    text: str  # the fact's sentence
    predicate: str
    value: str = ""  # its object or value


@dataclass
class Report:
    turns: int = 0
    turns_written: int = 0
    predicates: Counter[str] = field(default_factory=Counter)
    todos: list[tuple[str, str]] = field(default_factory=list)
    completions: list[tuple[str, str]] = field(default_factory=list)
    facts: list[Written] = field(default_factory=list)

    def kinds(self) -> dict[str, int]:
        return {k: sum(self.predicates[p] for p in preds) for k, preds in KINDS.items()}


def session_time(text: str) -> datetime:
    """``1:56 pm on 8 May, 2023`` → an aware datetime."""
    return datetime.strptime(text, "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def run(path: Path = LOCOMO, side: str = "a") -> Report:
    """Speaker A (or ``side="b"``: speaker B) as the person."""
    report = Report()
    for sample in json.loads(path.read_text()):
        conv = sample["conversation"]
        person = conv[f"speaker_{side}"]
        sessions = sorted(
            (int(k.split("_")[1]), v) for k, v in conv.items() if re.fullmatch(r"session_\d+", k)
        )
        for n, turns in sessions:
            now = session_time(conv[f"session_{n}_date_time"])
            asked = None  # the other speaker's turn just before: the question it may ask
            for turn in turns:
                text = turn["text"] + (
                    f" [shares a photo: {turn['blip_caption']}]" if turn.get("blip_caption") else ""
                )
                if turn["speaker"] != person:
                    asked = turn["text"]
                    continue  # the other speaker's words are theirs, not the person's
                plan = extract([Utterance(text)], now=now, asked=asked)
                asked = None
                report.turns += 1
                report.turns_written += bool(plan.facts or plan.todos)
                for f in plan.facts:
                    report.predicates[f.predicate] += 1
                    report.facts.append(
                        Written(
                            f"{sample['sample_id']}/{turn['dia_id']}",
                            text,
                            f.text,
                            f.predicate,
                            f.object or f.value or "",
                        )
                    )
                report.todos += [
                    (f"{sample['sample_id']}/{turn['dia_id']}", t.text) for t in plan.todos
                ]
                if plan.complete_commitment or plan.done:
                    report.completions.append((turn["dia_id"], text))
    return report


def labels(path: Path = LABELS) -> dict[tuple[str, str], str]:
    if not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            dia_id, text, label = line.split("\t")
            out[(dia_id, text)] = label
    return out


def sample(report: Report, n: int, seed: int = 28) -> list[Written]:
    facts = sorted(report.facts, key=lambda w: (w.dia_id, w.text))
    return random.Random(seed).sample(facts, min(n, len(facts)))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.extraction.locomo")
    parser.add_argument("--sample", type=int, default=40)
    parser.add_argument("--show", action="store_true", help="print the sample with its turns")
    parser.add_argument("--seed", type=int, default=28, help="sample seed (28: tuned on)")
    args = parser.parse_args()
    report = run()
    print(
        f"person turns {report.turns}, with a write {report.turns_written} "
        f"({report.turns_written / report.turns:.1%}); facts {len(report.facts)}; "
        f"todos {len(report.todos)}; completions {len(report.completions)}"
    )
    print("relation kinds:", report.kinds())
    print("predicates:", dict(report.predicates.most_common()))
    known = labels()
    picked = sample(report, args.sample, args.seed)
    tally = Counter(known.get((w.dia_id, w.text), "?") for w in picked)
    print(f"sample of {len(picked)} facts: {dict(tally)}")
    for w in picked:
        label = known.get((w.dia_id, w.text), "?")
        print(f"{w.dia_id}\t{w.text}\t{label}" + (f"\t<< {w.turn[:200]}" if args.show else ""))
    for dia_id, text in report.todos:
        print(f"todo {dia_id}: {text}")
    for dia_id, text in report.completions:
        print(f"done {dia_id}: {text[:120]}")


if __name__ == "__main__":
    main()
