"""Twin Core's figures per split of the dev data, from the per-question items a run wrote
(``bench/out/recall-items.json`` or ``recall-beam-items.json``): turn R@5/R@10, session R@10,
temporal R@10 (LoCoMo) and, for BEAM, how the newer and older statement of an update rank.

    uv run python -m bench.recall.splits bench/out/recall-items.json [variant]

The splits are the ones issue 33's weights were fitted on (A) and reported on (B): LoCoMo
conv-26 + conv-30 / conv-41 + conv-42, BEAM chats 1-5 / 6-10.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from bench.recall import beam
from bench.recall.data import CATEGORIES, session_of

ADVERSARIAL = 5  # LoCoMo's category 5, apart from the figures of categories 1-4

SPLITS = {
    "LoCoMo A (conv-26, conv-30)": ("conv-26", "conv-30"),
    "LoCoMo B (conv-41, conv-42)": ("conv-41", "conv-42"),
    "BEAM A (chats 1-5)": tuple(f"beam-{i}" for i in range(1, 6)),
    "BEAM B (chats 6-10)": tuple(f"beam-{i}" for i in range(6, 11)),
}


def turn_recall(items: list, evidence: list[str], k: int) -> float:
    found = {t for item in items[:k] for t in item[2]}
    return len(found & set(evidence)) / len(evidence)


def session_recall(items: list, evidence: list[str], k: int = 10) -> float:
    order: list[str] = []
    for item in items:
        for session in (session_of(t) for t in sorted(item[2])):
            if session not in order:
                order.append(session)
    wanted = {session_of(e) for e in evidence}
    return len(wanted & set(order[:k])) / len(wanted)


def first(items: list, ids: tuple[str, ...]) -> int | None:
    return next((i for i, item in enumerate(items) if set(item[2]) & set(ids)), None)


def update_outcome(items: list, older: tuple[str, ...], newer: tuple[str, ...]) -> str:
    n, o = first(items[:10], newer), first(items[:10], older)
    if n is None and o is None:
        return "neither"
    if o is None or n is None:
        return "only newer" if o is None else "only older"
    return "same item" if n == o else "newer first" if n < o else "older first"


def main(path: str, variant: str = "default") -> None:
    asked = json.loads(Path(path).read_text())
    key = f"{variant}/retrieval"
    questions = {q.qid: q for c in beam.load(list(range(1, 11))) for q in c.questions}
    for name, samples in SPLITS.items():
        mine = [v for qid, v in asked.items() if qid.split("#")[0] in samples and v["evidence"]]
        rows = [v for v in mine if v["category"] != ADVERSARIAL]
        if not rows:
            continue
        mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")  # noqa: E731
        adversarial = [turn_recall(v[key], v["evidence"], 10) for v in mine if v not in rows]
        r5 = mean([turn_recall(v[key], v["evidence"], 5) for v in rows])
        r10 = mean([turn_recall(v[key], v["evidence"], 10) for v in rows])
        s10 = mean([session_recall(v[key], v["evidence"]) for v in rows])
        temporal = mean(
            [turn_recall(v[key], v["evidence"], 10) for v in rows if v["category"] == 2]
        )
        line = f"{name}: {len(rows)} questions; turn R@5 {r5:.3f}, R@10 {r10:.3f}; "
        line += f"session R@10 {s10:.3f}"
        line += f"; temporal R@10 {temporal:.3f}" if temporal == temporal else ""
        print(line + (f"; adversarial R@10 {mean(adversarial):.3f}" if adversarial else ""))
        per = {c: [v for v in rows if v["category"] == c] for c in CATEGORIES}
        turn10 = {c: mean([turn_recall(v[key], v["evidence"], 10) for v in per[c]]) for c in per}
        session10 = {c: mean([session_recall(v[key], v["evidence"]) for v in per[c]]) for c in per}
        if any(per.values()):
            print(
                "  per category, turn R@10 / session R@10: "
                + "; ".join(
                    f"{name} ({len(per[c])}) {turn10[c]:.3f} / {session10[c]:.3f}"
                    for c, name in CATEGORIES.items()
                    if per[c]
                )
            )
        updates = Counter(
            update_outcome(v[key], questions[qid].older, questions[qid].newer)
            for qid, v in asked.items()
            if qid in questions and qid.split("#")[0] in samples and questions[qid].older
        )
        if updates:
            print(f"  updates (first 10 items): {dict(updates)}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
