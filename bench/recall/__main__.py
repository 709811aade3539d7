"""Memory recall on LoCoMo: Twin Core through its own HTTP nodes against raw-turn baselines.

    uv run python -m bench.recall            # the 4 conversations of the dev subset
    uv run python -m bench.recall --quick    # conv-26 only
    uv run python -m bench.recall --baselines-only

Starts ``twin up`` in a subprocess on a fresh database (``twin_bench_recall``), Redis db 14, a
temporary Qdrant Edge folder and ports 10101-10106 (``--port-offset``), with no model endpoint
(offline engines); ingests every conversation through memory-upserter and reflection-writer,
asks every question of categories 1-4 through graph-hydrator + rag-gate, and compares the turn
ids in the provenance of what came back with the evidence, beside BM25, MiniLM dense and their
RRF fusion over the raw turns. Writes its section of ``bench/RESULTS.md`` (``--no-write`` to
skip) and the raw figures to ``bench/out/recall.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from bench.common import (
    OUT,
    Stack,
    cached_embedder,
    machine,
    machine_line,
    percentile,
    table,
    write_section,
)
from bench.recall import baselines, data, evaluate, orders, product
from bench.recall.lexical import tokenize
from bench.recall.metrics import Item, grounded

COMMAND = "uv run python -m bench.recall"


# --- Twin Core --------------------------------------------------------------------------------


@dataclass
class ProductRun:
    stats: product.IngestStats = field(default_factory=product.IngestStats)
    # variant → order → qid → items
    items: dict[str, dict[str, dict[str, list[Item]]]] = field(default_factory=dict)
    latency: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    shape: dict[str, Counter] = field(default_factory=dict)  # variant → per-question counts
    store: Counter = field(default_factory=Counter)  # what Postgres holds after ingest
    evidence_turns: int = 0
    evidence_with_fact: int = 0
    episode_provenance: list[int] = field(default_factory=list)
    episode_words: list[int] = field(default_factory=list)
    startup_s: float = 0.0
    query_s: float = 0.0


async def run_product(
    stack: Stack, conversations: Sequence[data.Conversation], variants: Sequence[str]
) -> ProductRun:
    run = ProductRun()
    for variant in variants:
        run.items[variant] = {order: {} for order in orders.ORDERS}
        run.latency[variant] = {"hydrate": [], "retrieve": [], "chain": [], "envelope": []}
        run.shape[variant] = Counter()
    limits = httpx.Limits(max_connections=4)
    async with httpx.AsyncClient(timeout=120, limits=limits) as client:
        for conversation in conversations:
            stats = await product.ingest(
                client, stack.url("memory-upserter"), stack.url("reflection-writer"), conversation
            )
            run.stats.merge(stats)
            print(
                f"  ingested {conversation.sample_id}: {stats.turns} turns, "
                f"{stats.sessions} sessions in {stats.wall_s:.1f} s; facts "
                f"{dict(stats.facts)}; episodes {stats.episodes}",
                flush=True,
            )
            prov = await product.load_provenance(stack.dsn, conversation)
            await _inspect_store(stack.dsn, conversation, prov, run)
            started = time.perf_counter()
            for question in data.scored_questions(conversation):
                for variant in variants:
                    answer = await product.ask(
                        client,
                        stack.url("graph-hydrator"),
                        stack.url("rag-gate"),
                        conversation,
                        question,
                        limits=product.LIMITS[variant],
                        envelope=stack.url("envelope-validator"),
                    )
                    lat = run.latency[variant]
                    lat["hydrate"].append(answer.hydrate_ms)
                    lat["retrieve"].append(answer.retrieve_ms)
                    lat["chain"].append(answer.hydrate_ms + answer.retrieve_ms)
                    lat["envelope"].append(answer.envelope_ms)
                    for order, found in orders.items(answer, prov).items():
                        run.items[variant][order][question.qid] = found
                    _shape(
                        run.shape[variant], answer, run.items[variant]["retrieval"][question.qid]
                    )
            run.query_s += time.perf_counter() - started
            print(
                f"  asked {len(data.scored_questions(conversation))} questions x "
                f"{len(variants)} in {time.perf_counter() - started:.1f} s",
                flush=True,
            )
    return run


def _shape(shape: Counter, answer: product.Answer, found: list[Item]) -> None:
    shape["questions"] += 1
    shape["items"] += len(found)
    shape["tokens"] += sum(i.tokens for i in found)
    for item in found:
        shape[f"kind:{item.kind}"] += 1
    hits = answer.retrieve["EPISODE"].get("hits", [])
    shape["no_episode"] += not hits
    shape["no_fact"] += not answer.retrieve["FACTS"].get("relevant_facts")
    shape["mention"] += bool(answer.hydrate.get("mentions"))
    for name, n in answer.retrieve.get("debug", {}).get("dropped", {}).items():
        shape[f"dropped:{name}"] += n
    for name, n in answer.retrieve.get("debug", {}).get("candidates", {}).items():
        shape[f"candidates:{name}"] += n


async def _inspect_store(
    dsn: str, conversation: data.Conversation, prov: product.Provenance, run: ProductRun
) -> None:
    import asyncpg

    conn = await asyncpg.connect(dsn)
    try:
        user = product.user_of(conversation)
        for source, status, n in await conn.fetch(
            "SELECT source, status, count(*) FROM relations WHERE user_id = $1 GROUP BY 1, 2", user
        ):
            run.store[f"facts:{source}:{status}"] += n
        run.store["entities"] += await conn.fetchval(
            "SELECT count(*) FROM entities WHERE user_id = $1", user
        )
        for ids, words in await conn.fetch(
            "SELECT jsonb_array_length(COALESCE(provenance->'message_ids', '[]'::jsonb)), "
            "array_length(regexp_split_to_array(trim(reflection), '\\s+'), 1) "
            "FROM episodes WHERE user_id = $1",
            user,
        ):
            run.episode_provenance.append(ids or 0)
            run.episode_words.append(words or 0)
    finally:
        await conn.close()
    with_fact = {d for ids in prov.messages_of_fact.values() for d in prov.dias(ids)}
    evidence = {e for q in data.scored_questions(conversation) for e in q.evidence}
    run.evidence_turns += len(evidence)
    run.evidence_with_fact += len(evidence & with_fact)


# --- the report -------------------------------------------------------------------------------


BASELINE_NAMES = {
    "bm25": "BM25 (raw turns)",
    "dense": "MiniLM dense (raw turns)",
    "fusion": "RRF fusion (raw turns)",
}
TWIN_NAMES = {
    ("default", "retrieval"): "Twin Core",
    ("default", "envelope"): "Twin Core, envelope order",
    ("default", "sections"): "Twin Core, 001 section order (before)",
    ("open", "retrieval"): "Twin Core, cutoffs off (diagnostic)",
}
ENVELOPE_ALL = "Twin Core (all the envelope renders, default budget)"
README_TABLE = {
    "BM25 (raw turns)": (0.541, 0.594, 0.649, 0.277),
    "MiniLM dense (raw turns)": (0.412, 0.531, 0.625, 0.322),
    "RRF fusion (raw turns)": (0.518, 0.609, 0.678, 0.299),
}


def ms(samples: Sequence[float]) -> str:
    if not samples:
        return "–"
    return f"{percentile(samples, 50):.1f} / {percentile(samples, 95):.1f}"


def report(
    args,
    info,
    questions,
    results,
    grounded_results,
    matched,
    matched_grounded,
    run: ProductRun | None,
    baseline_s: dict[str, float],
    wall_s: float,
) -> str:
    counts = evaluate.counts(questions)
    twin = [n for n in TWIN_NAMES.values() if n in results]
    base = list(BASELINE_NAMES.values())
    command = (
        COMMAND
        + (" --quick" if args.quick else "")
        + (" --baselines-only" if args.baselines_only else "")
    )
    lines = [
        "## Memory recall on LoCoMo (`bench/recall`)",
        "",
        f"`{command}` — {machine_line(info)} · whole run {wall_s / 60:.1f} min.",
        "",
        f"Data: {', '.join(c for c in args.selected)} ({sum(counts.values()) - counts['all']} "
        f"questions of categories 1–4 with evidence: "
        + ", ".join(f"{g} {counts[g]}" for g in evaluate.GROUPS[1:])
        + "). "
        "R@k = mean share of a question's evidence turns covered by the first k items; "
        "R@N tok = the same within N tokens (whitespace words of the returned text, items "
        "taken in order until the next one does not fit). An item covers the turns in its "
        "provenance (see bench/README.md for the item order and the text counted).",
        "",
        "### Evidence recall, all categories",
        "",
        evaluate.headline(results, base + twin),
    ]
    if not args.quick and not args.selected_subset:
        check = []
        for name, (r5, r10, r20, mh) in README_TABLE.items():
            got = results[name]
            check.append(
                [
                    name,
                    f"{fmt3(got['@5']['all'][0])} ({r5})",
                    f"{fmt3(got['@10']['all'][0])} ({r10})",
                    f"{fmt3(got['@20']['all'][0])} ({r20})",
                    f"{fmt3(got['@10']['multi-hop'][0])} ({mh})",
                ]
            )
        lines += [
            "",
            "Baselines against the data README's table (README in brackets):",
            "",
            table(["baseline", "R@5", "R@10", "R@20", "multi-hop R@10"], check),
        ]
    for budget, label in (("@10", "10 items"), ("@400t", "400 tokens")):
        lines += [
            "",
            f"### Per category at {label}: evidence recall",
            "",
            evaluate.per_category(results, base + twin, budget, 0),
            "",
            f"All-evidence rate (every evidence turn covered) at {label}:",
            "",
            evaluate.per_category(results, base + twin, budget, 1),
        ]
    if matched:
        rows = [
            [name, *(f"{fmt3(v[g][0])} / {fmt3(v[g][1])}" for g in evaluate.GROUPS)]
            for name, v in matched.items()
        ]
        lines += [
            "",
            "### Everything Twin Core returned vs the baselines at the same tokens",
            "",
            "Per question, each baseline gets exactly as many tokens as Twin Core "
            "returned for that question (recall / all-evidence rate). "
            "`hydrate + retrieve`: everything the two nodes return; `envelope`: every "
            "memory item the envelope renders to the model (foundation, relevant "
            "memories within the default 800-word budget, todos, the previous "
            "session's tail, the latest summary), each baseline at that question's "
            "same tokens:",
            "",
            table(["method", *evaluate.GROUPS], rows),
        ]
    if getattr(args, "per_conversation", None):
        lines += [
            "",
            "Per conversation, recall of everything returned vs RRF fusion at the same tokens:",
            "",
            table(
                [
                    "conversation",
                    "questions",
                    "hydrate + retrieve: all",
                    "hydrate + retrieve: temporal",
                    "envelope: all",
                    "envelope: temporal",
                ],
                args.per_conversation,
            ),
        ]
    if grounded_results:
        lines += [
            "",
            "### Grounded credit (Twin Core only)",
            "",
            "The same, crediting a provenance turn only when at least half of its "
            "distinct content words occur in the returned text (a raw turn is always "
            "grounded in itself, so the baselines' figures do not change):",
            "",
            evaluate.headline(grounded_results, list(grounded_results)),
        ]
        if matched_grounded:
            rows = [
                [name, *(f"{fmt3(v[g][0])} / {fmt3(v[g][1])}" for g in evaluate.GROUPS)]
                for name, v in matched_grounded.items()
            ]
            lines += [
                "",
                "Everything returned, grounded credit, vs the baselines at the same tokens:",
                "",
                table(["method", *evaluate.GROUPS], rows),
            ]
    if run is not None:
        lines += ["", *cost_section(run)]
    lines += [
        "",
        "Baselines' own cost: BM25 index "
        f"{baseline_s['bm25_index']:.2f} s + queries {baseline_s['bm25_query']:.2f} s; "
        f"MiniLM turns {baseline_s['dense_index']:.1f} s + queries "
        f"{baseline_s['dense_query']:.1f} s (0 when cached in bench/out/cache).",
    ]
    return "\n".join(lines)


def per_conversation(methods, base, questions) -> list[list[str]]:
    """Per conversation: everything returned (hydrate + retrieve; the envelope) against RRF
    fusion at the same tokens, all categories and temporal — the margin is not one
    conversation's."""
    rows = []
    for sample in sorted({q.qid.split("#", 1)[0] for q in questions}):
        mine = [q for q in questions if q.qid.startswith(sample + "#")]
        cells = [sample, str(len(mine))]
        for twin in ("Twin Core", "Twin Core, envelope order"):
            got = evaluate.matched(
                methods[twin], {"fusion": base["RRF fusion (raw turns)"]}, mine, label="twin"
            )
            for group in ("all", "temporal"):
                cells.append(f"{fmt3(got['twin'][group][0])} vs {fmt3(got['fusion'][group][0])}")
        rows.append(cells)
    return rows


