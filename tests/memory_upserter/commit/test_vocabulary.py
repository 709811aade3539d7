"""One predicate vocabulary: every synonym a model writes is one canonical predicate (so
``location`` then ``lives_in`` is one memory key), and docs/schema.md lists the same table."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from services.core.memory_store.keys import (
    BY_SHAPE,
    VOCABULARY,
    canonical_predicate,
    memory_key,
    shaped_predicate,
)

SCHEMA = Path(__file__).parents[3] / "docs" / "schema.md"


@pytest.mark.parametrize(
    ("written", "literal", "canonical"),
    [
        ("location", False, "LIVES_IN"), ("lives_in", False, "LIVES_IN"),
        ("livesIn", False, "LIVES_IN"), ("home", False, "LIVES_IN"), ("city", False, "LIVES_IN"),
        ("residence", False, "LIVES_IN"), ("employer", False, "WORKS_AT"),
        ("works_for", False, "WORKS_AT"), ("employed_at", False, "WORKS_AT"),
        ("job", False, "WORKS_AT"), ("job", True, "JOB_TITLE"), ("occupation", True, "JOB_TITLE"),
        ("married", False, "MARRIED_TO"), ("married", True, "MARITAL_STATUS"),
        ("LIKES", True, "LIKES"), ("loves", True, "LIKES"), ("PLAYS", True, "PLAYS"),
    ],
)  # fmt: skip
def test_a_synonym_is_its_canonical_predicate(written: str, literal: bool, canonical: str) -> None:
    assert canonical_predicate(written, literal=literal) == canonical


def test_location_then_lives_in_is_one_memory_key() -> None:
    def key(predicate: str, place: str) -> str:
        return memory_key(
            memory_type="PROFILE",
            category="Person",
            subject_ref="self",
            fact_type="fact",
            predicate=predicate,
            object_ref=place,
        )

    assert key("location", "lisbon") == key("lives_in", "porto") == key("LIVES_IN", "rome")


def test_the_documented_table_is_the_vocabulary() -> None:
    text = SCHEMA.read_text()
    section = text[text.index("## Predicate vocabulary") :]
    section = section[: section.index("\n## ", 1)]
    documented = {
        m[1]: tuple(re.findall(r"`(\w+)`", m[2]))
        for m in re.finditer(r"^\| `(\w+)` \| (?:yes|no) \| (.*) \|$", section, re.MULTILINE)
    }
    shapes = {
        m[1]: (m[2], m[3])
        for m in re.finditer(r"^\| `(\w+)` \| `(\w+)` \| `(\w+)` \|$", section, re.MULTILINE)
    }
    assert documented == VOCABULARY
    assert shapes == BY_SHAPE


@pytest.mark.parametrize(
    ("written", "value", "text", "canonical"),
    [
        ("job", "Spotify", "User works at Spotify", "WORKS_AT"),
        ("job", None, "User works for Spotify", "WORKS_AT"),
        ("job", "Farfetch", "User works at Farfetch as a UX designer", "WORKS_AT"),
        ("job", "UX designer", "User works at Farfetch as a UX designer", "JOB_TITLE"),
        ("job", "nurse", "Ana is a nurse at Hospital Sao Joao", "JOB_TITLE"),
        ("work", None, "User works as a barista", "JOB_TITLE"),
        ("job", "Sao Joao", "Ana leaves Sao Joao", "WORKS_AT"),
        ("career", "Acme", "User's employer is Acme", "WORKS_AT"),
        ("married", "Tom", "User is married to Tom", "MARRIED_TO"),
        ("married", "married", "User is married", "MARITAL_STATUS"),
        ("job", "laid off", "User got laid off", None),  # the words do not tell: the shape does
        ("employer", "Acme", "User works as a nurse", None),  # not a spelling read by shape
    ],
)  # fmt: skip
def test_a_shape_read_spelling_takes_the_canonical_predicate_its_text_names(
    written: str, value: str | None, text: str, canonical: str | None
) -> None:
    assert shaped_predicate(written, value, text) == canonical
