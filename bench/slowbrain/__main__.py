"""``python -m bench.slowbrain``: what the slow brain's offline engine writes of LoCoMo sessions,
scored against the hand labels in ``bench/slowbrain/labels.md`` (issue 28 §5).

Each session of the split (``sessions.py``: speaker A is the person) is drafted by the offline
engine with no known entities, as a new user's first sessions are. Scored, per field:

- ``people``: precision (names labelled a person of the person's life, among those listed)
  and recall (labelled people the person named in the session, found in its list);
- Evidence: precision (lines labelled an explicit link of the person's own) and lines per
  session; PSYCHE: precision (items labelled about the person);
- one-liner: the share labelled a sentence that says what the session was about.

An output with no label is counted and listed (``--unlabelled``): label it before reading the
figure. ``--engine-root PATH`` drafts with another checkout's engine (e.g. a worktree of the
commit before), ``--split dev|held-out``. Then the worst case: the seconds one draft of a
20,000-character run-on message full of names takes (consolidation is off the turn's path, but
it holds a worker).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.slowbrain")
    parser.add_argument("--split", choices=("dev", "held-out"), default="held-out")
    parser.add_argument("--engine-root", type=Path, default=None)
    parser.add_argument("--unlabelled", action="store_true", help="list outputs with no label")
    args = parser.parse_args(argv)
    if args.engine_root is not None:
        sys.path.insert(0, str(args.engine_root.resolve()))  # before services is imported
    from bench.slowbrain.score import Labels, draft_all, score

    labels = Labels.read(HERE / "labels.md")
    drafts = draft_all(args.split)
    report = score(drafts, labels, args.split)
    print(report.text())
    print(f"worst case: a 20,000-character run-on message drafts in {_worst_case():.2f} s")
    if args.unlabelled:
        for line in report.unlabelled:
            print("UNLABELLED", line)
    return 0


def _worst_case() -> float:
    import random
    import time
    from datetime import UTC, datetime

    from services.reflection_writer import engine_offline
    from services.reflection_writer.model import Message

    words = "I met Anna and Tom at the Market because it rained so I stayed after work".split()
    pick = random.Random(1)
    text = " ".join(pick.choice(words) for _ in range(4000))[:20_000]
    at = datetime(2026, 1, 1, tzinfo=UTC)
    said = [Message("m1", 1, "user", text, at), Message("m2", 2, "assistant", "Ok.", at)]
    start = time.perf_counter()
    engine_offline.draft(said)
    return time.perf_counter() - start


if __name__ == "__main__":
    raise SystemExit(main())
