"""Twin Core's side of a recall run: ingest every conversation through the product's HTTP
nodes, ask every question with each limit set, and keep what came back as ranked items, its
latency and what the store holds (see :mod:`bench.recall.product` for the requests)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import httpx

from bench.common import Stack
from bench.recall import data, orders, product, settle
from bench.recall.metrics import Item


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
    # per conversation: the first questions' retrieve ms right after the ingest, the rows
    # still unindexed then, and the seconds until the index caught up (:mod:`.settle`)
    settled: dict[str, tuple[list[float], int, float]] = field(default_factory=dict)


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
            first, backlog = await settle.first_questions(client, stack, conversation)
            waited = await settle.wait_indexed(stack.dsn, conversation)
            run.settled[conversation.sample_id] = (first, backlog, waited)
            print(
                f"  first questions right after the ingest: retrieve {first} ms with {backlog} "
                f"rows unindexed; index caught up {waited:.1f} s later",
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
