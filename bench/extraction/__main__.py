"""``uv run python -m bench.extraction``: what the write path writes, against a labelled corpus.

1. Single messages (``data/messages.txt``): the offline judge, in process, on each; precision
   and recall per category, false writes per category, the judge's time per message.
2. Dialogues (``data/dialogues.json``): through ``twin up`` (database
   ``twin_bench_extraction``, Redis db 11, ports offset 5100, hashing embedder), one
   ``/v1/commit`` per turn; checks passed per category and entity-resolution precision/recall
   for same-name people.
3. LoCoMo observation coverage on the dev subset (the judge in process, every speaker's turn):
   all 943 observations, feelings and one-off events included. What the issue measures — the
   observations memory should hold, speaker A as the person, tuned and reported on separate
   conversations — is ``python -m bench.extraction.scope``.

Every figure is reported for the development part and the held-out part (one item in four by a
hash of its text or id) separately. ``--quick`` skips the dialogues and only prints.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import asyncpg
import httpx

from bench.common import Stack, machine, machine_line, table, write_section
from bench.extraction import dialogues as dlg
from bench.extraction.corpus import (
    NO_WRITE,
    SELF_STATEMENTS,
    Tally,
    by_category,
    load_dialogues,
    load_messages,
    ratio,
)
from bench.extraction.judge_run import locomo_coverage, run_messages

DATABASE, REDIS_DB, PORT_OFFSET = "twin_bench_extraction", 11, 5100


def _message_tables(messages) -> tuple[str, dict]:
    tallies, times = run_messages(messages)
    rows, totals = [], {}
    for part, held in (("dev", False), ("held-out", True)):
        chosen = [(m, t) for m, t in zip(messages, tallies, strict=True) if m.held_out == held]
        cats = by_category([m for m, _ in chosen], [t for _, t in chosen])
        total, plain, silent = Tally(), Tally(), Tally()
        for name, t in cats.items():
            total.add(t)
            (plain if name in SELF_STATEMENTS else silent if name in NO_WRITE else Tally()).add(t)
        totals[part] = (total, plain, silent)
        for name in sorted(cats):
            t = cats[name]
            rows.append((part, name, t.messages, ratio(t.precision), ratio(t.recall), t.wrong))
    head = table(
        ["part", "category", "messages", "precision", "recall", "msgs with a false write"], rows
    )
    summary = table(
        [
            "part",
            "messages",
            "precision (all)",
            "recall (all)",
            "recall (plain self-statements)",
            "false writes (questions, hypotheticals, negations, wishes, disputed, quoted, past)",
        ],
        [
            (
                p,
                t.messages,
                ratio(t.precision),
                ratio(t.recall),
                ratio(pl.recall),
                f"{s.fp} in {s.messages} messages",
            )
            for p, (t, pl, s) in totals.items()
        ],
    )
    timing = {
        "mean_ms": statistics.fmean(times),
        "p99_ms": sorted(times)[int(len(times) * 0.99)],
        "max_ms": max(times),
    }
    return summary + "\n\n" + head, timing


async def _dialogues(stack: Stack, items: list[dict]) -> list[dlg.DialogueResult]:
    run = str(int(time.time()))
    pool = await asyncpg.create_pool(stack.dsn, min_size=1, max_size=2)
    try:
        async with httpx.AsyncClient(timeout=30) as client:
            return [
                await dlg.run_dialogue(client, stack.url("memory-upserter"), pool, d, run)
                for d in items
            ]
    finally:
        await pool.close()


def _dialogue_tables(results: list[dlg.DialogueResult]) -> str:
    rows, er = [], []
    for part, held in (("dev", False), ("held-out", True)):
        chosen = [r for r in results if r.held_out == held]
        for cat in sorted({r.category for r in chosen}):
            rs = [r for r in chosen if r.category == cat]
            rows.append(
                (part, cat, len(rs), f"{sum(r.passed for r in rs)}/{sum(r.checks for r in rs)}")
            )
        pairs = {k: sum(r.pairs[k] for r in chosen) for k in ("tp", "fp", "fn", "tn")}
        p = pairs["tp"] / (pairs["tp"] + pairs["fp"]) if pairs["tp"] + pairs["fp"] else None
        r = pairs["tp"] / (pairs["tp"] + pairs["fn"]) if pairs["tp"] + pairs["fn"] else None
        er.append(
            (
                part,
                f"{pairs['tp']}/{pairs['tp'] + pairs['fn']}",
                f"{pairs['tn']}/{pairs['tn'] + pairs['fp']}",
                ratio(p),
                ratio(r),
            )
        )
    return (
        table(["part", "category", "dialogues", "checks passed"], rows)
        + "\n\n"
        + table(
            [
                "part",
                "mention pairs of one person linked as one",
                "mention pairs of two people kept apart",
                "ER precision (no merge)",
                "ER recall (no split)",
            ],
            er,
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.extraction")
    parser.add_argument("--quick", action="store_true", help="no dialogues; print only")
    args = parser.parse_args()
    started = time.monotonic()
    info = machine()
    messages = load_messages()
    msg_table, timing = _message_tables(messages)
    print(msg_table)
    coverage = locomo_coverage()
    print(coverage)
    dialogue_table, failures = "(skipped: --quick)", []
    if not args.quick:
        stack = Stack(DATABASE, REDIS_DB, PORT_OFFSET, env={"TWIN_EMBEDDER": "hashing"})
        with stack:
            results = asyncio.run(_dialogues(stack, load_dialogues()))
        dialogue_table = _dialogue_tables(results)
        failures = [f"{r.id}: {f}" for r in results if not r.held_out for f in r.failures]
        print(dialogue_table)
        print("\n".join(failures))
    elapsed = time.monotonic() - started
    if args.quick:
        return
    held = sum(m.held_out for m in messages)
    body = f"""## `bench/extraction` — what the write path writes

{machine_line(info)} · `uv run python -m bench.extraction` · {elapsed:.0f} s

Corpus written for this benchmark (`bench/extraction/data/`): {len(messages)} single user
messages in {len({m.category for m in messages})} categories, each with the facts that must
be written and those that may be (a fact labelled with a date must carry it), and
{len(load_dialogues())} short dialogues (corrections, time bounds, same-name people,
completions, other speakers). One item in four, by a hash of its text or id, is held out
({held} messages): the rules were written against the development part only; the held-out
part is reported as it fell. The offline judge (rules, no model) on each message:

{msg_table}

The judge's time per message, in process: mean {timing["mean_ms"]:.2f} ms, p99
{timing["p99_ms"]:.2f} ms, max {timing["max_ms"]:.1f} ms (the first call compiles the rules).

**Dialogues**, through `twin up` (offline judge, one `/v1/commit` per turn, memory read back
from Postgres at the end and at earlier times):

{dialogue_table}

**LoCoMo observation coverage** (dev subset, every turn of both speakers through the judge):
{coverage["covered"]} of {coverage["observations"]} reference observations
({coverage["coverage"]:.1%}) have a fact from their evidence turn sharing a content word with
them; {coverage["turns_with_fact"]} of {coverage["turns"]} turns
({coverage["turn_share"]:.1%}) wrote any fact. LoCoMo's turns are mostly events and feelings
("I went to a support group yesterday"), which the judge writes only as dated `DID` facts
for a few verbs; the reflection-writer's episodes carry the rest.
"""
    write_section("extraction", body)


if __name__ == "__main__":
    main()
