"""Issue 27's figures from the replay test's own run, no ``twin up`` needed.

``uv run python -m bench.model_loop.figures`` runs ``pytest tests/model_loop`` (with
``TWIN_TEST_REDIS_URL`` as you set it) with ``TWIN_MODEL_LOOP_OUT`` pointing at
``bench/out/model_loop/replays``; the test's conftest writes each replay there. Then it prints,
tuned vs held-out and careful vs sloppy: turns lost, fair facts dropped (a careful model's
false drops), invented facts kept — and of those kept, how many only *lowered* (kept unsure:
confidence ≤ 0.5, out of FOUNDATION, with a ``fact_unsure`` warning) — and each dropped or
kept fact by name. ``--no-run`` reads the last run's files again; ``--write`` puts the table
into bench/RESULTS.md (section ``model-loop-figures``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.common import OUT, machine, machine_line, table, write_section
from bench.model_loop.replay import (
    FIXTURES,
    STYLES,
    Replay,
    TurnResult,
    conversations,
    plan_facts,
)

REPLAYS = OUT / "model_loop" / "replays"


def run_tests(folder: Path) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.json"):
        old.unlink()
    env = {**os.environ, "TWIN_MODEL_LOOP_OUT": str(folder)}
    command = ["nice", "-n", "10", sys.executable, "-m", "pytest", "-q", "tests/model_loop"]
    return subprocess.run(command, env=env, cwd=FIXTURES.parents[2], check=False).returncode


def load(folder: Path) -> list[Replay]:
    runs = []
    for path in sorted(folder.glob("*.json")):
        data: dict[str, Any] = json.loads(path.read_text())
        turns = [TurnResult(**t) for t in data.pop("turns")]
        runs.append(Replay(**data, turns=turns))
    return runs


def lowered(run: Replay, label: str) -> list[str]:
    """The labelled facts of ``run`` the commit kept only lowered (a ``fact_unsure`` warning
    names their predicate and value)."""
    conv = next(c for c in conversations() if c["id"] == run.conversation)
    by_index = {t["i"]: t["answers"].get(run.style, {"raw": ""}) for t in conv["turns"]}
    kept = {"fair": "fair_dropped", "invented": "invented_kept"}[label]
    out = []
    for turn in run.turns:
        unsure = [w for w in turn.warnings if w.startswith("fact_unsure")]
        names = getattr(turn, kept)
        facts = _facts(by_index[turn.index]["raw"])
        for fact, lab in zip(facts, by_index[turn.index].get("labels", []), strict=False):
            name = f"{fact.get('predicate')}: {fact.get('text', '')[:80]}"
            if lab != label or (name in names) == (label == "fair") or turn.next != "model":
                continue
            value = str(fact.get("value") or fact.get("object") or "")
            if any(str(fact.get("predicate")) in w and value[:30] in w for w in unsure):
                out.append(f"{run.conversation}/{run.style} #{turn.index}: {name}")
    return out


def _facts(raw: str) -> list[dict[str, Any]]:
    return plan_facts(raw) or []


def _pct(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f} %)" if whole else "0/0"


def rows(runs: list[Replay]) -> list[list[object]]:
    out: list[list[object]] = []
    styles = [*STYLES, *sorted({r.style for r in runs} - set(STYLES))]
    for split in ("tuned", "held-out"):
        for style in styles:
            chosen = [r for r in runs if r.style == style and r.held_out == (split == "held-out")]
            if not chosen:  # a style recorded for one split only (v3: held out)
                continue
            n = {
                c: sum(r.count(c) for r in chosen)
                for c in ("lost", "refused", "fair", "fair_dropped", "invented", "invented_kept")
            }
            low_fair = sum(len(lowered(r, "fair")) for r in chosen)
            low_inv = sum(len(lowered(r, "invented")) for r in chosen)
            out.append(
                [
                    split,
                    style,
                    sum(len(r.turns) for r in chosen),
                    n["lost"],
                    _pct(n["fair_dropped"], n["fair"]),
                    low_fair,
                    _pct(n["invented_kept"], n["invented"]),
                    _pct(n["invented_kept"] - low_inv, n["invented"]),
                ]
            )
    return out


HEADER = [
    "split",
    "style",
    "turns",
    "turns lost",
    "fair dropped",
    "fair kept lowered",
    "invented kept (any)",
    "invented kept firm",
]


def report(runs: list[Replay]) -> str:
    lines = [table(HEADER, rows(runs)), ""]
    for r in sorted(runs, key=lambda r: (r.held_out, r.conversation, r.style)):
        tag = "held-out" if r.held_out else "tuned"
        lines += [f"  lost          {r.conversation}/{r.style} #{t.index}: {t.detail}"
                  for t in r.turns if t.lost]  # fmt: skip
        for t in r.turns:
            lines += [f"  fair dropped  [{tag}] {r.conversation}/{r.style} #{t.index}: {n}"
                      for n in t.fair_dropped]  # fmt: skip
            lines += [f"  invented kept [{tag}] {r.conversation}/{r.style} #{t.index}: {n}"
                      for n in t.invented_kept]  # fmt: skip
        lines += [f"  fair lowered  [{tag}] {n}" for n in lowered(r, "fair")]
        lines += [f"  invented lowered [{tag}] {n}" for n in lowered(r, "invented")]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-run", action="store_true", help="read the last run's files")
    parser.add_argument("--out", type=Path, default=REPLAYS)
    parser.add_argument("--write", action="store_true", help="write bench/RESULTS.md")
    args = parser.parse_args()
    if not args.no_run:
        run_tests(args.out)
    runs = load(args.out)
    print(report(runs))
    if args.write:
        write_section(
            "model-loop-figures",
            "## Model in the loop, from the replay test (`bench/model_loop/figures.py`)\n\n"
            f"{machine_line(machine())}\n\n"
            "`uv run python -m bench.model_loop.figures --write`: the recorded answers replayed "
            "in-process by `tests/model_loop` (no `twin up`). *Fair kept lowered*: a careful "
            "model's fair fact stored unsure (confidence ≤ 0.5, out of FOUNDATION). *Invented "
            "kept firm*: an invention stored at the model's confidence. The held-out split was "
            "never tuned on.\n\n"
            f"{table(HEADER, rows(runs))}\n",
        )


if __name__ == "__main__":
    main()
