"""Precision and recall of the offline judge on both single-message corpora, dev and held-out
(``uv run python -m bench.extraction.splits``): the tidy corpus (``messages.txt``, its facts)
and the Telegram-style corpus (``telegram.txt``, its facts plus todos, forget targets and
completions). ``--misses`` prints the dev part's misses and false writes — never the held-out
part's, which is reported as totals only (it is never tuned on).
"""

from __future__ import annotations

import argparse

from bench.extraction.corpus import DATA, Tally, load_messages, ratio
from bench.extraction.judge_run import run_messages

CORPORA = (
    ("tidy", "messages.txt", False),
    ("telegram", "telegram.txt", True),
    ("probe", "telegram-probe.txt", True),  # tuned on: the precision causes, written 2026-11-27
    ("fresh", "telegram-fresh.txt", True),  # held out whole: labelled before the judge ran
    ("styled", "locomo-style.txt", True),  # tuned on: LoCoMo-style frames (styled.py), round 7
    ("answers", "answers.txt", True),  # question >> answer pairs, two in five held out (round 8)
    ("fresh2", "telegram-fresh2.txt", True),  # round 10: half held out, labelled before the judge
    ("doings", "telegram-doings.txt", True),  # what the person does and wants (round 10)
    ("people", "people.txt", True),  # people and standing facts, two in five held out (round 10)
)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.extraction.splits")
    parser.add_argument("--misses", action="store_true", help="print the dev part's errors")
    args = parser.parse_args()
    for name, file, extras in CORPORA:
        messages = load_messages(DATA / file)
        tallies, _ = run_messages(messages, plan_extras=extras)
        for part, held in (("dev", False), ("held-out", True)):
            total = Tally()
            chosen = [t for m, t in zip(messages, tallies, strict=True) if m.held_out == held]
            for t in chosen:
                total.add(t)
            print(
                f"{name:8} {part:8} messages {total.messages:3}  tp {total.tp:3} fp {total.fp:2} "
                f"fn {total.fn:2}  P {ratio(total.precision)}  R {ratio(total.recall)}  "
                f"garbled {total.garbled} ({ratio(total.garbled_share)})"
            )
            if args.misses and not held and file != "telegram-fresh.txt":
                for m, t in zip(messages, tallies, strict=True):
                    if m.held_out:
                        continue
                    for line in (*t.missed, *t.false):
                        print("   ", line)


if __name__ == "__main__":
    main()
