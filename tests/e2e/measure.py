"""A Telegram turn's latency through a real n8n on its defaults, with the stub model.

    uv run python -m tests.e2e.measure [--turns 30] [--queue]

Builds the E2E stack (``tests/e2e/conftest.py``'s ``open_stack``), warms it up, then sends
``--turns`` Telegram messages one after another to the first persona's bot and times each from
the update's POST to the reply's ``sendMessage`` at the fake Bot API. Prints p50/p95 and, from
n8n's own execution records, the median time of every node that ran. Figures belong in
bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

from tests.e2e.conftest import open_stack
from tests.e2e.n8n import unflatten
from tests.e2e.stack import Stack

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
    args = parser.parse_args()
    user = {"id": random.randrange(10**8, 10**9), "is_bot": False, "first_name": "Mia"}
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
        ) as stack,
    ):
        stack.users.add(f"tg:{user['id']}")
        took: list[float] = []
        for n in range(args.warmup + args.turns):
            before = _sends(stack)
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
            stack.telegram_update(update)
            deadline = time.monotonic() + 60
            while _sends(stack) <= before:  # a send the Bot API refused ends the turn too
                assert time.monotonic() < deadline, "no sendMessage in 60 s"
                time.sleep(0.002)
            if n >= args.warmup:
                took.append((time.perf_counter() - started) * 1000)
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
                    "workflows": f"as of {args.baseline}" if args.baseline else "shipped",
                    "load_average": os.getloadavg(),
                    "p50_ms": round(statistics.median(took), 1),
                    "p95_ms": round(_percentile(took, 0.95), 1),
                    "min_ms": round(min(took), 1),
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
