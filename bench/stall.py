"""Stalls: does one heavy request hold the other nodes of ``twin up`` (issue 31 §1)?

    uv run python -m bench.stall                   # ~3 min
    TWIN_BENCH_SERVER_TREE=/path/to/other/checkout uv run python -m bench.stall --label before

Starts ``twin up`` (database ``twin_bench_wt3_harden_stall``, Redis db 3, ports 18301-18306)
and probes envelope-validator's ``GET /healthz`` — another node on the same event loop — one
request at a time, first idle, then while memory-upserter serves, at a fixed concurrency:

- ``light``: ordinary turns (a message, a reply, a 3-fact plan), a new turn per request;
- ``judge``: the offline judge's worst allowed input, five messages of 19,800 characters of
  repetitive text that its rules match, no plan;
- ``grounding``: a body near the 1 MiB limit, 45 messages of 20,000 characters and a plan at
  every cap (50 facts, each grounded in all that text; 50 entities).

For each: the probe's p50 and worst latency and the worst as a ratio to the idle p50; the
commits' throughput and latency; and the CPU seconds of the ``twin`` process (every thread,
the embedding hop after the reply included) per commit. Writes the ``stall`` section of
bench/RESULTS.md (``--label`` names the run, so before/after sit side by side).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from bench.common import OUT, Stack, cpu_seconds, machine, machine_line, percentile, table
from bench.common import write_section as _write_section

PORT_OFFSET = 10_200  # 8101.. → 18301..18306: this bench's own ports
T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def light(i: int) -> dict[str, Any]:
    return {
        "messages": [
            {"role": "user", "text": f"My sister Marta moved to Porto, she works at clinic {i}."},
            {"role": "assistant", "text": "Noted."},
        ],
        "plan": {
            "entities": [{"name": "Marta"}],
            "facts": [
                {"memory_type": "PEOPLE", "subject": "user", "predicate": "HAS_SISTER",
                 "object": "Marta", "text": "User's sister is Marta"},
                {"memory_type": "PEOPLE", "subject": "Marta", "predicate": "LIVES_IN",
                 "value": "Porto", "text": "Marta lives in Porto"},
                {"memory_type": "PEOPLE", "subject": "Marta", "predicate": "WORKS_AT",
                 "value": f"clinic {i}", "text": f"Marta works at clinic {i}"},
            ],
        },
    }  # fmt: skip


def judge(_: int) -> dict[str, Any]:
    sentence = "I moved from Lisbon to Porto and my sister Marta may have moved too. "
    text = (sentence * (19_800 // len(sentence) + 1))[:19_800]
    return {"messages": [{"role": "user", "text": text} for _ in range(5)]}


def grounding(_: int) -> dict[str, Any]:
    words = "Marta my sister lives in Lisbon and works at the hospital as a nurse and she "
    text = (words * (20_000 // len(words) + 1))[:20_000]
    return {
        "messages": [{"role": "user", "text": text} for _ in range(45)],
        "plan": {
            "entities": [{"name": f"Person {i}"} for i in range(50)],
            "facts": [
                {"memory_type": "PEOPLE", "subject": f"Person {i}", "predicate": "LIVES_IN",
                 "value": f"Lisbon quarter {i}", "text": f"Person {i} lives in Lisbon quarter {i}"}
                for i in range(50)
            ],
        },
    }  # fmt: skip


KINDS = {"light": light, "judge": judge, "grounding": grounding}


@dataclass
class Run:
    kind: str
    concurrency: int
    probe_ms: list[float] = field(default_factory=list)
    commit_ms: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    seconds: float = 0.0
    cpu_s: float = 0.0


async def probe(client: httpx.AsyncClient, url: str, until: asyncio.Event) -> list[float]:
    """``/healthz`` one at a time, as fast as it answers, until ``until`` is set."""
    out = []
    while not until.is_set():
        started = time.perf_counter()
        await client.get(url)
        out.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(0.01)
    return out


async def commits(
    client: httpx.AsyncClient,
    url: str,
    run: Run,
    make: Callable[[int], dict[str, Any]],
    stop_at: float,
    counter: list[int],
) -> None:
    user = f"stall-{run.kind}-{uuid.uuid4().hex[:6]}"
    while time.monotonic() < stop_at:
        counter[0] += 1
        n = counter[0]
        body = {
            "user_id": user,
            "agent_id": "deanna",
            "chat_id": f"tg:{n}",
            "turn_id": f"t{n}",
            "now": (T0 + timedelta(minutes=n)).isoformat(),
            **make(n),
        }
        started = time.perf_counter()
        answer = await client.post(url, json=body)
        run.commit_ms.append((time.perf_counter() - started) * 1000)
        run.statuses[answer.status_code] = run.statuses.get(answer.status_code, 0) + 1


async def measure(stack: Stack, kind: str, concurrency: int, seconds: float) -> Run:
    run = Run(kind, concurrency)
    done = asyncio.Event()
    limits = httpx.Limits(max_connections=concurrency + 2)
    async with httpx.AsyncClient(timeout=300, limits=limits) as client:
        health = stack.url("envelope-validator") + "/healthz"
        commit = stack.url("memory-upserter") + "/v1/commit"
        probing = asyncio.create_task(probe(client, health, done))
        cpu0, started = cpu_seconds(stack.pid), time.monotonic()
        counter = [0]
        await asyncio.gather(
            *(
                commits(client, commit, run, KINDS[kind], started + seconds, counter)
                for _ in range(concurrency)
            )
        )
        run.seconds = time.monotonic() - started
        await asyncio.sleep(1.0)  # the after-reply embedding of the last commits
        run.cpu_s = cpu_seconds(stack.pid) - cpu0
        done.set()
        run.probe_ms = await probing
    return run


async def idle(stack: Stack, seconds: float) -> list[float]:
    done = asyncio.Event()
    async with httpx.AsyncClient(timeout=30) as client:
        probing = asyncio.create_task(
            probe(client, stack.url("envelope-validator") + "/healthz", done)
        )
        await asyncio.sleep(seconds)
        done.set()
        return await probing


def rows(label: str, idle_ms: list[float], runs: list[Run]) -> list[list[object]]:
    base = percentile(idle_ms, 50)
    out: list[list[object]] = [
        [label, "idle", "–", f"{base:.1f}", f"{max(idle_ms):.0f}", "1", "–", "–", "–", "–"]
    ]
    for r in runs:
        n = len(r.commit_ms)
        out.append(
            [
                label,
                r.kind,
                r.concurrency,
                f"{percentile(r.probe_ms, 50):.1f}",
                f"{max(r.probe_ms):.0f}",
                f"{max(r.probe_ms) / base:.0f}",
                f"{n / r.seconds:.2f}",
                f"{percentile(r.commit_ms, 50):.0f}",
                f"{r.cpu_s / max(n, 1):.2f}",
                " ".join(f"{k}×{v}" for k, v in sorted(r.statuses.items())),
            ]
        )
    return out


HEADER = [
    "run", "load", "conc.", "/healthz p50 ms", "/healthz worst ms", "worst ÷ idle p50",
    "commits/s", "commit p50 ms", "CPU s / commit", "statuses",
]  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.stall", description=__doc__)
    parser.add_argument("--label", default="after")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--kinds", default="light,judge,grounding")
    args = parser.parse_args(argv)
    info = machine()
    plan = {"light": 8, "judge": 2, "grounding": 2}
    with Stack("twin_bench_wt3_harden_stall", redis_db=3, port_offset=PORT_OFFSET) as stack:
        idle_ms = asyncio.run(idle(stack, 5.0))
        runs = [
            asyncio.run(measure(stack, kind, plan[kind], args.seconds))
            for kind in args.kinds.split(",")
        ]
    print(table(HEADER, rows(args.label, idle_ms, runs)))
    OUT.mkdir(parents=True, exist_ok=True)
    raw = {"machine": info, "idle_ms": idle_ms, "runs": [r.__dict__ for r in runs]}
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", args.label).strip("-")
    (OUT / f"stall-{slug}.json").write_text(json.dumps(raw, default=str))
    _merge_section(args.label, machine_line(info), rows(args.label, idle_ms, runs))
    return 0


def _merge_section(label: str, machine_text: str, new_rows: list[list[object]]) -> None:
    """Keep the other labels' rows (bench/out/stall-rows.json), replace this label's."""
    store = OUT / "stall-rows.json"
    saved = json.loads(store.read_text()) if store.exists() else {}
    saved[label] = {"machine": machine_text, "rows": new_rows}
    store.write_text(json.dumps(saved))
    body = ["## Stalls: another node's `/healthz` while heavy commits run (`bench/stall.py`)", ""]
    body += [f"- `{name}`: {entry['machine']}" for name, entry in saved.items()]
    body += [
        "",
        "`uv run python -m bench.stall` (before: `TWIN_BENCH_SERVER_TREE=<main checkout> ... "
        "--label before`). CPU is the `twin` process's, every thread, per commit (the "
        "embedding after the reply included; Postgres's own is not).",
        "",
        table(HEADER, [row for entry in saved.values() for row in entry["rows"]]),
    ]
    _write_section("stall", "\n".join(body))


if __name__ == "__main__":
    raise SystemExit(main())
