"""The turn search's query with the people it names taken out of its dense half.

A raw turn's dense vector is of ``speaker: text``, so a question that names a person ("What
did Melanie research?") is near everything that person said, on any topic, and the entity
boost (:mod:`.fusion`) lifts those turns once more. LoCoMo's adversarial questions name the
wrong speaker, and the first ten were filled with that speaker's small talk; a question that
names the right one still found the topic less well than its words alone would. The
``messages`` search (and the standing search beside it) therefore uses
``SHARE · q' + (1 - SHARE) · q`` (normalised), ``q'`` the vector of the question with the
seed entities' names and aliases replaced by "they" — people only (category ``Person``): a
project, a place or a tool the question names is its topic, not a speaker; and never the
person's own entity ("me"). The BM25 half
and every other collection keep the question as asked, and the entity boost still favours
the named person's turns.
Fitted on split A only (``bench/recall/fit.py`` offline: LoCoMo conv-26/30, BEAM 1-5):
LoCoMo turn R@10 0.764 → 0.799, adversarial 0.662 → 0.824, session R@10 0.954 → 0.967,
BEAM unchanged (its questions name nobody); ``SHARE`` 1.0 gives 0.772 / 0.838, 0.7
0.798 / 0.838, 0.3 0.787 / 0.754; the names taken out of the BM25 half too, 0.803 / 0.824.

Its cost: the names come with the continuity read (one statement rag-gate runs anyway), and
the question with and without them are embedded in one call (:func:`texts`; one model run for
both where the embedder batches them, :meth:`~services.core.minilm.MiniLMEmbedder.embed_queries`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from services.rag_gate.continuity import SeedName

SHARE = 0.5
PLACEHOLDER = "they"


def texts(query: str, names: Sequence[SeedName]) -> list[str]:
    """What the retrieve embeds: the query, and the query without the people it names when it
    names one of ``names`` (Persons only, never the person's own entity)."""
    people = [n.name for n in names if n.person]
    other = without_names(query, people) if people and SHARE > 0 else None
    return [query] if other is None else [query, other]


def without_names(query: str, names: Sequence[str]) -> str | None:
    """``query`` with each of ``names`` (whole words, any case, a possessive 's with it)
    replaced by :data:`PLACEHOLDER`, longest names first; None when it names none of them."""
    out = query
    for name in sorted({n.strip() for n in names if n and n.strip()}, key=len, reverse=True):
        out = re.sub(rf"(?<!\w){re.escape(name)}(?:'s|’s)?(?!\w)", PLACEHOLDER, out, flags=re.I)
    return out if out != query else None


def mixed(asked: Sequence[float], unnamed: Sequence[float]) -> list[float]:
    """``SHARE · unnamed + (1 - SHARE) · asked``, normalised to unit length."""
    v = [SHARE * u + (1 - SHARE) * a for a, u in zip(asked, unnamed, strict=True)]
    norm = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / norm for x in v]
