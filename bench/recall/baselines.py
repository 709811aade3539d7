"""The raw-turn baselines: BM25, the offline dense embedder, and their RRF fusion.

Every turn of the question's conversation is one document, indexed as
``[session date] speaker: text [shares a photo: caption]`` (the README's setup); the question
is the query. Each method returns, per question, every turn of the conversation as an
:class:`~bench.recall.metrics.Item`, best first.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from bench.common import count_tokens
from bench.recall.data import Conversation, Question, indexed_text, scored_questions
from bench.recall.lexical import BM25, tokenize
from bench.recall.metrics import Item, rrf

METHODS = ("bm25", "dense", "fusion")


def turn_items(conversation: Conversation) -> list[Item]:
    items = []
    for session in conversation.sessions:
        for turn in session.turns:
            text = indexed_text(turn, session)
            items.append(
                Item(
                    "turn",
                    text,
                    frozenset({turn.dia_id}),
                    count_tokens(text),
                    {"dia_id": turn.dia_id},
                )
            )
    return items


def rank(
    conversations: Sequence[Conversation], embed
) -> tuple[dict[str, dict[str, list[Item]]], dict[str, float]]:
    """``{method: {qid: ranked items}}`` and the seconds each method's indexing and queries
    took. ``embed(texts) -> (n, dim) L2-normalised array`` is the dense embedder."""
    out: dict[str, dict[str, list[Item]]] = {m: {} for m in METHODS}
    seconds = {"bm25_index": 0.0, "bm25_query": 0.0, "dense_index": 0.0, "dense_query": 0.0}
    for conversation in conversations:
        items = turn_items(conversation)
        questions = scored_questions(conversation)
        started = time.perf_counter()
        bm25 = BM25([tokenize(i.text) for i in items])
        seconds["bm25_index"] += time.perf_counter() - started
        started = time.perf_counter()
        lexical = {q.qid: bm25.rank(tokenize(q.text)) for q in questions}
        seconds["bm25_query"] += time.perf_counter() - started
        started = time.perf_counter()
        documents = np.asarray(embed([i.text for i in items]), dtype=np.float32)
        seconds["dense_index"] += time.perf_counter() - started
        started = time.perf_counter()
        queries = np.asarray(embed([q.text for q in questions]), dtype=np.float32)
        dense = {}
        for q, vector in zip(questions, queries, strict=True):
            similarity = documents @ vector
            dense[q.qid] = sorted(range(len(items)), key=lambda i: (-similarity[i], i))
        seconds["dense_query"] += time.perf_counter() - started
        for q in questions:
            out["bm25"][q.qid] = [items[i] for i in lexical[q.qid]]
            out["dense"][q.qid] = [items[i] for i in dense[q.qid]]
            out["fusion"][q.qid] = [items[i] for i in rrf([lexical[q.qid], dense[q.qid]])]
    return out, seconds


def questions_of(conversations: Sequence[Conversation]) -> list[Question]:
    return [q for c in conversations for q in scored_questions(c)]
