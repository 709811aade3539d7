"""BM25 (Okapi, k1 1.2, b 0.75) over word tokens with English stopwords removed, in numpy.

Tokens: lower-cased ``\\w+`` runs (accents kept), stopwords (the NLTK English list) dropped, no
stemming. IDF is the non-negative Lucene form ``ln(1 + (N - df + 0.5) / (df + 0.5))``.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

STOPWORDS = frozenset(
    """
i me my myself we our ours ourselves you you're you've you'll you'd your yours yourself
yourselves he him his himself she she's her hers herself it it's its itself they them their
theirs themselves what which who whom this that that'll these those am is are was were be been
being have has had having do does did doing a an the and but if or because as until while of at
by for with about against between into through during before after above below to from up down
in out on off over under again further then once here there when where why how all any both
each few more most other some such no nor not only own same so than too very s t can will just
don don't should should've now d ll m o re ve y ain aren aren't couldn couldn't didn didn't
doesn doesn't hadn hadn't hasn hasn't haven haven't isn isn't ma mightn mightn't mustn mustn't
needn needn't shan shan't shouldn shouldn't wasn wasn't weren weren't won won't wouldn wouldn't
""".split()
)

_WORD = re.compile(r"\w+")


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens without stopwords (``"I'm"`` → ``i``, ``m``: both stopwords)."""
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


class BM25:
    """An in-memory BM25 index over a fixed list of documents (already tokenized)."""

    def __init__(
        self, documents: Sequence[Sequence[str]], *, k1: float = 1.2, b: float = 0.75
    ) -> None:
        self.k1, self.b = k1, b
        self.n = len(documents)
        self.vocabulary: dict[str, int] = {}
        rows, cols, counts = [], [], []
        for row, doc in enumerate(documents):
            for term, count in Counter(doc).items():
                col = self.vocabulary.setdefault(term, len(self.vocabulary))
                rows.append(row)
                cols.append(col)
                counts.append(count)
        self.tf = np.zeros((self.n, len(self.vocabulary)), dtype=np.float64)
        if counts:
            self.tf[rows, cols] = counts
        lengths = np.array([len(d) for d in documents], dtype=np.float64)
        avg = lengths.mean() if self.n and lengths.mean() > 0 else 1.0
        self.norm = k1 * (1.0 - b + b * lengths / avg)  # per document
        df = (self.tf > 0).sum(axis=0)
        self.idf = np.log1p((self.n - df + 0.5) / (df + 0.5))

    def scores(self, query: Sequence[str]) -> np.ndarray:
        """One BM25 score per document (0 where no query term occurs); repeated query terms
        count once per occurrence, as in the usual Okapi sum."""
        out = np.zeros(self.n, dtype=np.float64)
        for term, times in Counter(query).items():
            col = self.vocabulary.get(term)
            if col is None:
                continue
            tf = self.tf[:, col]
            out += times * self.idf[col] * tf * (self.k1 + 1.0) / (tf + self.norm)
        return out

    def rank(self, query: Sequence[str]) -> list[int]:
        """Document indexes, best first; ties (and zero scores) keep document order."""
        scores = self.scores(query)
        return sorted(range(self.n), key=lambda i: (-scores[i], i))


def idf_of(df: int, n: int) -> float:
    """The IDF used above, for one term in ``df`` of ``n`` documents (for tests and docs)."""
    return math.log1p((n - df + 0.5) / (df + 0.5))
