"""The soak's section of bench/RESULTS.md: what was served, what failed and how, latency per
minute, the server's memory over time, the faults, and the consistency check."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from typing import Any

from bench.common import machine_line, percentile, table
from bench.soak.faults import Injected
from bench.soak.flow import COMMIT_LATER_S
from bench.soak.workload import Ledger


def _ms(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:.1f}"


def _rss_at(rss: list[tuple[float, float]], t: float) -> float:
    before = [m for s, m in rss if s <= t]
    return before[-1] if before else math.nan


def render(
    args,
    info: dict[str, str],
    ledger: Ledger,
    rss: list[tuple[float, float]],
    faults: list[Injected],
    consistency: dict[str, Any],
    server_alive: bool,
) -> str:
    records = ledger.records
    ok = [r for r in records if r.outcome == "ok"]
    errors = Counter((r.route, r.outcome) for r in records if r.outcome != "ok")
    minutes = math.ceil(args.minutes)
    by_minute: dict[int, list] = defaultdict(list)
    for r in records:
        by_minute[min(int(r.t // 60), minutes - 1)].append(r)
    turns_by_minute: dict[int, list[float]] = defaultdict(list)
    for t, ms in ledger.turns_ms:
        turns_by_minute[min(int(t // 60), minutes - 1)].append(ms)
    faults_by_minute: dict[int, list[str]] = defaultdict(list)
    for f in faults:
        faults_by_minute[int(f.t // 60)].append(f"{f.kind} @{f.t:.0f}s")

    lines = [
        f"## Soak — {args.minutes:g} min at {args.rate:g} turns/s with faults",
        "",
        machine_line(info),
        "",
        f"Command: `uv run python -m bench.soak --minutes {args.minutes:g} --rate {args.rate:g}"
        f" --fault-every {args.fault_every:g}` (`twin up`, one process, offline engines, MiniLM;"
        f" {args.users} users; a fault every {args.fault_every:g} s, in turn: "
        f"{', '.join(args.faults)} — Redis is the soak's own, killed and down "
        f"{args.fault_down:g} s; a stall holds every byte of the server's Postgres link back "
        f"0.5 s for {args.fault_down:g} s; a server restart is SIGTERM + `twin up` again; "
        "n8n-style retries: 3 tries, 1 s apart).",
        "",
        f"- **Served**: {len(ok):,} requests answered 200 of {len(records):,} sent "
        f"({len(records) / (args.minutes * 60):.1f} req/s); {len(records) - len(ok):,} error "
        f"answers (retries included).",
        f"- **Turns**: {consistency['started_turns']:,} started, "
        f"{consistency['persisted_turns']:,} persisted (started − persisted = "
        f"{consistency['started_turns'] - consistency['persisted_turns']}), "
        f"{len(ledger.acked):,} acknowledged (commit 200); as the shipped flow does, "
        f"{ledger.degraded} replied degraded (a memory read failed its 3 tries: "
        f"{_reads_failed(ledger)}) and still committed, {ledger.later} went to commit-later "
        f"(every {COMMIT_LATER_S:g} s), {ledger.lost} lost there; shed at the client (over "
        f"{args.max_in_flight} in flight): {ledger.shed}.",
        f"- **Facts**: {consistency['facts_active']:,} ACTIVE facts of grounded plans "
        f"({consistency['facts']:,} versions in all), {consistency['todos']:,} todos; written "
        f"twice: {consistency['facts_twice']} facts, {consistency['todos_twice']} pending "
        f"todos, {consistency['user_messages_twice']} user messages; people living in two "
        f"cities at once: {consistency['two_homes_at_once']}.",
        f"- **Commit warnings** (turn saved, a side effect deferred): "
        f"{dict(ledger.warnings) or 'none'}.",
        f"- **Server**: {'alive at the end' if server_alive else 'NOT alive at the end'}; "
        f"RSS {_ms(rss[0][1])} MiB after start, {_ms(max(m for _, m in rss))} MiB max, "
        f"{_ms(rss[-1][1])} MiB at the end "
        f"({_growth(rss, args.minutes)}; "
        f"{_per_row(rss, consistency)}).",
        f"- **Consistency**: {'OK' if consistency['ok'] else 'FAILED'} — "
        f"{consistency['acked_turns']:,} acknowledged turns, {consistency['acked_missing']} "
        f"missing from the message log, {consistency['acked_not_exactly_once']} not exactly "
        f"once, {consistency['logged_more_than_once']} sent turns logged twice, "
        f"{consistency['unacked_but_logged']} unacknowledged turns logged (their answer was "
        f"lost, a retry would replay it); episodes over one range twice: "
        f"{consistency['episodes_twice']}; checkpoints past the end: "
        f"{consistency['checkpoint_past_end']}.",
        f"- **After the final sweeps**: {consistency['messages']:,} messages, "
        f"{consistency['facts']:,} facts, {consistency['episodes']:,} episodes; unindexed: "
        f"{consistency['messages_unindexed']} messages, {consistency['facts_unindexed']} "
        f"facts, {consistency['episodes_unindexed']} episodes; "
        f"{consistency['sessions_unconsolidated']} of {consistency['sessions']} sessions "
        "still unconsolidated (quiet for less than the sweep's 30 s, or over its batch).",
        "",
        "Per minute (all requests of the minute; a turn = the five fast-brain calls, retries "
        "included):",
        "",
    ]
    rows = []
    for m in range(minutes):
        got = by_minute.get(m, [])
        lat = [r.ms for r in got]
        rows.append(
            [
                m + 1,
                len(got),
                sum(r.outcome != "ok" for r in got),
                _ms(percentile(lat, 50)),
                _ms(percentile(lat, 99)),
                _ms(percentile(turns_by_minute.get(m, []), 99)),
                _ms(_rss_at(rss, (m + 1) * 60)),
                ", ".join(faults_by_minute.get(m, [])),
            ]
        )
    lines.append(
        table(
            [
                "minute",
                "requests",
                "errors",
                "p50 ms",
                "p99 ms",
                "turn p99 ms",
                "RSS MiB",
                "faults",
            ],
            rows,
        )
    )
    lines += ["", "Per route (whole run):", ""]
    routes = sorted({r.route for r in records})
    lines.append(
        table(
            ["route", "requests", "errors", "p50 ms", "p99 ms"],
            [
                [
                    route,
                    sum(r.route == route for r in records),
                    sum(r.route == route and r.outcome != "ok" for r in records),
                    _ms(percentile([r.ms for r in records if r.route == route], 50)),
                    _ms(percentile([r.ms for r in records if r.route == route], 99)),
                ]
                for route in routes
            ],
        )
    )
    lines += ["", "Errors by kind (each try counted):", ""]
    lines.append(
        table(
            ["route", "kind", "count"],
            [[route, kind, n] for (route, kind), n in errors.most_common()],
        )
        if errors
        else "none"
    )
    return "\n".join(lines)


def _per_row(rss: list[tuple[float, float]], consistency: dict[str, Any]) -> str:
    """RSS growth per 1,000 rows the embedded index holds a point for (the index lives in the
    process: Qdrant Edge keeps appendable segments in memory)."""
    rows = consistency["messages"] + consistency["facts"] + consistency["episodes"]
    if not rows:
        return "no rows written"
    growth = rss[-1][1] - rss[0][1]
    return (
        f"{growth / rows * 1000:.1f} MiB per 1,000 indexed rows: "
        f"{consistency['messages']:,} messages, {consistency['facts']:,} fact versions, "
        f"{consistency['episodes']:,} episodes"
    )


def _reads_failed(ledger: Ledger) -> str:
    reads = {step: n for step, n in ledger.dropped.items() if step != "commit"}
    return ", ".join(f"{step} {n}" for step, n in sorted(reads.items())) or "none"


def _growth(rss: list[tuple[float, float]], minutes: float) -> str:
    """Growth after the first minute (warm-up: model, pools and caches filling)."""
    warm = [m for t, m in rss if t >= 60]
    if len(warm) < 2 or minutes <= 1:
        return "run too short for a growth figure"
    per_min = (warm[-1] - warm[0]) / max((minutes - 1), 1e-9)
    return f"{warm[-1] - warm[0]:+.0f} MiB from minute 1 to the end, {per_min:+.1f} MiB/min"
