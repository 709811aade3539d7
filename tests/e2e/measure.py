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
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

from tests.e2e.conftest import open_stack
from tests.e2e.n8n import unflatten

TEXTS = ("my sister Marta lives in Lisbon", "how is Marta doing?", "remind me to call her Friday",
         "what did I tell you about Lisbon?", "I had a long day at work")


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--queue", action="store_true", help="n8n on Postgres, queue mode")
    parser.add_argument("--webhook", action="store_true",
                        help="also time the same turns through the fast brain's webhook (no "
                             "persona workflow, no sub-workflow call, no Telegram send)")
    args = parser.parse_args()
    user = {"id": random.randrange(10**8, 10**9), "is_bot": False, "first_name": "Mia"}
    with tempfile.TemporaryDirectory() as folder, open_stack(
            Path(folder), queue=args.queue, schedule_seconds=None,
            pg_admin=os.environ.get("TWIN_TEST_PG_ADMIN",
                                    "postgresql://postgres@127.0.0.1:5432/postgres"),
            redis_url=os.environ.get("TWIN_TEST_E2E_REDIS_URL",
                                     "redis://127.0.0.1:6379/12")) as stack:
        stack.users.add(f"tg:{user['id']}")
        took = []
        for n in range(args.warmup + args.turns):
            before = len(stack.telegram.sent)
            update = {"update_id": 900_000 + n, "message": {
                "message_id": 100 + n, "from": user, "date": int(datetime.now(UTC).timestamp()),
                "chat": {"id": user["id"], "type": "private", "first_name": "Mia"},
                "text": TEXTS[n % len(TEXTS)]}}
            started = time.perf_counter()
            stack.telegram_update(update)
            stack.telegram.wait_for_sent(before + 1, timeout=60)
            if n >= args.warmup:
                took.append((time.perf_counter() - started) * 1000)
        hooked = []
        for n in range(args.turns if args.webhook else 0):
            started = time.perf_counter()
            answer = stack.webhook("twin/fast-brain", {
                "user_id": f"tg:{user['id']}", "agent_id": "deanna", "chat_id": "web-measure",
                "text": TEXTS[n % len(TEXTS)], "turn_id": f"measure-{n}"})
            assert answer.status_code == 200, answer.text
            hooked.append((time.perf_counter() - started) * 1000)
        per_node: dict[str, list[float]] = defaultdict(list)
        database = stack.n8n.folder / "user" / ".n8n" / "database.sqlite"
        if not args.queue and database.exists():
            import sqlite3
            with sqlite3.connect(database) as conn:
                rows = conn.execute("SELECT data FROM execution_data ORDER BY executionId DESC "
                                    f"LIMIT {2 * args.turns}").fetchall()
            for (data,) in rows:
                run_data = unflatten(data).get("resultData", {}).get("runData", {})
                for node, runs in run_data.items():
                    for run in runs or []:
                        per_node[node].append(run.get("executionTime", 0))
        print(json.dumps({
            "mode": "queue" if args.queue else "single", "turns": args.turns,
            "p50_ms": round(statistics.median(took), 1),
            "p95_ms": round(_percentile(took, 0.95), 1),
            "min_ms": round(min(took), 1),
            "webhook_p50_ms": round(statistics.median(hooked), 1) if hooked else None,
            "node_median_ms": {k: statistics.median(v) for k, v in
                               sorted(per_node.items(), key=lambda kv: -statistics.median(kv[1]))},
        }, indent=1))


if __name__ == "__main__":
    main()
