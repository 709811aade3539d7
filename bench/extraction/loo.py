"""Leave one conversation out on the LoCoMo tuning split (``python -m bench.extraction.loo``):
the coverage of each tuning conversation alone, per speaker and per observation kind, so rules
developed on one conversation's misses (``--misses conv-26``) are checked on the other before
its misses are read. The report split is printed as totals only, as :mod:`coverage` does.
``--kinds`` limits the misses to some kinds (``--kinds home,job,family``).
"""

from __future__ import annotations

import argparse
from collections import Counter

from bench.extraction.coverage import Judged, judged, line
from bench.extraction.scope import REPORT, TUNE


def table(sides: dict[str, list[Judged]], conv: str) -> list[str]:
    out = []
    for side, rows in sides.items():
        mine = [r for r in rows if r.conv == conv]
        out.append(line(f"{conv} {side.upper()}", mine))
        for name, _ in Counter(r.kind for r in mine).most_common():
            out.append(line(f"  {name}", [r for r in mine if r.kind == name]))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.extraction.loo")
    parser.add_argument("--misses", choices=TUNE, help="one tuning conversation's misses")
    parser.add_argument("--kinds", default="", help="comma-separated observation kinds")
    args = parser.parse_args()
    sides = {"a": judged(side="a"), "b": judged(side="b")}
    for conv in TUNE:
        print("\n".join(table(sides, conv)))
    report = [r for r in sides["a"] if r.conv in REPORT]
    print(line(f"report A ({', '.join(REPORT)})", report))
    for name, _ in Counter(r.kind for r in report).most_common():
        print(line(f"  {name}", [r for r in report if r.kind == name]))
    kinds = {k for k in args.kinds.split(",") if k}
    for side, rows in sides.items():
        for r in rows:
            if r.conv == args.misses and not r.strict and (not kinds or r.kind in kinds):
                print(
                    f"{side} {r.conv} [{r.kind}] {'partial' if r.partial else 'miss'}: "
                    f"{r.text}\n      wrote: {' | '.join(r.writes) or '-'}"
                )


if __name__ == "__main__":
    main()
