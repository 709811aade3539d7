"""A Telegram turn's latency through a real n8n on its defaults, with the stub model.

    uv run python -m tests.e2e.measure [--turns 30] [--queue] [--both]

Builds the E2E stack (``tests/e2e/conftest.py``'s ``open_stack``), warms it up, then sends
``--turns`` Telegram messages one after another to the first persona's bot and times each from
the update's POST to the reply's ``sendMessage`` at the fake Bot API. Prints p50/p95 and, from
n8n's own execution records, the median time of every node that ran. ``--both`` points the
second persona at the one-call Twin turn and alternates blocks of ten turns between the two
bots (same person, same run), with the CPU seconds n8n and the nodes spent per turn of each.
Figures belong in bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

from tests.e2e.conftest import open_stack
from tests.e2e.n8n import unflatten
from tests.e2e.stack import AGENT_ID, ANAKETA_ALLOWED, Stack

TEXTS = (
    "my sister Marta lives in Lisbon",
    "how is Marta doing?",
    "remind me to call her Friday",
    "what did I tell you about Lisbon?",
    "I had a long day at work",
)


class Baseline:
    """The fast brain as it was at ``commit`` (one workflow reading ``$env``), to compare
    with side by side on the same machine: n8n's default engine, env access allowed."""

    URL_VARS = {
        "pulse-decay": "TWIN_PULSE_URL",
        "graph-hydrator": "TWIN_HYDRATE_URL",
        "rag-gate": "TWIN_RETRIEVE_URL",
        "envelope-validator": "TWIN_ENVELOPE_URL",
        "reflection-writer": "TWIN_REFLECT_URL",
        "memory-upserter": "TWIN_MEMORY_URL",
    }

    def __init__(self, commit: str) -> None:
        def show(path: str) -> str:
            return subprocess.run(
                ["git", "show", f"{commit}:{path}"], check=True, capture_output=True, text=True
            ).stdout

        names = ("fast-brain", "slow-brain", "forget", "knowledge-ingest")
        self.workflows = [json.loads(show(f"n8n-workflows/{n}.json")) for n in names]
        self.example = json.loads(show("n8n-workflows/credentials.example.json"))

    def env(self, ports: dict[str, int], model_url: str) -> dict[str, str]:
        env = {var: f"http://127.0.0.1:{ports[node]}" for node, var in self.URL_VARS.items()}
        return {
            **env,
            "OPENAI_BASE_URL": model_url,
            "TWIN_CHAT_MODEL": "stub-model",
            "TWIN_AGENT_ID": "deanna",
            "N8N_BLOCK_ENV_ACCESS_IN_NODE": "false",
        }

    def credentials(self, shipped: list[dict]) -> list[dict]:
        by_name = {c["name"]: c for c in shipped}
        by_name["Telegram bot"] = {
            **by_name["Telegram bot — Deanna"],
            "id": "TwinTelegram0001",
            "name": "Telegram bot",
        }
        return [{**c, "data": by_name[c["name"]]["data"]} for c in self.example]


