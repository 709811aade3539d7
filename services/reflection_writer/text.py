"""Text primitives the pure modules share (no I/O): sentences, folding, content stems, link
words.

``fold`` is ``twin_normalize`` (:mod:`services.core.text`, the one fold) with whitespace
squeezed, as these modules compare texts; exact entity-name matching is done by Postgres itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from services.core import text as core_text
from services.core.text import squeeze

_SENTENCE = re.compile(r"(?<=[.!?…])\s+|\n+")
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
_SPACES = re.compile(r"\s+")

STOPWORDS = frozenset(
    """
a an the and or but if of to in on at for from by with about as into onto over under than then
is am are was were be been being do does did doing have has had having will would shall should
can could may might must it its it's this that these those there here what which who whom whose
i me my mine myself we us our ours ourselves you your yours he him his she her hers they them
their theirs i'm i've i'll i'd we're we've you're he's she's they're it'd that's there's
not no nor so too very just also again still even really quite some any all each every much
many more most less few own same other such only up down out off how when where why
user users said says say saying stated states state mentioned mentions mention told tells tell
explained explains noted notes shared shares expressed expresses reported reports felt feel
feels because since after why due therefore hence thus cause causes caused made makes led leads
result
""".split()
)

# Words a user links two things with (003 §11: Evidence = explicit links the user stated).
# Causal markers claim a cause; temporal ones only an order ("I slept better after the walk").
CAUSAL_MARKERS: tuple[str, ...] = (
    "because",
    "cause",
    "'cause",
    "since",
    "that's why",
    "thats why",
    "which is why",
    "that is why",
    "therefore",
    "so that",
    "due to",
    "caused",
    "causes",
    "causing",
    "made me",
    "makes me",
    "as a result",
    "hence",
    "thus",
    "led to",
    "leads to",
    "result of",
)
TEMPORAL_MARKERS: tuple[str, ...] = ("after", "ever since", "whenever", "every time")
_CAUSAL = re.compile(
    r"(?:^|[,;:—–-]\s*|\.\s+)so\b|\b(?:"
    + "|".join(re.escape(m).replace(r"\ ", r"\s+") for m in CAUSAL_MARKERS)
    + r")\b",
    re.IGNORECASE,
)
_TEMPORAL = re.compile(
    r"\b(?:" + "|".join(re.escape(m).replace(r"\ ", r"\s+") for m in TEMPORAL_MARKERS) + r")\b",
    re.IGNORECASE,
)


def fold(text: str) -> str:
    """A text as this package compares it: Postgres's ``twin_normalize``
    (:func:`services.core.text.fold`), whitespace squeezed: ``"Márta’s  cat"`` → ``"marta's cat"``.
    """
    return squeeze(core_text.fold(text))


def sentences(text: str) -> list[str]:
    """Sentences of a message, trimmed, empty ones dropped."""
    return [s.strip() for s in _SENTENCE.split(text or "") if s and s.strip()]


def words(text: str) -> list[str]:
    return _WORD.findall(fold(text))


def stem(word: str) -> str:
    """A crude suffix stripper: enough for 'skipped'/'skip', 'worries'/'worry', 'runs'/'run'."""
    for suffix, repl in (
        ("ies", "y"),
        ("ied", "y"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
        ("ly", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)] + repl
            break
    if len(word) >= 4 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]  # skipp -> skip, runn -> run
    return word


def content_stems(text: str) -> set[str]:
    """The stems of a text's content words (stopwords, reporting verbs and pronouns dropped)."""
    return {stem(w) for w in words(text) if w not in STOPWORDS}


def has_causal(text: str) -> bool:
    return bool(_CAUSAL.search(fold(text)))


def has_temporal(text: str) -> bool:
    return bool(_TEMPORAL.search(fold(text)))


def has_link(text: str) -> bool:
    return has_causal(text) or has_temporal(text)


def clip(text: str, limit: int) -> str:
    """Whitespace collapsed and cut at ``limit`` characters (on a word boundary, with '…')."""
    text = _SPACES.sub(" ", text or "").strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:-") + "…"


def unique(items: Iterable[str], limit: int | None = None) -> list[str]:
    """Items in first-seen order without case/accent-insensitive repeats, at most ``limit``."""
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        key = fold(item)
        if not key or key in seen:
            continue
        seen.add(key)
        out.append(item)
        if limit is not None and len(out) >= limit:
            break
    return out
