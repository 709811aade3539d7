"""LoCoMo in-scope coverage, old matcher → fair matcher, by split and by the observation's kind
(``uv run python -m bench.extraction.coverage``). Scope is :mod:`scope`'s classifier, unchanged;
the matcher is :mod:`overlap` (strict and partial) beside the old 4-letter one. The report split
is printed as aggregates only (counts per kind), never its sentences.

``--misses`` prints the tuning split's in-scope misses (speakers A and B) with what the judge
wrote from their evidence turns: material to tune on. It refuses the report split. ``--conv``
narrows the misses to one tuning conversation, for leave-one-conversation-out tuning: develop on
one conversation's misses, measure on the other's totals (printed per conversation, both
speakers) before reading them.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from bench.extraction import locomo, overlap
from bench.extraction.judge_run import LOCOMO, content
from bench.extraction.scope import REPORT, TUNE, observations
from services.memory_upserter.commit.read import fold

# An observation's kind, the first that matches, on its own words (as scope's classifier).
KINDS = (
    ("home", r"\b(?:lives?|living|moved|moving|home\s*(?:town|country)|grew\s+up|from\s+[A-Z])"),
    ("pet", r"\b(?:pets?|dogs?|cats?|pupp\w+|kitten|guinea|turtles?|horses?|snakes?)\b"),
    ("family", r"\b(?:mom|mother|dad|father|parents?|husband|wife|partner|spouse|married|"
     r"pregnan\w*|(?<!\ba\s)kid\b|kids|(?<!\ba\s)child\b|children|sons?|daughters?|sisters?|"
     r"brothers?|siblings?|grand\w+|cousins?|aunt|uncle|niece|nephew|family)\b"),
    ("friend", r"\b(?:friends?|roommates?|mentee|buddy|girlfriend|boyfriend)\b"),
    ("job", r"\b(?:works?|working|job|career|business|company|studio|boss|colleague|promot\w*|"
     r"employ\w*|profession|teacher|engineer|nurse|chef|banker|store|shop|clients?)\b"),
    ("study", r"\b(?:school|college|degree|stud(?:y|ies|ying)|class(?:es)?|course|learning|"
     r"university|exam)\b"),
    ("health", r"\b(?:allerg\w*|diet|vegetarian|vegan|health|injur\w*|sick|ill\w*|gym|fitness|"
     r"workout|weight)\b"),
    ("goal", r"\b(?:plans?|planning|wants?\s+to|aims?|goals?|aspires?|dreams?|hopes?|"
     r"considering|looking\s+into|researching|organizing)\b"),
    ("like", r"\b(?:loves?|enjoys?|likes?|favou?rite|fan\s+of|passionate|into)\b"),
    ("activity", r"\b(?:\w+ing|plays?|paints?|writes|reads|cooks?|volunteers?|collects?|owns?|"
     r"hobb\w+|started|since|used\s+to|regularly|often|every)\b"),
)  # fmt: skip
_KINDS = tuple((name, re.compile(p, re.IGNORECASE)) for name, p in KINDS)


def kind(observation: str) -> str:
    return next((name for name, p in _KINDS if p.search(observation)), "other")


@dataclass(frozen=True)
class Judged:
    conv: str
    text: str
    kind: str
    old: bool  # the old matcher (4+ letters, 6-letter prefixes)
    strict: bool
    partial: bool
    writes: tuple[str, ...]  # what the judge wrote from the evidence turns


def judged(path: Path = LOCOMO, side: str = "a") -> list[Judged]:
    """Every in-scope observation of one side, with the old and the fair match."""
    report = locomo.run(path, side)
    said: dict[str, list[str]] = {}
    for w in report.facts:
        said.setdefault(w.dia_id, []).append(f"{w.text} {w.value}")
    for dia_id, todo in report.todos:  # a plan is memory too (a todo)
        said.setdefault(dia_id, []).append(todo)
    out = []
    for conv, person, text, ids, scoped in observations(path, side):
        if not scoped:
            continue
        writes = tuple(s for i in ids for s in said.get(f"{conv}/{i}", []))
        old_want = content(text, {fold(person)})
        old = any(old_want & content(s, set()) for s in writes)
        want = overlap.stems(text, [person])
        strict, partial = overlap.shared(want, set().union(*(overlap.stems(s) for s in writes)))
        out.append(Judged(conv, text, kind(text), old, strict, partial, writes))
    return out


def line(label: str, rows: list[Judged]) -> str:
    n = len(rows) or 1
    old, strict, partial = (sum(getattr(r, a) for r in rows) for a in ("old", "strict", "partial"))
    wrote = sum(bool(r.writes) for r in rows)
    return (
        f"{label:28} n {len(rows):3}  old {old:3} ({old / n:6.1%})  "
        f"strict {strict:3} ({strict / n:6.1%})  partial {partial:3} ({partial / n:6.1%})  "
        f"any write {wrote:3}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.extraction.coverage")
    parser.add_argument("--misses", action="store_true", help="the tuning split's misses")
    parser.add_argument("--conv", choices=TUNE, help="only this tuning conversation's misses")
    args = parser.parse_args()
    sides = {"a": judged(side="a"), "b": judged(side="b")}
    parts = (("tune A", TUNE, "a"), ("tune B", TUNE, "b"), ("report A", REPORT, "a"))
    for label, convs, side in parts:
        rows = [r for r in sides[side] if r.conv in convs]
        print(line(f"{label} ({', '.join(convs)})", rows))
        for name, _ in Counter(r.kind for r in rows).most_common():
            print(line(f"  {name}", [r for r in rows if r.kind == name]))
    for conv in TUNE:  # leave-one-conversation-out: each tuning conversation, both speakers
        print(line(f"{conv} A+B", [r for s in sides.values() for r in s if r.conv == conv]))
    if args.misses:
        for side in ("a", "b"):
            for r in sides[side]:
                if r.conv in ((args.conv,) if args.conv else TUNE) and not r.strict:
                    print(
                        f"{side} {r.conv} [{r.kind}] {'partial' if r.partial else 'miss'}: "
                        f"{r.text}\n      wrote: {' | '.join(r.writes) or '-'}"
                    )


if __name__ == "__main__":
    main()
