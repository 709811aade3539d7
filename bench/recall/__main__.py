"""Memory recall on LoCoMo or BEAM: Twin Core through its own HTTP nodes against raw-turn
baselines, at turn and session granularity.

    uv run python -m bench.recall            # the 4 conversations of the dev subset
    uv run python -m bench.recall --quick    # conv-26 only
    uv run python -m bench.recall --baselines-only
    uv run python -m bench.recall --beam 1,2,3   # BEAM 100K chats (1-10 here), per ability

Starts ``twin up`` in a subprocess on a fresh database (``twin_bench_recall``), Redis db 14, a
temporary Qdrant Edge folder and ports 10101-10106 (``--port-offset``), with no model endpoint
(offline engines); ingests every conversation through memory-upserter and reflection-writer,
asks every question of categories 1-4 through graph-hydrator + rag-gate, and compares the turn
ids in the provenance of what came back with the evidence, beside BM25, MiniLM dense and their
RRF fusion over the raw turns. Writes its section of ``bench/RESULTS.md`` (``--no-write`` to
skip) and the raw figures to ``bench/out/recall.json`` (``recall-beam`` for BEAM).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time

from bench.common import OUT, Stack, cached_embedder, machine, write_section
from bench.recall import baselines, beam, compare, data, evaluate, sessions, updates
from bench.recall.cost import raw_figures
from bench.recall.metrics import Item
from bench.recall.report import BASELINE_NAMES, TWIN_NAMES, report
from bench.recall.run_product import ProductRun, run_product


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    started = time.perf_counter()
    info = machine()
    conversations = _select(args)
    questions = baselines.questions_of(conversations)
    ranked, baseline_s = baselines.rank(conversations, cached_embedder(args.threads))
    methods: dict[str, dict[str, list[Item]]] = {
        BASELINE_NAMES[m]: ranked[m] for m in baselines.METHODS
    }
    print("baselines ranked", flush=True)
    run = None if args.baselines_only else _run_twin(args, conversations, methods)
    results = evaluate.evaluate(methods, questions)
    session_results = evaluate.evaluate(
        sessions.session_methods(methods), sessions.session_questions(questions)
    )
    update_counts = updates.tally(methods, questions) if args.beam else {}
    derived = compare.Derived()
    if run is not None:
        derived = compare.derive(methods, conversations, questions)
        args.per_conversation = derived.per_conversation
    body = report(
        args,
        info,
        questions,
        results,
        session_results,
        update_counts,
        derived,
        run,
        baseline_s,
        time.perf_counter() - started,
    )
    print("\n" + body)
    _write(args, info, questions, results, session_results, derived, run, body)
    return 0


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.recall",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--quick", action="store_true", help="conv-26 only")
    parser.add_argument("--conversations", nargs="*", help="sample ids (default: all)")
    parser.add_argument(
        "--beam", default="", help="BEAM 100K chats instead of LoCoMo, e.g. 1,2,3 (1-10 here)"
    )
    parser.add_argument("--baselines-only", action="store_true")
    parser.add_argument(
        "--adversarial", action="store_true", help="score LoCoMo's category 5 too (own column)"
    )
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
    parser.add_argument(
        "--embedder",
        default="",
        help="TWIN_EMBEDDER for the product (default: the product's default, minilm)",
    )
    return parser.parse_args(argv)


def _select(args: argparse.Namespace) -> list[data.Conversation]:
    if args.adversarial:
        data.score_adversarial()
    if args.beam:
        conversations = beam.load([int(n) for n in args.beam.split(",")])
    else:
        conversations = data.load()
    wanted = args.conversations or (["conv-26"] if args.quick and not args.beam else None)
    if wanted:
        conversations = [c for c in conversations if c.sample_id in wanted]
    args.selected = [c.sample_id for c in conversations]
    args.selected_subset = bool(wanted)
    print(
        f"{len(conversations)} conversations, {sum(len(c.turns) for c in conversations)} "
        f"turns, {len(baselines.questions_of(conversations))} questions",
        flush=True,
    )
    return conversations


def _run_twin(
    args: argparse.Namespace,
    conversations: list[data.Conversation],
    methods: dict[str, dict[str, list[Item]]],
) -> ProductRun:
    """Twin Core on a fresh stack; its item orders join ``methods`` under their report names."""
    variants = [v for v in args.variants.split(",") if v]
    env = {"TWIN_EMBEDDER": args.embedder} if args.embedder else {}
    stack = Stack(args.database, args.redis_db, args.port_offset, env=env)
    t0 = time.perf_counter()
    stack.start()
    print(f"twin up ready in {time.perf_counter() - t0:.1f} s (log {stack.log_path})", flush=True)
    try:
        run = asyncio.run(run_product(stack, conversations, variants))
    finally:
        stack.stop()
    for (variant, order), name in TWIN_NAMES.items():
        if variant in run.items:
            methods[name] = run.items[variant][order]
    return run


def _write(
    args, info, questions, results, session_results, derived, run: ProductRun | None, body: str
) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    figures = raw_figures(info, results, derived.grounded, derived.matched, run)
    figures["sessions"] = session_results
    if run is not None:
        figures["settled"] = run.settled  # first questions right after each ingest
    name = "recall-beam" if args.beam else "recall"
    (OUT / f"{name}.json").write_text(json.dumps(figures, indent=1, default=str))
    if run is not None:  # what came back, per question, for inspection
        (OUT / f"{name}-items.json").write_text(json.dumps(_items(questions, run), indent=1))
    if not args.no_write and not args.quick and not getattr(args, "selected_subset", False):
        write_section(name, body)
        print("\nwrote bench/RESULTS.md", flush=True)


def _items(questions, run: ProductRun) -> dict:
    """Per question: its evidence, what came back and how long each variant's retrieve took
    (questions in the order asked, so a conversation's first ones follow its ingest)."""
    return {
        q.qid: {
            "question": q.text,
            "category": q.category,
            "evidence": q.evidence,
            "retrieve_ms": {v: round(lat["retrieve"][n], 1) for v, lat in run.latency.items()},
            **{
                f"{variant}/retrieval": [
                    [i.kind, i.tokens, sorted(i.turns), i.text[:160]]
                    for i in run.items[variant]["retrieval"].get(q.qid, [])
                ]
                for variant in run.items
            },
        }
        for n, q in enumerate(questions)
    }


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
