"""The tone lexicon of the offline engine (pure): a session's tone, its emotional weight and the
user's most frequent content words (the one-liner's topics, the episode's tags and importance).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from services.reflection_writer.model import Message
from services.reflection_writer.text import STOPWORDS, fold

TONE_LEXICON: dict[str, tuple[str, ...]] = {
    "stressed": (
        "stressed",
        "stress",
        "overwhelmed",
        "anxious",
        "anxiety",
        "worried",
        "worry",
        "nervous",
        "panic",
        "panicking",
        "pressure",
        "swamped",
    ),
    "frustrated": (
        "frustrated",
        "frustrating",
        "annoyed",
        "angry",
        "furious",
        "irritated",
        "fed up",
        "pissed",
    ),
    "sad": (
        "sad",
        "lonely",
        "depressed",
        "miserable",
        "upset",
        "hurt",
        "crying",
        "cried",
        "heartbroken",
        "grief",
    ),
    "tired": ("tired", "exhausted", "drained", "sleepy", "burnt out", "burned out", "worn out"),
    "happy": (
        "happy",
        "glad",
        "excited",
        "proud",
        "grateful",
        "thrilled",
        "relieved",
        "amazing",
        "awesome",
        "great news",
    ),
    "hopeful": ("hopeful", "optimistic", "looking forward", "motivated", "can't wait"),
}
_TONE = {
    label: re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b")
    for label, words in TONE_LEXICON.items()
}

_CHATTY = frozenset(
    """think know want going like yeah okay thing things time today really
maybe actually would could make need good well right sure thanks thank tomorrow yesterday
tonight week something anything everything nothing someone because since after gonna wanna
kind sort lot lots little bit feel feeling felt got get getting morning evening night
hello yes yep nope okay fine way day let put take go went come back see said tell""".split()
)


def emotional_hits(text: str) -> int:
    folded = fold(text)
    return sum(len(pattern.findall(folded)) for pattern in _TONE.values())


def tone(messages: Sequence[Message]) -> str:
    counts: Counter[str] = Counter()
    for message in messages:
        if message.role != "user":
            continue
        folded = fold(message.text)
        for label, pattern in _TONE.items():
            counts[label] += len(pattern.findall(folded))
    order = list(TONE_LEXICON)
    ranked = sorted(
        (c for c in counts.items() if c[1] > 0), key=lambda c: (-c[1], order.index(c[0]))
    )
    return ", ".join(label for label, _ in ranked[:2]) or "neutral"


def keywords(messages: Sequence[Message], n: int = 3, exclude: Sequence[str] = ()) -> list[str]:
    """The user's most frequent content words (≥ 3 letters, no past tenses), first-seen order
    on ties."""
    skip = {fold(x) for x in exclude} | {w for words in TONE_LEXICON.values() for w in words}
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    for message in messages:
        if message.role != "user":
            continue
        for word in re.findall(r"[a-z][a-z'-]+", fold(message.text)):
            if (
                len(word) < 3
                or word in STOPWORDS
                or word in _CHATTY
                or word in skip
                or "'" in word
                or word.endswith("ed")
            ):
                continue
            counts[word] += 1
            first.setdefault(word, len(first))
    return sorted(counts, key=lambda w: (-counts[w], first[w]))[:n]
