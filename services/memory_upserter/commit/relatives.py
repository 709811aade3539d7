"""Relatives a small model states as plain values (pure; read by :mod:`.lenient`): the words
for a relation (:data:`ROLE_WORDS`, :data:`SHORT_ROLES`: "sis", "gf") and whether a value is
a person's name (:func:`is_name`, "my buddy ana" typed lowercase included)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from contracts.relations import ROLES
from services.memory_upserter.text import STOP_WORDS, fold

# --- a relative stated as a plain value ------------------------------------------------------
# A small model writes the person's sister as {"predicate": "sister", "value": "Joana"}: a text
# linked to nobody, so "my sister" never finds Joana and a second sister is never told apart. A
# fact about the person whose predicate is a relation word (ROLES: sister, gf, best friend,
# dog…, with or without HAS_) and whose value is a name is that relation with the name as its
# object (HAS_SISTER → Joana), resolved like any entity the plan names; "a nurse", "2" or
# "engaged" is no name and stays a value.
SELF_HANDLES = frozenset({"user", "me", "self", "i", "myself", "self:user", "the user"})
ROLE_WORDS = {word.replace(" ", "_").replace("-", "_").upper(): word for word in ROLES}
SHORT_ROLES = {
    "GF": "girlfriend", "BF": "boyfriend", "BFF": "best friend", "BESTIE": "best friend",
    "SIS": "sister", "BRO": "brother", "WIFEY": "wife", "HUBBY": "husband",
}  # fmt: skip
_NAME_WORD = re.compile(r"[A-ZÀ-Ý][\w'’-]*")
_NOT_NAMES = frozenset("none unknown yes no engaged married single divorced deceased".split())


_NOT_RELATION_WORDS = frozenset("got has had gets looks seems feels so very too really".split())


def is_name(value: str, text: str, said: Sequence[str] = ()) -> bool:
    """One to three words, each capitalised (in the value, as the fact's text writes it, or
    typed lowercase by the person right after "my <relation>": "my buddy ana"), none a common
    word."""
    parts = value.split()
    if not 1 <= len(parts) <= 3 or fold(value) in _NOT_NAMES:
        return False
    if any(fold(p) in STOP_WORDS or not p[:1].isalpha() for p in parts):
        return False
    spelled = rf"\bmy\s+((?:[\w-]+\s+){{1,2}}){re.escape(fold(value))}\b"
    for found in (m for t in said for m in re.finditer(spelled, fold(t))):
        if not set(found[1].split()) & (STOP_WORDS - {"other"} | _NOT_RELATION_WORDS):
            return True  # "my buddy ana", never "my cat is old"
    for part in parts:
        written = re.search(rf"(?<!\w){re.escape(part)}(?!\w)", text, re.IGNORECASE)
        if not _NAME_WORD.fullmatch(part) and not (written and _NAME_WORD.fullmatch(written[0])):
            return False
    return True