def fmt3(value: float) -> str:
    return evaluate.fmt(value)


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


# --- main -------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.recall",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--quick", action="store_true", help="conv-26 only")
    parser.add_argument("--conversations", nargs="*", help="sample ids (default: all)")
    parser.add_argument("--baselines-only", action="store_true")
    parser.add_argument(
        "--variants", default="default,open", help="rag-gate limit sets to ask with (default,open)"
    )
    parser.add_argument(
        "--no-write",
        action="store_true",
        help="leave bench/RESULTS.md alone (--quick never writes it)",
    )
    parser.add_argument("--database", default="twin_bench_recall")
    parser.add_argument("--redis-db", type=int, default=14)
    parser.add_argument("--port-offset", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=1, help="MiniLM threads (baseline)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    info = machine()
    conversations = data.load()
    wanted = args.conversations or (["conv-26"] if args.quick else None)
    if wanted:
        conversations = [c for c in conversations if c.sample_id in wanted]
    args.selected = [c.sample_id for c in conversations]
    args.selected_subset = bool(wanted)
    questions = baselines.questions_of(conversations)
    print(
        f"{len(conversations)} conversations, {sum(len(c.turns) for c in conversations)} "
        f"turns, {len(questions)} questions",
        flush=True,
    )

    ranked, baseline_s = baselines.rank(conversations, cached_embedder(args.threads))
    methods: dict[str, dict[str, list[Item]]] = {
        BASELINE_NAMES[m]: ranked[m] for m in baselines.METHODS
    }
    print("baselines ranked", flush=True)

    run = None
    if not args.baselines_only:
        variants = [v for v in args.variants.split(",") if v]
        stack = Stack(args.database, args.redis_db, args.port_offset)
        t0 = time.perf_counter()
        stack.start()
        print(
            f"twin up ready in {time.perf_counter() - t0:.1f} s (log {stack.log_path})", flush=True
        )
        try:
            run = asyncio.run(run_product(stack, conversations, variants))
        finally:
            stack.stop()
        for (variant, order), name in TWIN_NAMES.items():
            if variant in run.items:
                methods[name] = run.items[variant][order]

    results = evaluate.evaluate(methods, questions)
    grounded_results, matched, matched_grounded = {}, {}, {}
    if run is not None:
        # dia_ids repeat across conversations ("D1:3" is in each): one map per conversation
        words = {
            c.sample_id: {t.dia_id: frozenset(tokenize(t.content)) for t in c.turns}
            for c in conversations
        }
        twin_names = [n for n in TWIN_NAMES.values() if n in methods]
        grounded_methods = {
            n: {
                qid: [grounded(i, words[qid.split("#", 1)[0]]) for i in items]
                for qid, items in methods[n].items()
            }
            for n in twin_names
        }
        grounded_results = evaluate.evaluate(grounded_methods, questions)
        base = {n: methods[n] for n in BASELINE_NAMES.values()}
        matched = evaluate.matched(methods["Twin Core"], base, questions)
        if "Twin Core, envelope order" in methods:
            rendered = evaluate.matched(
                methods["Twin Core, envelope order"], base, questions, label=ENVELOPE_ALL
            )
            matched = {
                **{f"{k} · hydrate + retrieve": v for k, v in matched.items()},
                **{f"{k} · envelope": v for k, v in rendered.items()},
            }
            args.per_conversation = per_conversation(methods, base, questions)
        matched_grounded = evaluate.matched(grounded_methods["Twin Core"], base, questions)
    wall = time.perf_counter() - started
    body = report(
        args,
        info,
        questions,
        results,
        grounded_results,
        matched,
        matched_grounded,
        run,
        baseline_s,
        wall,
    )
    print("\n" + body)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "recall.json").write_text(
        json.dumps(_raw(info, results, grounded_results, matched, run), indent=1, default=str)
    )
    if run is not None:  # what came back, per question, for inspection
        (OUT / "recall-items.json").write_text(
            json.dumps(
                {
                    q.qid: {
                        "question": q.text,
                        "category": q.category,
                        "evidence": q.evidence,
                        **{
                            f"{variant}/retrieval": [
                                [i.kind, i.tokens, sorted(i.turns), i.text[:160]]
                                for i in run.items[variant]["retrieval"].get(q.qid, [])
                            ]
                            for variant in run.items
                        },
                    }
                    for q in questions
                },
                indent=1,
            )
        )
    if not args.no_write and not args.quick and not getattr(args, "selected_subset", False):
        write_section("recall", body)
        print("\nwrote bench/RESULTS.md", flush=True)
    return 0


def _raw(info, results, grounded_results, matched, run: ProductRun | None) -> dict[str, Any]:
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


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
