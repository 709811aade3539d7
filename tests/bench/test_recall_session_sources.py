"""Whole sessions scored as documents (bench/recall/session_sources.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from bench.recall import fit
from bench.recall.data import Conversation, Session, Turn
from bench.recall.session_sources import documents, raw_scores, session_scores

pytestmark = pytest.mark.pure

SAID = {
    1: ["I went camping at the beach.", "The kids camped too and loved the tent."],
    2: ["My pottery class starts today.", "Pottery is like therapy for me."],
    3: ["We camped once.", "Work has been busy with the new store."],
}


def _embed(texts: list[str]) -> np.ndarray:
    """Word-hashed unit vectors: the same words, the same direction."""
    out = np.zeros((len(texts), 64), dtype=np.float32)
    for row, text in enumerate(texts):
        for word in text.lower().split():
            out[row, sum(map(ord, word.strip(".,?"))) % 64] += 1.0
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


def _conversation() -> Conversation:
    start = datetime(2023, 5, 1, tzinfo=UTC)
    sessions = []
    for number, lines in SAID.items():
        begin = start + timedelta(days=7 * number)
        turns = tuple(
            Turn(f"D{number}:{i + 1}", "Mel", text, None, number, i, begin + timedelta(minutes=i))
            for i, text in enumerate(lines)
        )
        sessions.append(Session(number, "", begin, turns))
    return Conversation("c", ("Mel", "Caro"), tuple(sessions), ())


def test_a_session_whose_turns_together_hold_the_words_ranks_first() -> None:
    ix = fit.index(_conversation(), _embed)
    docs = documents(ix, _embed)
    question = "Where did the kids go camping with the tent?"
    qvec = _embed([question])[0]
    stemmed = raw_scores(docs, "stemmed", question, qvec)
    assert docs.numbers[int(np.argmax(stemmed))] == "1"  # camping, kids, tent: two turns
    assert stemmed[docs.numbers.index("2")] == 0.0  # pottery shares no word
    assert stemmed[docs.numbers.index("3")] > 0.0  # "camped" is stemmed to "camp"
    shares = session_scores(docs, ("stemmed",), question, qvec, None)
    assert shares["1"] == 1.0 and 0.0 < shares["3"] < 1.0


def test_the_first_sessions_by_rank_score_as_an_episode_search_would_rank_them() -> None:
    ix = fit.index(_conversation(), _embed)
    docs = documents(ix, _embed)
    question = "pottery therapy"
    shares = session_scores(docs, ("bm25", "mean"), question, _embed([question])[0], 2)
    first, second = shares  # the third session is not among the first two
    assert (first, shares[first]) == ("2", 1.0)
    assert second != "2" and shares[second] == 61 / 62
