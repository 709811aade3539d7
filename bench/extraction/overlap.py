"""Does a write say what an observation says? The matcher of LoCoMo coverage (issue 28).

The first matcher (:func:`judge_run.content`) counted a word only with 4+ letters, so a right
"User has a dog named Max" never met "… a dog named Max", nor "lost my job" "losing her job".
This one compares *content stems*: every word of 3+ letters that is not a function word or a
word of the bench's own phrasing ("user", the person's name), each reduced by the write path's
own stemmer (:func:`grounding.stem`), irregular forms and a few everyday synonyms mapped first
("lost"/"losing" → lose, "kids" → child, "mom" → mother, "pup" → dog). Names of 3+ letters are
content words ("Max", "Leo"). The same matcher for both splits and both speakers.

- **partial**: the write shares at least one content stem with the observation;
- **strict**: it shares at least two, or every one when the observation has fewer than two.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from services.memory_upserter.commit.grounding import stem
from services.memory_upserter.commit.read import fold
from services.memory_upserter.text import STOP_WORDS

# Function words, auxiliaries and chat filler of 3+ letters (the text module's list aside),
# and the words of a fact's own phrasing.
_FILLER = frozenset(
    """not but nor yet can could did does doing done has had have having got get gets getting
was were are will would shall should may might must let lets via per out off own too very just
also even still ever again now then than there here where when what why how who else once about
after before during over under into onto upon within without through around along across
really things thing lot lots way ways day days time times year years new old good great nice
big small little one ones two first last next other others same recent recently currently
user users person people someone something anything everything said says say told tells
make makes made like likes liked love loves loved want wants wanted feel feels felt
being went goes going come comes came keep keeps kept""".split()
)
_IRREGULAR = {
    "lost": "lose", "losing": "lose", "loses": "lose", "went": "go", "gone": "go",
    "bought": "buy", "ran": "run", "won": "win", "taught": "teach", "began": "begin",
    "begun": "begin", "grew": "grow", "grown": "grow", "wrote": "write", "written": "write",
    "drew": "draw", "drawn": "draw", "sang": "sing", "sung": "sing", "swam": "swim",
    "met": "meet", "left": "leave", "fell": "fall", "fallen": "fall", "broke": "break",
    "broken": "break", "built": "build", "found": "find", "held": "hold", "took": "take",
    "taken": "take", "gave": "give", "given": "give", "saw": "see", "seen": "see",
    "kids": "child", "kid": "child", "children": "child", "kiddos": "child",
    "mom": "mother", "mum": "mother", "mommy": "mother", "dad": "father", "daddy": "father",
    "pup": "dog", "puppy": "dog", "puppies": "dog", "doggo": "dog", "kitten": "cat",
    "kitty": "cat", "hubby": "husband", "bro": "brother", "sis": "sister",
    "grandma": "grandmother", "grandpa": "grandfather", "bday": "birthday",
}  # fmt: skip


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", fold(text))


def stems(text: str, names: Iterable[str] = ()) -> set[str]:
    """The content stems of ``text``; ``names`` (folded) are the person's own, left out."""
    own = {w for n in names for w in words(n)}
    out = set()
    for w in words(text):
        if len(w) < 3 or w in STOP_WORDS or w in _FILLER or w in own:
            continue
        out.add(stem(_IRREGULAR.get(w, w)))
    return out


def shared(wanted: set[str], written: set[str]) -> tuple[bool, bool]:
    """(strict, partial) match of an observation's stems against a turn's written stems."""
    common = len(wanted & written)
    return common >= min(2, len(wanted)) and common > 0, common > 0
