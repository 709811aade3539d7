"""A known name the person sets apart in their own words (pure): "ana from work (brightwave
ana, not uni ana)" names a second Ana even when a plan names her bare ("subject": "ana", no
``entities`` entry, no ``distinct_from``: a small model never writes one).

:func:`qualifiers` reads what the person put with the name: the words that place them ("ana
from work" → work, "brightwave ana" before a contrast → brightwave) and whether they contrast
the name with another of that name ("not uni ana", "a different ana", "another ana").
:func:`apart_from` decides, against the user's namesakes: a namesake an alias of which the
person used ("work Ana") is that one; a contrast, or a place none of the namesakes has (their
aliases "uni Ana", their relation's group: a friend is not work), is someone new — the caller
writes a new entity ``distinct_from`` the namesake with the aliases the words give ("work Ana",
"brightwave Ana"), so the two are never merged and a later bare "ana" asks which one.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from services.memory_upserter.extract.people import Known, group_of
from services.memory_upserter.text import STOP_WORDS, fold

# Words that place a person in the user's life ("ana from work", "uni ana"), and their group.
PLACES = {
    "work": "work", "office": "work", "job": "work", "team": "work",
    "uni": "school", "university": "school", "college": "school", "school": "school",
    "class": "school", "gym": "gym", "church": "church", "home": "family",
}  # fmt: skip
_NOT_QUALIFIERS = STOP_WORDS | frozenset("call text see tell ask met saw not also and but".split())


@dataclass(frozen=True)
class Qualified:
    places: tuple[str, ...] = ()  # the words that place the one meant ("work", "brightwave")
    contrasted: tuple[str, ...] = ()  # the words of the other one ("uni" in "not uni ana")
    different: bool = False  # "a different ana", "another ana", "not the same ana"


def qualifiers(name: str, said: Sequence[str]) -> Qualified:
    """What the person's words put with ``name`` (module docstring)."""
    key = re.escape(fold(name).strip())
    text = fold(" ".join(said))
    contrasted = re.findall(rf"\bnot\s+(?:the\s+|my\s+)?(\w+)\s+{key}\b", text) + re.findall(
        rf"\bnot\s+(?:the\s+)?{key}\s+from\s+(?:the\s+)?(\w+)", text
    )
    different = bool(re.search(rf"\b(?:a\s+different|another|not\s+the\s+same)\s+{key}\b", text))
    places = re.findall(rf"(?<!not )\b{key}\s+from\s+(?:the\s+|my\s+)?(\w+)", text)
    for start, word in re.findall(rf"(^|[(,;:]\s*|\s)(\w+)\s+{key}\b", text):
        # another word before the name places them only after a bracket or a comma
        # ("(brightwave ana, not uni ana)"), where a contrast is said
        told = bool(start.strip()) and contrasted and word not in _NOT_QUALIFIERS
        if word in PLACES or told:
            places.append(word)
    places = [p for p in dict.fromkeys(places) if p not in contrasted]
    return Qualified(tuple(places), tuple(dict.fromkeys(contrasted)), different)


def _group(word: str) -> str:
    return PLACES.get(word, word)


def placed(known: Known, name: str) -> set[str]:
    """Where the user's words placed a namesake: the other words of an alias of theirs that
    holds the name ("uni Ana" → uni, school)."""
    key, out = fold(name).strip(), set()
    for alias in known.aliases:
        words = fold(alias).split()
        if len(words) > 1 and key in words:
            rest = [w for w in words if w != key]
            out |= set(rest) | {_group(w) for w in rest}
    return out


def apart_from(
    name: str, namesakes: Sequence[Known], said: Sequence[str], roles: Collection[str] = ()
) -> tuple[Known | None, tuple[str, ...]]:
    """``(namesake, aliases)``: the name means someone new, apart from ``namesake``, known by
    ``aliases``; ``(None, ())``: the words set nothing apart (the namesakes decide as before).
    The one namesake holding a relation the name is said with (``roles``: "my sister
    marta") is that one, whatever else the message contrasts ("a different Marta from my sister
    Marta"), unless it is "my other sister marta". A namesake placed where the person places
    the one meant is that one; else a contrast ("not uni ana", "another ana") or every namesake
    placed elsewhere makes a new one."""
    if not namesakes or any(k.entity_id is None for k in namesakes):
        return None, ()
    if sum(any(r in k.roles for r in roles) for k in namesakes) == 1:
        key = re.escape(fold(name).strip())
        if not re.search(rf"\b(?:other|another)\s+(?:\w+\s+)?{key}\b", fold(" ".join(said))):
            return None, ()
    q = qualifiers(name, said)
    if not (q.places or q.contrasted or q.different):
        return None, ()
    mine = set(q.places) | {_group(p) for p in q.places}
    if any(placed(k, name) & mine for k in namesakes):
        return None, ()
    if q.contrasted or q.different or (mine and all(placed(k, name) for k in namesakes)):
        shown = name.strip()[:1].upper() + name.strip()[1:]
        return namesakes[0], tuple(f"{p} {shown}" for p in q.places) or (f"other {shown}",)
    return None, ()


def placed_here(name: str, namesakes: Sequence[Known], said: Sequence[str]) -> Known | None:
    """The only namesake placed where the person's words place the one meant ("ana from
    work" is "work Ana", beside "uni Ana"); None when none or several are."""
    q = qualifiers(name, said)
    mine = set(q.places) | {_group(p) for p in q.places}
    here = [k for k in namesakes if placed(k, name) & mine] if mine else []
    return here[0] if len(here) == 1 else None


def confirmed(alias: str, name: str, said: Sequence[str], roles: Collection[str] = ()) -> bool:
    """An alias of ``name`` ("work Priya", the distinguishing alias the answer format asks
    for) whose other words the person's own words confirm: each said or placed in its group
    ("priya from my team": work), the group of a relation they hold ("friend Priya":
    HAS_FRIEND), or "other" where the words set the name apart ("a different priya")."""
    rest = [w for w in fold(alias).split() if w not in fold(name).split()]
    heard = {_group(w) for w in re.findall(r"\w+", fold(" ".join(said)))}
    heard |= {g for g in map(group_of, roles) if g}
    q = qualifiers(name, said)
    if q.different or q.contrasted:
        heard.add("other")
    return bool(rest) and all(_group(w) in heard for w in rest)
