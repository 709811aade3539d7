"""The one ``fold`` (``services/core/text.py``) against Postgres's own ``twin_normalize``."""

from __future__ import annotations

import pytest

from services.core.deps import Clients
from services.core.text import fold, folded_with_offsets, squeeze
from services.memory_upserter.text import fold as upserter_fold
from services.reflection_writer.text import fold as reflection_fold

LATIN = "".join(chr(c) for c in [*range(0x20, 0x7F), *range(0xA0, 0x180)])
PUNCTUATION = "‘’‛ʼ“”‟„‚‐‑‒–—―"
TRICKY = [
    "Márta’s",
    "Ma\u0301rta\u2019s",  # decomposed: a combining acute after the a
    "  Two\tspaces  here ",  # whitespace is kept as written
    "A\u00a0B",  # a no-break space stays one
    "ﬁnance ﬂat",
    "Ｍａｒｔａ",  # full-width
    "ǅemal Ǆ Ĳssel",
    "ΟΔΟΣ Σοφία",  # no final-sigma rule: one character at a time
    "Ḿárta Ẍ",
    "“Quoted” ‘single’",
    "José–María — ok",
    "Ωmega Ñandú ẞ Wrocław İzmir Æble ÀÉÎÕÜ Zoë Dvořák",
    "½ cup",
    "Łódź Straße ØRESUND Æsir Þór Œuvre Ça",
]


async def _normalized(resources: Clients, texts: list[str]) -> dict[str, str]:
    rows = await resources.db.fetch(
        "SELECT t, twin_normalize(t) AS n FROM unnest($1::text[]) t", texts
    )
    return {r["t"]: r["n"] for r in rows}


async def test_fold_agrees_with_twin_normalize_on_latin_1_extended_a_and_punctuation(
    resources: Clients,
) -> None:
    normalized = await _normalized(resources, list(LATIN + PUNCTUATION))
    assert {c: n for c, n in normalized.items() if n != fold(c)} == {}


async def test_fold_agrees_with_twin_normalize_on_tricky_phrases(resources: Clients) -> None:
    normalized = await _normalized(resources, TRICKY)
    assert {t: (n, fold(t)) for t, n in normalized.items() if n != fold(t)} == {}


def test_the_possessive_folds_the_same_in_every_node() -> None:
    """Three folds used to give three answers for "Márta’s"; the packages that compare texts
    squeeze whitespace on top of the one fold, nothing else."""
    assert fold("Márta’s") == "marta's"
    assert upserter_fold("Márta’s") == reflection_fold("Márta’s") == "marta's"
    for text in TRICKY:
        assert upserter_fold(text) == reflection_fold(text) == squeeze(fold(text))


def test_squeeze_collapses_whitespace_runs_and_trims() -> None:
    assert squeeze("  Two\tspaces  here \n") == "Two spaces here"
    assert squeeze("") == ""


@pytest.mark.parametrize("message", ["Márta’s Łódź", "Straße ½", "plain ascii", "ǅ ﬁ Ｍ"])
def test_offsets_point_each_folded_character_at_its_original(message: str) -> None:
    folded, origin = folded_with_offsets(message)
    assert folded == fold(message) and len(origin) == len(folded)
    assert origin == sorted(origin)
    for index, at in enumerate(origin):
        assert folded[index] in fold(message[at])
