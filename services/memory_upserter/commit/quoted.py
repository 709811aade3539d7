"""A plan fact that copies the person's words in another language (pure; one call from
:func:`.plan.weigh`).

A careful model states a fact in English ("Ana is getting married in May in Seville"); a small
one often copies the message instead: "User heiratet im mai, in sevilla", "Knedlik liebt das
Fensterbrett", "tengo que buscar piso porque el piso es suyo…". Such a text is not a statement
the model made: it is a quote, and memory shows it to every later prompt as if it were one.

A fact's text is a copy when at least two of its content words, and half of them, are words of
another language the lexicon knows (:mod:`services.core.lexicon`; a city's own name, "Wien",
"Sevilla", does not count: "User moved to Wien" is an English statement). Grounding reads its
words in the person's as for any fact — the owner rules drop one that puts someone else's news
on the person ("User heiratet im mai" ← "meine schwester ana heiratet im mai"). A copy that
passes is kept **lowered** (unsure: out of FOUNDATION, low importance) with a warning naming
why. Not dropped: measured on the recorded sets (bench/RESULTS.md, wt10/multi), two in three
of a small model's copies are fair ("no soy alérgica a todos los frutos secos, solo a los
cacahuetes" for ``allergic_to cacahuetes``). A first-person English copy ("I am allergic to
peanuts") is an English statement and weighed as any other.
"""

from __future__ import annotations

from services.core.gloss import ENGLISH_TOO, english
from services.core.lexicon import PLACES
from services.memory_upserter.commit.grounding import Grounding
from services.memory_upserter.text import STOP_WORDS, fold, words

__all__ = ["as_quote", "copied"]

_CITIES = frozenset(fold(f) for forms in PLACES.values() for f in forms.split())


def copied(text: str) -> bool:
    """The text copies words of another language (module docstring)."""
    said = [w for w in words(text) if w not in STOP_WORDS and not w.isdigit()]
    foreign = [w for w in said if w not in _CITIES and w not in ENGLISH_TOO and _foreign(w)]
    return len(foreign) >= 2 and len(foreign) * 2 >= len(said)


def _foreign(word: str) -> bool:
    """A word the gloss reads as another language's, in a sentence of any of them."""
    return any(fold(english(f"{word} {marker}")).split()[0] != word for marker in _PROBES)


# one sentence per language, so that a word's gloss is tried as each language reads it
_PROBES = ("ich und", "yo pero", "io sono", "eu não", "je suis")


def as_quote(text: str, found: Grounding) -> Grounding:
    """A kept fact whose text is a copy, as one kept lowered, with the reason."""
    if found.verdict != "kept" or not copied(text):
        return found
    return Grounding("lowered", "unsure: not an English statement, a copy of the person's words")
