"""README's "Changing the embedder", run end to end on the Portuguese conversation of the
multilingual set: ingest with MiniLM; start the same Qdrant Edge folder with multilingual-e5
(refused); then a fresh folder, every row's ``indexed_at`` set to NULL, start with e5 (the start
sweep re-embeds) and ask again. Prints R@5 before and after (needs the ``multilingual`` extra).

    uv run --no-sync python -m bench.recall.embedder_switch   # Redis db 8, ports +21000
"""

from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

import asyncpg
import httpx

from bench.common import Stack
from bench.recall import data, evaluate, orders, product
from bench.recall import multilingual as ml
from bench.recall.metrics import Item, within_items
from bench.recall.run_product import run_product

DATABASE, REDIS_DB, PORT_OFFSET = "twin_bench_multi_switch", 8, 21000
ROOT = Path("/tmp/twin-embedder-switch")
TABLES = ("relations", "messages", "episodes", "knowledge_chunks")  # the rows with indexed_at
E5 = {"TWIN_EMBEDDER": "multilingual-e5"}


def main() -> None:
    shutil.rmtree(ROOT, ignore_errors=True)
    old, new = ROOT / "old", ROOT / "new"
    conversation = next(c for c in ml.load() if c.sample_id == "ml-pt")
    questions = data.scored_questions(conversation)

    def r5(items: dict[str, list[Item]]) -> float:
        return evaluate.tally(items, questions, lambda i: within_items(i, 5)).recall("all")

    first = Stack(DATABASE, REDIS_DB, PORT_OFFSET, qdrant_path=str(old), env={})
    first.start()
    try:
        run = asyncio.run(run_product(first, [conversation], ["default"]))
    finally:
        first.stop()
    print(f"minilm R@5 {r5(run.items['default']['retrieval']):.3f}", _stamp(old))
    refused = Stack(DATABASE, REDIS_DB, PORT_OFFSET, qdrant_path=str(old), fresh=False, env=E5)
    try:
        refused.start(timeout=60)
        print("UNEXPECTED: e5 started on MiniLM's index")
    except RuntimeError as exc:
        print("refused:", [x for x in str(exc).splitlines() if "VectorSpaceMismatch" in x][:1])
    finally:
        refused.stop()
    asyncio.run(_unindex(first.dsn))
    again = Stack(DATABASE, REDIS_DB, PORT_OFFSET, qdrant_path=str(new), fresh=False, env=E5)
    again.start()
    try:
        time.sleep(20)  # memory-upserter's sweep at start re-embeds the backlog
        items = asyncio.run(_ask(again, conversation, questions))
    finally:
        again.stop()
    print(f"re-embedded with e5: R@5 {r5(items):.3f}", _stamp(new))


def _stamp(folder: Path) -> str:
    return (folder / "vector_space.json").read_text().strip()


async def _unindex(dsn: str) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        for table in TABLES:
            print(table, await conn.execute(f"UPDATE {table} SET indexed_at = NULL"))
    finally:
        await conn.close()


async def _ask(stack: Stack, conversation, questions) -> dict[str, list[Item]]:
    prov = await product.load_provenance(stack.dsn, conversation)
    out = {}
    async with httpx.AsyncClient(timeout=60) as client:
        for q in questions:
            answer = await product.ask(
                client,
                stack.url("graph-hydrator"),
                stack.url("rag-gate"),
                conversation,
                q,
                envelope=stack.url("envelope-validator"),
            )
            out[q.qid] = orders.items(answer, prov)["retrieval"]
    return out


if __name__ == "__main__":
    main()
