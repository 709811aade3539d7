"""The English gloss of a message in another language, word by word (pure).

"meine schwester ana heiratet im mai, in sevilla" reads "my sister ana married marry wedding
in the may, in seville": each word the lexicon knows (:mod:`services.core.lexicon`) becomes its
English, every other word stays. Not a translation: enough for grounding to find a model's
English fact in the person's words, and for the owner rules to see "my sister …".

- :func:`language`: a sentence's language — de, es, it, pt or fr — when it says two of that
  language's own little words ("ich", "und", "ya", "fue"…; none that is also an English word:
  "die", "me", "no", "im" are left out), or one and another word of the lexicon ("ich gehe
  … klettern"), or one when the message around it is in that language; None otherwise
  (English, or too short to tell).
- :func:`english`: the gloss of a whole text, sentence by sentence: the words of
  :data:`~services.core.lexicon.CONTENT` and the cities everywhere; a language's pronouns,
  articles and connectives only in a sentence of that language; a bare "mama", "oma"… in one
  as "my mom", "my grandma" ("mama bleibt bis sonntag" is the person's mother);
- :func:`with_english`: a message in another language followed by its gloss, what the rules of
  grounding read — its words, its claims ("liebt" a liking, "ich bin … in wien" a home), its
  dates ("im mai") and whose clauses they are.
"""

from __future__ import annotations

import re
from collections import Counter

from services.core.lexicon import CONTENT, FIRST_PERSON, FUNCTION, OWN_KIN, PLACES
from services.core.text import fold

__all__ = [
    "ENGLISH_TOO",
    "english",
    "english_in",
    "foreign",
    "language",
    "with_english",
]


def _table(table: dict[str, str]) -> dict[str, str]:
    """``{english: "forms …"}`` as ``{form: english}``: each form as written, then folded
    (a folded spelling never displaces a written one: it "è" is, "e" and)."""
    out = {form: en for en, forms in table.items() for form in forms.split()}
    for form, en in list(out.items()):
        out.setdefault(fold(form), en)
    return out


_CONTENT = _table({**CONTENT, **PLACES})
_FUNCTION = {lang: _table(table) for lang, table in FUNCTION.items()}
_KIN = _table(OWN_KIN)
_FIRST = _table(FIRST_PERSON)
# little words that are English words too, or typed English ("im" for "I'm"): never a sign
ENGLISH_TOO = frozenset(
    "a i o e y me no in am so as do die son will hat mi ma la le lo l j d qu da de en es est car "
    "sin con per il ha ho mes un una uno nos des du non sua su is it us".split()
)
_MARKERS = {lang: frozenset(t) - ENGLISH_TOO for lang, t in _FUNCTION.items()}
_SENTENCE = re.compile(r"([.!?\n]+|[\U0001F000-\U0001FFFF\u2600-\u27BF])")
_WORD = re.compile(r"[^\W\d_]+")
_DETERMINERS = frozenset("my your his her our their the a".split())


def _signs(text: str) -> tuple[Counter[str], int]:
    """Per language, how many of its own little words the text says; and how many words of
    another language it says that are none of them ("zweimal", "klettern")."""
    said = {w for w in _WORD.findall(text.lower())}
    said |= {fold(w) for w in said}
    return (
        Counter({lang: len(said & markers) for lang, markers in _MARKERS.items()}),
        len({w for w in said if w in _CONTENT and w not in ENGLISH_TOO}),
    )


def language(sentence: str, around: str | None = None) -> str | None:
    """The sentence's language (module docstring); ``around``: the message's, if any."""
    signs, content = _signs(sentence)
    best = max(signs, key=lambda lang: signs[lang])
    if signs[best] >= 2 or (signs[best] == 1 and content >= 1):
        return best
    if around is not None and signs[around] >= 1:
        return around
    if content >= 2:  # "mi hermana vive en madrid": its little words are English-looking
        said = {fold(w) for w in _WORD.findall(sentence.lower())}
        every = Counter({lang: len(said & set(t)) for lang, t in _FUNCTION.items()})
        lang, hits = every.most_common(1)[0]
        return lang if hits else None
    return None


def english_in(sentence: str, lang: str | None, *, plain: bool = False) -> str:
    """One sentence glossed as one in ``lang`` (None: the content words and cities alone);
    ``plain``: one English word for each (the first: "flat", not "flat apartment") and no
    article — a sentence the offline judge can read. A verb said of oneself gets its "I"
    ("vivo" → "i live")."""
    function = _FUNCTION.get(lang or "", {})
    first = _FIRST if lang is not None else {}
    out: list[str] = []
    last = ""

    def one(m: re.Match[str]) -> str:
        nonlocal last
        word = m[0].lower()
        en = function.get(word, function.get(fold(word)))
        if en is None and lang is not None and (kin := _KIN.get(word) or _KIN.get(fold(word))):
            en = kin if last in _DETERMINERS else f"my {kin}"
        if en is None and first and (en := first.get(word) or first.get(fold(word))):
            en = en.removeprefix("i ") if last == "i" else en  # "ich wohne": "i live"
        if en is None:
            en = _CONTENT.get(word) or _CONTENT.get(fold(word))
            en = m[0] if en is None else en.split()[0] if plain else en
        if plain and "the" in en.split():  # "alérgica a los cacahuetes": no article
            en = " ".join(w for w in en.split() if w != "the")
        last = en.rsplit(" ", 1)[-1]
        out.append(en)
        return en

    return _WORD.sub(one, sentence)


def english(text: str, *, plain: bool = False) -> str:
    """The whole text glossed, sentence by sentence (module docstring; ``plain``:
    :func:`english_in`)."""
    parts = _SENTENCE.split(text)
    around = language(text)
    return "".join(
        part if i % 2 else english_in(part, language(part, around), plain=plain)
        for i, part in enumerate(parts)
    )


def foreign(text: str) -> bool:
    """Some sentence of the text is in another language (:func:`language`)."""
    around = language(text)
    return any(language(part, around) for part in _SENTENCE.split(text)[::2])


def with_english(text: str) -> str:
    """The text, and below it its gloss when some sentence of it is in another language: the
    person's words as grounding reads them."""
    return f"{text}\n{english(text)}" if foreign(text) else text
