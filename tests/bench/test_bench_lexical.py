"""BM25 and its tokenizer (bench/recall/lexical.py)."""

from __future__ import annotations

import math

import pytest

from bench.recall.lexical import BM25, STOPWORDS, idf_of, tokenize


def test_tokenize_lowercases_and_drops_stopwords() -> None:
    assert tokenize("I'm going to the Beach, AGAIN!") == ["going", "beach"]
    assert tokenize("[1:56 pm on 8 May, 2023] Caroline: hi") == [
        "1",
        "56",
        "pm",
        "8",
        "may",
        "2023",
        "caroline",
        "hi",
    ]
    assert "again" in STOPWORDS and "beach" not in STOPWORDS


def test_bm25_matches_the_formula_by_hand() -> None:
    docs = [["apple", "banana"], ["apple", "apple", "cherry", "date"], ["cherry"]]
    index = BM25(docs, k1=1.2, b=0.75)
    avg = (2 + 4 + 1) / 3
    n = 3

    def term(tf: int, length: int, df: int) -> float:
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        return idf * tf * 2.2 / (tf + 1.2 * (1 - 0.75 + 0.75 * length / avg))

    scores = index.scores(["apple", "cherry"])
    assert scores[0] == pytest.approx(term(1, 2, 2))
    assert scores[1] == pytest.approx(term(2, 4, 2) + term(1, 4, 2))
    assert scores[2] == pytest.approx(term(1, 1, 2))
    assert idf_of(2, 3) == pytest.approx(math.log(1 + 1.5 / 2.5))


def test_bm25_rank_orders_by_score_and_keeps_document_order_on_ties() -> None:
    index = BM25([["x"], ["y", "rare"], ["y"], ["z"]])
    assert index.rank(["rare", "y"])[:2] == [1, 2]
    # no query term anywhere: every score is 0, the order is the documents'
    assert index.rank(["nothing"]) == [0, 1, 2, 3]


def test_bm25_idf_is_never_negative_and_unknown_terms_score_zero() -> None:
    index = BM25([["common"], ["common"], ["common", "other"]])
    assert (index.idf >= 0).all()
    assert index.scores(["missing"]).tolist() == [0.0, 0.0, 0.0]


def test_bm25_repeated_query_terms_count_each_time() -> None:
    index = BM25([["a", "b"], ["b"]])
    once, twice = index.scores(["a"]), index.scores(["a", "a"])
    assert twice[0] == pytest.approx(2 * once[0])


def test_bm25_on_empty_documents() -> None:
    index = BM25([[], ["word"]])
    assert index.scores(["word"])[0] == 0.0
    assert index.scores(["word"])[1] > 0.0