def _cpu_seconds(groups: list[int]) -> float:
    """User + system CPU of every live process in these process groups (n8n and its task
    runner, a queue worker, ``twin up``), from /proc."""
    tick, total = os.sysconf("SC_CLK_TCK"), 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[2]) in groups:  # pgrp
            total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def _sends(stack: Stack) -> int:
    return sum(1 for call in list(stack.telegram.calls) if call.method == "sendMessage")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--queue", action="store_true", help="n8n on Postgres, queue mode")
    parser.add_argument(
        "--baseline",
        metavar="COMMIT",
        help="measure the fast brain as it was at COMMIT instead (e.g. abd40fa)",
    )
    parser.add_argument(
        "--webhook",
        action="store_true",
        help="also time the same turns through the fast brain's webhook (no "
        "persona workflow, no sub-workflow call, no Telegram send)",
    )
    parser.add_argument(
        "--both",
        action="store_true",
        help="the four-node and the one-call Twin turn side by side (blocks of ten turns)",
    )
    parser.add_argument(
        "--inline-settings",
        action="store_true",
        help="each workflow holds a copy of the settings instead of calling the settings workflow",
    )
    args = parser.parse_args()
    user = {"id": ANAKETA_ALLOWED[2], "is_bot": False, "first_name": "Mia"}
    with (
        tempfile.TemporaryDirectory() as folder,
        open_stack(
            Path(folder),
            queue=args.queue,
            schedule_seconds=None,
            baseline=Baseline(args.baseline) if args.baseline else None,
            pg_admin=os.environ.get(
                "TWIN_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres"
            ),
            redis_url=os.environ.get("TWIN_TEST_E2E_REDIS_URL", "redis://127.0.0.1:6379/12"),
            one_call=args.both,
            inline_settings=args.inline_settings,
        ) as stack,
    ):
        stack.users.add(f"tg:{user['id']}")
        flows = {"four-node": AGENT_ID, "one-call": "anaketa"} if args.both else {"": AGENT_ID}
        took: dict[str, list[float]] = {flow: [] for flow in flows}
        cpu: dict[str, dict[str, float]] = {flow: {"n8n": 0.0, "nodes": 0.0} for flow in flows}
        n8n_groups = [p.proc.pid for p in (stack.n8n.server, stack.n8n.worker) if p is not None]
        rounds = args.warmup + args.turns
        for n in range(rounds * len(flows)):
            measured = n >= args.warmup * len(flows)
            flow = list(flows)[(n // 10 if measured else n) % len(flows)]
            before = _sends(stack)
            used = (_cpu_seconds(n8n_groups), _cpu_seconds([stack.nodes.proc.pid]))
            update = {
                "update_id": 900_000 + n,
                "message": {
                    "message_id": 100 + n,
                    "from": user,
                    "date": int(datetime.now(UTC).timestamp()),
                    "chat": {"id": user["id"], "type": "private", "first_name": "Mia"},
                    "text": TEXTS[n % len(TEXTS)],
                },
            }
            started = time.perf_counter()
            stack.telegram_update(update, agent=flows[flow])
            deadline = time.monotonic() + 60
            while _sends(stack) <= before:  # a send the Bot API refused ends the turn too
                assert time.monotonic() < deadline, "no sendMessage in 60 s"
                time.sleep(0.002)
            if measured:
                took[flow].append((time.perf_counter() - started) * 1000)
                time.sleep(0.3)  # n8n finishes the execution after the send: count its CPU
                cpu[flow]["n8n"] += _cpu_seconds(n8n_groups) - used[0]
                cpu[flow]["nodes"] += _cpu_seconds([stack.nodes.proc.pid]) - used[1]
        hooked = []
        for n in range(args.turns if args.webhook else 0):
            started = time.perf_counter()
            answer = stack.webhook(
                "twin/fast-brain",
                {
                    "user_id": f"tg:{user['id']}",
                    "agent_id": "deanna",
                    "chat_id": "web-measure",
                    "text": TEXTS[n % len(TEXTS)],
                    "turn_id": f"measure-{n}",
                },
            )
            assert answer.status_code == 200, answer.text
            hooked.append((time.perf_counter() - started) * 1000)
        per_node: dict[str, list[float]] = defaultdict(list)
        database = stack.n8n.folder / "user" / ".n8n" / "database.sqlite"
        if not args.queue and database.exists():
            import sqlite3

            with sqlite3.connect(database) as conn:
                rows = conn.execute(
                    "SELECT data FROM execution_data ORDER BY executionId DESC "
                    f"LIMIT {2 * args.turns}"
                ).fetchall()
            for (data,) in rows:
                run_data = unflatten(data).get("resultData", {}).get("runData", {})
                for node, runs in run_data.items():
                    for run in runs or []:
                        per_node[node].append(run.get("executionTime", 0))
        print(
            json.dumps(
                {
                    "mode": "queue" if args.queue else "single",
                    "turns": args.turns,
                    "workflows": f"as of {args.baseline}"
                    if args.baseline
                    else "settings inlined"
                    if args.inline_settings
                    else "shipped",
                    "load_average": os.getloadavg(),
                    "cpus": os.cpu_count(),
                    "at": datetime.now(UTC).isoformat(timespec="minutes"),
                    **{
                        f"{flow or 'turn'}": {
                            "p50_ms": round(statistics.median(times), 1),
                            "p95_ms": round(_percentile(times, 0.95), 1),
                            "min_ms": round(min(times), 1),
                            "cpu_ms_per_turn": {
                                k: round(1000 * v / len(times)) for k, v in cpu[flow].items()
                            },
                        }
                        for flow, times in took.items()
                    },
                    "webhook_p50_ms": round(statistics.median(hooked), 1) if hooked else None,
                    "node_median_ms": {
                        k: statistics.median(v)
                        for k, v in sorted(
                            per_node.items(), key=lambda kv: -statistics.median(kv[1])
                        )
                    },
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
