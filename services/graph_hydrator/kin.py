"""Relation words: "my sister", "my wife", "my boss", "my best friend", "my sisters" — pure.

A relation word is "my" (or "our") followed by a role of :data:`contracts.relations.ROLES`
(optionally after one qualifier: "my older sister", "my other sister"), singular or plural
("my sisters", "our kids", "my parents"). It names the entities the person's own entity
(``self:user``) is related to by that role, in either direction of the write vocabulary:
``user HAS_SISTER x``, ``x SISTER_OF user``, or a symmetric predicate (``MARRIED_TO``).

The store returns, for each entity it finds, the relations linking it to the person
(``EntityRow.kin``: ``HAS_SISTER`` when the person is the subject, ``^SISTER_OF`` when the
person is the object); :func:`matches` reads them. A singular word resolves like a name (003
§10: one match → it; several → active → most recent → topic → ask); a plural one seeds every
match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from contracts.relations import GROUPS, ROLES, SYMMETRIC, has_predicate, of_predicate
from services.core.text import fold, folded_with_offsets

INVERSE = "^"  # prefix of a relation read from the relative's side (``^SISTER_OF``)

_QUALIFIERS = (
    "older",
    "younger",
    "little",
    "big",
    "baby",
    "twin",
    "new",
    "other",
    "elder",
    "eldest",
    "oldest",
    "youngest",
    "two",
    "three",
)
_PLURAL_OF = {
    **{f"{role}s": role for role in ROLES if not role.endswith("s")},
    "bosses": "boss",
    "fiances": "fiance",
}
_WORDS = sorted({*ROLES, *_PLURAL_OF, *GROUPS}, key=len, reverse=True)
_PATTERN = re.compile(
    r"\b(?:my|our)\s+(?:(?:"
    + "|".join(_QUALIFIERS)
    + r")\s+)?(?P<role>"
    + "|".join(re.escape(fold(w)) for w in _WORDS)
    + r")(?=$|[^\w'-]|'s\b|'(?!\w))"
)
_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


@dataclass(frozen=True, slots=True)
class KinWord:
    """One relation word of the message: where it is, its role, the labels it names."""

    text: str  # as written: "my sister"
    role: str  # singular role word: "sister" ("parents" for a group)
    labels: tuple[str, ...]
    plural: bool
    start: int
    end: int
    first: int  # token indexes, as in :class:`text.Span`
    last: int


def find(message: str) -> list[KinWord]:
    """The relation words of ``message``, in order."""
    folded, origin = folded_with_offsets(message)
    out = []
    for m in _PATTERN.finditer(folded):
        word = m["role"]
        if word in GROUPS:
            role, labels, plural = word, GROUPS[word], True
        else:
            singular = _PLURAL_OF.get(word, word)
            role, labels, plural = singular, (ROLES[singular],), word != singular
        first = len(_TOKEN.findall(folded[: m.start()]))
        last = first + len(_TOKEN.findall(m.group(0))) - 1
        start, end = origin[m.start()], origin[m.end() - 1] + 1
        out.append(KinWord(message[start:end], role, labels, plural, start, end, first, last))
    return out


# "work marta", "marta from work": words that place a person, and the relations of that place
PLACES = {w: ("COLLEAGUE", "BOSS", "MANAGER", "CLIENT", "COFOUNDER") for w in ("work", "office")}


def place_predicates(message: str) -> list[str]:
    """The predicates of the places the message names (:data:`PLACES`), for the store to read
    each namesake's relation to the person by."""
    said = set(re.findall(r"\w+", message.casefold()))
    labels = {label for word, labels in PLACES.items() if word in said for label in labels}
    return sorted(
        {p for label in labels for p in (has_predicate(label), of_predicate(label))}
        | {p for label in labels for p in SYMMETRIC.get(label, ())}
    )


def predicates(words: Iterable[KinWord]) -> list[str]:
    """Every predicate (upper case) the store must look for, for all ``words``."""
    out: set[str] = set()
    for word in words:
        for label in word.labels:
            out |= {has_predicate(label), of_predicate(label), *SYMMETRIC.get(label, ())}
    return sorted(out)


def matches(word: KinWord, kin: Iterable[str]) -> bool:
    """Whether an entity related to the person by ``kin`` (``EntityRow.kin``) is ``word``."""
    links = set(kin)
    for label in word.labels:
        symmetric = SYMMETRIC.get(label, ())
        if has_predicate(label) in links or INVERSE + of_predicate(label) in links:
            return True
        if any(p in links or INVERSE + p in links for p in symmetric):
            return True
    return False
