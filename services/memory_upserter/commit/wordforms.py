"""A word as grounding (:mod:`.grounding`) meets it in the person's words (pure): a form of it
("dogs" ~ "dog", "moving" ~ "move"), a number or a short name for it ("two" → 2, "tue" →
tuesday), a contraction's words, a word of its standard family (:data:`.support.FAMILIES`), or
its English when the person wrote in another language (:mod:`services.core.gloss`)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from services.core.gloss import english
from services.memory_upserter.commit.support import FAMILIES, SHORT_NAMES
from services.memory_upserter.text import NUMBER_WORDS, words

__all__ = ["bag_of", "norm", "normalised", "said_in", "said_word", "stem"]


# Said in another form (grounding's bag of words): a number glued to its unit, an ordinal,
# a contraction typed without (or split at) its apostrophe.
ORDINAL = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)$")
UNIT = re.compile(r"^(\d+(?:[.,]\d+)?)([a-z]{1,3})$")
# contractions as typed without the apostrophe (or split by it: "don", "t")
CONTRACTIONS = {
    **{
        f"{w}nt": (w, "not") for w in "do does did is was are were have has had could would".split()
    },
    **{f"{w}n": (w, "not") for w in "do does did is was are were have has had could would".split()},
    **{"cant": ("can", "not"), "wont": ("will", "not"), "shouldnt": ("should", "not")},
    **{"never": ("not",), "nah": ("not",), "nope": ("not",)},
}


def stem(word: str) -> str:
    """A crude stem: a plural, an -ing or -ed form, a silent e ("move", "moving") meet."""
    if len(w := word) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 4 and w.endswith(("sses", "shes", "ches", "xes", "zes")):
        w = w[:-2]
    elif len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ing", "ed"):
        if len(w) > len(suffix) + 2 and w.endswith(suffix):
            w = w[: -len(suffix)]
            break
    double = len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls"  # running → run
    silent_e = len(w) > 3 and w[-1] == "e" and w[-2] not in "aeiouy"  # move → mov, as moving
    return w[:-1] if double or silent_e else w


def _same(w: str, s: str) -> bool:
    """One word in two forms: equal, one stem, or one a close prefix of the other."""
    if w == s or stem(w) == stem(s):
        return True
    if len(w) < 4 or len(s) < 4:
        return False
    return s.startswith(w[: max(4, len(w) - 2)]) or w.startswith(s[: max(4, len(s) - 2)])


def norm(word: str) -> str:
    ordinal = ORDINAL.match(word)
    if ordinal:
        return ordinal[1].lstrip("0")
    return NUMBER_WORDS.get(word) or SHORT_NAMES.get(word, word)


def _forms(word: str) -> tuple[str, ...]:
    """The word, and what it stands for: a number and its unit, a contraction's words."""
    unit = UNIT.match(word)
    if unit:
        return (word, unit[1], unit[2])
    return (word, *CONTRACTIONS.get(word, ()))


def bag_of(texts: Iterable[str]) -> set[str]:
    """Every word of ``texts`` in its forms, and the English of a word of another language
    ("schwester" → sister, "wien" → vienna: :mod:`services.core.gloss`)."""
    return {norm(f) for text in texts for w in _words(text) for f in _forms(w)}


def _words(text: str) -> list[str]:
    said = words(text)
    glossed = words(english(text))
    return said if glossed == said else [*said, *glossed]


def said_in(word: str, bag: frozenset[str]) -> bool:
    if word.isdigit():
        return word.lstrip("0") in bag or word in bag
    return word in bag or any(_same(word, s) for s in bag)


def normalised(word: str, bag: frozenset[str]) -> bool:
    return any(
        any(_same(word, member) for member in family)
        and any(said_in(member, bag) for member in family)
        for family in FAMILIES
    )


def said_word(word: str, bag: frozenset[str]) -> bool:
    """The word, in a form or a word of its family, is in ``bag`` (a family first: read once)."""
    return normalised(word, bag) or said_in(word, bag)
