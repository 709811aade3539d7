"""Finding names in a message the way Postgres stores them (pure: no I/O).

Names and aliases are stored normalized by ``twin_normalize`` = ``lower(unaccent())``; the keys
are folded the same way (:func:`services.core.text.fold`, with its offsets into the message).

:func:`scan` turns a message into the lookup keys — every run of 1–4 whole words, as written
between them and single-spaced, with a trailing possessive (``Marta's``, ``Marta’s``, ``James'``)
also stripped — so one indexed ``= ANY(keys)`` query finds every name the message can contain,
without loading the user's entities. Words are whole tokens: ``tomorrow`` never yields ``tom``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from services.core.text import fold, folded_with_offsets

MAX_WORDS = 4  # longest name looked up, in words ("Aunt Rosa", "New York City")
MAX_KEY_CHARS = 255  # entities.name / entity_aliases.alias are at most 255 characters
MAX_KEYS = 4_000  # a pasted essay stops contributing keys here (Telegram caps at 4,096 chars)

PRONOUNS = frozenset(
    {
        "he",
        "she",
        "they",
        "him",
        "her",
        "it",
        "them",
        "his",
        "hers",
        "their",
        "theirs",
        "its",
        "himself",
        "herself",
        "themselves",
        "itself",
    }
)

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")  # letters/digits, inner apostrophes (o'brien)


def dedupe_key(text: str) -> str:
    """Text as compared for duplicates: folded, words only ("Call Márta!" = "call marta")."""
    return " ".join(_WORD.findall(fold(text).replace("'", " ")))


class Span(NamedTuple):
    """A run of words of the message: token indexes ``[first, last]`` and where it was written."""

    first: int
    last: int
    start: int  # character offsets in the original message
    end: int


@dataclass(frozen=True, slots=True)
class Scan:
    keys: tuple[str, ...]  # normalized lookup keys, in message order, unique
    spans: dict[str, tuple[Span, ...]]  # where each key occurs
    pronouns: tuple[str, ...]  # pronouns found, in order


def _strip_possessive(word: str) -> str | None:
    if word.endswith("'s") and len(word) > 2:
        return word[:-2]
    return None


def scan(message: str) -> Scan:
    """Every lookup key the message can match, where it occurs, and the pronouns it uses."""
    folded, origin = folded_with_offsets(message)
    tokens = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(folded)]
    pronouns = tuple(stem for _, _, word in tokens if (stem := word.split("'", 1)[0]) in PRONOUNS)
    spans: dict[str, list[Span]] = {}

    def add(key: str, span: Span) -> None:
        if key and len(key) <= MAX_KEY_CHARS:
            spans.setdefault(key, []).append(span)

    for first in range(len(tokens)):
        if len(spans) >= MAX_KEYS:
            break
        for last in range(first, min(first + MAX_WORDS, len(tokens))):
            start, end = tokens[first][0], tokens[last][1]
            base = _strip_possessive(tokens[last][2])
            words = [word for _, _, word in tokens[first : last + 1]]
            as_written = folded[start:end]
            single_spaced = " ".join(words)
            span = Span(first, last, origin[start], origin[end - 1] + 1)
            add(as_written, span)
            if single_spaced != as_written:
                add(single_spaced, span)
            if base is not None:
                bare = Span(first, last, origin[start], origin[end - 3] + 1)
                add(as_written[:-2], bare)
                add(" ".join([*words[:-1], base]), bare)
    unique = {key: tuple(dict.fromkeys(found)) for key, found in spans.items()}
    return Scan(keys=tuple(unique), spans=unique, pronouns=pronouns)
