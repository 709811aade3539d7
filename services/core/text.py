"""Text as Postgres normalizes it, in Python (pure: no I/O): one ``fold`` for every node.

Names, aliases and todo texts are stored normalized by ``twin_normalize`` (migration 0001:
``lower(unaccent(text))``). :func:`fold` is the same function in Python: NFKD with combining
marks dropped, lower-cased one character at a time (as Postgres does: no final-sigma rule),
plus the letters and punctuation ``unaccent`` maps that NFKD leaves alone (``ß → ss``,
``Ł → l``, ``’ → '``, ``– → -``…). ``tests/core/test_text.py`` checks it against the database
for every Latin-1 and Latin Extended-A character, the quotes and dashes, and tricky phrases.

``fold`` keeps whitespace as written (``twin_normalize`` does); a caller comparing texts whose
spacing may differ squeezes it explicitly (:func:`squeeze`). :func:`folded_with_offsets` maps
each folded character back to the original, for callers that point into the message.

Beyond those ranges ``unaccent``'s rules differ between Postgres versions (15 keeps ``ª``,
18 maps it to ``a``), so no Python function can match every server; this one matches the
rules of the Postgres the deployment runs (compose: 15).
"""

from __future__ import annotations

import re
import unicodedata

# What unaccent's rules do that NFKD + lower() does not (lower-case targets; upper-case sources
# are listed too because unaccent runs before lower()).
_UNACCENT_EXTRA = {
    "Æ": "ae",
    "æ": "ae",
    "Ð": "d",
    "ð": "d",
    "Ø": "o",
    "ø": "o",
    "Þ": "th",
    "þ": "th",
    "ß": "ss",
    "ẞ": "ss",
    "Đ": "d",
    "đ": "d",
    "Ħ": "h",
    "ħ": "h",
    "ı": "i",
    "ĸ": "q",
    "Ŀ": "l",
    "ŀ": "l",
    "Ł": "l",
    "ł": "l",
    "ŉ": "'n",
    "Ŋ": "n",
    "ŋ": "n",
    "Œ": "oe",
    "œ": "oe",
    "Ŧ": "t",
    "ŧ": "t",
    "‘": "'",
    "’": "'",
    "‛": "'",
    "ʼ": "'",
    "ʹ": "'",
    "“": '"',
    "”": '"',
    "‟": '"',
    "„": ",,",
    "‚": ",",
    "‐": "-",
    "‑": "-",
    "‒": "-",
    "–": "-",
    "—": "-",
    "―": "-",
    # The rest of Latin-1: symbols unaccent spells out, and characters NFKD would rewrite but
    # unaccent keeps (so must we, to agree on every Latin-1 character).
    "¡": "!",
    "¿": "?",
    "«": "<<",
    "»": ">>",
    "©": "(c)",
    "®": "(r)",
    "±": "+/-",
    "×": "*",
    "÷": "/",
    "\xad": "-",
    "¼": "1/4",
    "½": "1/2",
    "¾": "3/4",
    "ª": "ª",
    "º": "º",
    "¹": "¹",
    "²": "²",
    "³": "³",
    "µ": "µ",
    "¨": "¨",
    "¯": "¯",
    "´": "´",
    "¸": "¸",
    "\xa0": "\xa0",
}


def fold_char(ch: str) -> str:
    """One character as ``twin_normalize`` leaves it (may be empty or several characters)."""
    extra = _UNACCENT_EXTRA.get(ch)
    if extra is not None:
        return extra
    if ch.isascii():
        return ch.lower()
    decomposed = unicodedata.normalize("NFKD", ch)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def fold(text: str) -> str:
    """``twin_normalize`` in Python: ``fold("Márta’s") == "marta's"``."""
    if text.isascii():
        return text.lower()
    return "".join(fold_char(ch) for ch in text)


_SPACES = re.compile(r"\s+")
# Characters that change what a name is without showing (issue 31, item 8: "Mar\u200dta" is not
# "Marta" to Postgres): zero-width space/joiners, direction marks, bidi embeddings and
# overrides, the invisible operators, and the byte-order mark.
_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")


def visible(text: str) -> str:
    """``text`` without its zero-width and bidi characters: ``"Mar\u200dta"`` → ``"Marta"``."""
    return text if text.isascii() else _INVISIBLE.sub("", text)


def squeeze(text: str) -> str:
    """Runs of whitespace as one space, none at either end (``" a \t b "`` → ``"a b"``)."""
    return _SPACES.sub(" ", text).strip()


def folded_with_offsets(message: str) -> tuple[str, list[int]]:
    """The folded message and, for each of its characters, the original character's index."""
    if message.isascii():
        return message.lower(), list(range(len(message)))
    parts: list[str] = []
    origin: list[int] = []
    for index, ch in enumerate(message):
        folded = fold_char(ch)
        parts.append(folded)
        origin.extend([index] * len(folded))
    return "".join(parts), origin
