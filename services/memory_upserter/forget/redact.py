"""Forget exactly what was asked (pure): the sentences of a text that name a forgotten entity
(by a name or alias, as a whole word) or contain a forgotten text go; the rest of the text
stays as it was written. A message that merely mentions a person keeps what it says about
everything else; one made only of such sentences has nothing left and goes whole.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from services.memory_upserter.text import fold

# Where a text splits into sentences: after . ! ? (with any closing quote or bracket) and at
# line breaks; the separators are kept, so what stays reads as it was written.
_SPLIT = re.compile(r"(?<=[.!?])[\"')\]]*\s+|\n+")


# A sentence that goes on about the one before it by a pronoun ("She moved to Porto.", "I'll
# call her tomorrow.") goes with it.
_GOES_ON = re.compile(r"\b(?:she|he|her|his|him|hers|they|them|their)\b", re.IGNORECASE)


class Needles:
    """What a forget removes from texts: entity names and aliases (whole words), and texts
    (substrings), both compared folded."""

    def __init__(self, names: Sequence[str] = (), texts: Sequence[str] = ()) -> None:
        folded = sorted({fold(n) for n in names if n.strip()}, key=len, reverse=True)
        self._names = (
            re.compile(r"\b(?:" + "|".join(map(re.escape, folded)) + r")\b") if folded else None
        )
        self.texts = tuple(t for t in (fold(x) for x in texts) if t)

    def __bool__(self) -> bool:
        return bool(self._names or self.texts)

    def found_in(self, text: str) -> bool:
        """The text names a forgotten entity or contains a forgotten text."""
        folded = fold(text)
        return bool(self._names and self._names.search(folded)) or any(
            t in folded for t in self.texts
        )


def redact(text: str, needles: Needles) -> str:
    """``text`` without its sentences that :meth:`Needles.found_in`, nor a sentence right after
    one of them that goes on about it with a pronoun; stripped, "" when nothing is left. A
    text that holds none of them comes back unchanged."""
    if not needles.found_in(text):
        return text
    pieces: list[str] = []
    start = 0
    for match in _SPLIT.finditer(text):
        pieces.append(text[start : match.end()])
        start = match.end()
    pieces.append(text[start:])
    kept: list[str] = []
    dropped = False
    for piece in pieces:
        dropped = needles.found_in(piece) or (dropped and bool(_GOES_ON.search(piece)))
        if piece.strip() and not dropped:
            kept.append(piece)
    rest = "".join(kept)
    if needles.found_in(rest):  # a forgotten text spanning sentences: nothing of it may stay
        return ""
    return rest.strip()
