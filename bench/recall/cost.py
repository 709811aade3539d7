"""What a Twin Core run cost and what the product stored: the report's cost section and the
raw figures written to bench/out/recall.json."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from bench.common import percentile, table
from bench.recall.run_product import ProductRun


def ms(samples: Sequence[float]) -> str:
    if not samples:
        return "–"
    return f"{percentile(samples, 50):.1f} / {percentile(samples, 95):.1f}"


def cost_section(run: ProductRun) -> list[str]:
    s = run.stats
    per_turn = statistics.fmean(s.commit_ms) / 1000 if s.commit_ms else float("nan")
    lines = [
        "### Ingest cost and query latency (Twin Core over loopback HTTP, sequential)",
        "",
        table(
            ["what", "figure"],
            [
                ["turns / sessions ingested", f"{s.turns} / {s.sessions}"],
                ["commit (one turn), p50 / p95 ms", ms(s.commit_ms)],
                ["seconds per turn (mean commit)", f"{per_turn:.4f}"],
                ["consolidate (one session), p50 / p95 ms", ms(s.consolidate_ms)],
                [
                    "seconds per session (its commits + consolidation), mean",
                    f"{statistics.fmean(s.session_s):.2f}" if s.session_s else "–",
                ],
                ["ingest wall time, s", f"{s.wall_s:.1f}"],
                *[
                    [f"query `{variant}`: {route}, p50 / p95 ms", ms(samples)]
                    for variant, routes in run.latency.items()
                    for route, samples in routes.items()
                ],
            ],
        ),
    ]
    shape = run.shape.get("default", Counter())
    n = max(1, shape["questions"])
    kinds = ", ".join(
        f"{k.split(':', 1)[1]} {v / n:.1f}"
        for k, v in sorted(shape.items())
        if k.startswith("kind:")
    )
    facts_written = sum(v for k, v in run.store.items() if k.startswith("facts:"))
    by_kind = ", ".join(
        f"{k[6:]} {v}" for k, v in sorted(run.store.items()) if k.startswith("facts:")
    )
    share = s.turns_with_facts / max(1, s.turns)
    skipped = dict(s.skipped) or "none"
    lines += [
        "",
        "### What the product stored and returned",
        "",
        f"- Write path: {s.turns} turns → {facts_written} fact rows "
        f"({by_kind}); {s.turns_with_facts} turns ({share:.1%}) produced a fact; "
        f"plan sources {dict(s.plan_sources)}; warnings {dict(s.warnings) or 'none'}; "
        f"{run.store['entities']} entities.",
        f"- Evidence turns with at least one fact citing them: {run.evidence_with_fact} of "
        f"{run.evidence_turns} ({run.evidence_with_fact / max(1, run.evidence_turns):.1%}).",
        f"- Episodes: {s.episodes} (engines {dict(s.engines)}; skipped {skipped}); "
        f"provenance per episode: mean {statistics.fmean(run.episode_provenance or [0]):.1f} "
        f"message ids; reflection mean {statistics.fmean(run.episode_words or [0]):.0f} words.",
        f"- Per question (default limits): {shape['items'] / n:.1f} items, "
        f"{shape['tokens'] / n:.0f} tokens ({kinds}); no episode hit "
        f"{shape['no_episode'] / n:.0%}, no rag-gate fact {shape['no_fact'] / n:.0%}, "
        f"graph-hydrator found a mention {shape['mention'] / n:.0%}.",
        "- rag-gate candidates / dropped, summed over questions: "
        + ", ".join(
            f"{k} {v}"
            for k, v in sorted(shape.items())
            if k.startswith(("candidates:", "dropped:"))
        )
        + ".",
    ]
    return lines


def raw_figures(info, results, grounded_results, matched, run: ProductRun | None) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "machine": info,
        "results": results,
        "grounded": grounded_results,
        "matched": matched,
    }
    if run is not None:
        raw["latency"] = {
            v: {r: {"p50": percentile(s, 50), "p95": percentile(s, 95)} for r, s in routes.items()}
            for v, routes in run.latency.items()
        }
        raw["ingest"] = {
            "commit_ms_p50": percentile(run.stats.commit_ms, 50),
            "commit_ms_p95": percentile(run.stats.commit_ms, 95),
            "consolidate_ms_p50": percentile(run.stats.consolidate_ms, 50),
            "session_s_mean": statistics.fmean(run.stats.session_s or [0]),
        }
        raw["shape"] = {v: dict(c) for v, c in run.shape.items()}
        raw["store"] = dict(run.store)
    return raw
