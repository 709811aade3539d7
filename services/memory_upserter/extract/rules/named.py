"""A person named in apposition to their role, the ways conversation puts it: "Sarah, my best
friend, came over", "a buddy of mine, Jake", "a friend of mine named Tom", "my friend from
college, Lisa,", "an old friend, Mark, …". The role is a word of the vocabulary's (:data:`ROLES`)
and the name a capitalised word that is no common word (:func:`.registry._name`); "a friend of
yours, Tom" and "Thanks, my friend!" name nobody of the person's. Their place in the rule
table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.keeps import _PET_ROLES, pet
from services.memory_upserter.extract.rules.registry import _CAP, _ROLES, _name, _relationship, rule
from services.memory_upserter.extract.vocabulary import ROLES

_ROLE_WORDS = r"buddy|pal|mate|bestie|bff"  # said as "friend"
_ADJ = r"(?:(?:best|old|close|good|dear|oldest|childhood|little|big|older|younger|new|golden|"
_ADJ += r"rescue|sweet|furry)\s+)*"
_ONE = rf"(?P<name>{_CAP}(?:\s+{_CAP})?)"


@rule(
    "name_my_role",
    rf"^\W*(?i:(?:my|our)\s+{_ADJ})(?P<role>(?i:{_ROLES}|{_PET_ROLES}))\s*,\s*(?P<rest>[\w']+)",
)
def _name_my_role(m: re.Match[str], out: Emitter) -> None:
    """ "Sarah, my best friend, came over last night" (the judge reads "my best friend, came
    over" as a clause of its own: the name is the sentence's opening). "Jake, my buddy, you
    rock!" speaks to Jake: no apposition."""
    if re.match(r"(?i)(?:you|your|you're|thanks?|I|I'm|I've|we|let's|please)$", m["rest"]):
        return
    role = re.escape(m.group(0)[: m.end("role")].strip(" ,"))
    said = re.match(rf"\W*{_ONE},\s+{role}\b", out.sentence)
    kind = m["role"].lower()
    if said is not None and kind in ROLES:
        _named(said, out, m["role"])
    elif said is not None and out.is_user and (name := _name(said["name"])):
        pet(out, kind, name)  # "Max, my golden retriever, is the best": a pet of a breed


@rule(
    "role_of_mine",
    rf"(?i:\b(?:an?\s+)?{_ADJ}(?P<role>{_ROLES}|{_ROLE_WORDS})\s+of\s+mine)(?:,\s+|\s+(?i:named|called)\s+)"
    rf"{_ONE}\b",
)
def _role_of_mine(m: re.Match[str], out: Emitter) -> None:
    """ "a buddy of mine, Jake", "a friend of mine named Tom"."""
    _named(m, out)


@rule(
    "my_role_from",
    rf"(?i:\bmy\s+{_ADJ})(?P<role>(?i:{_ROLES}))\s+(?i:from)\s+(?:[\w'-]+\s+){{0,2}}?[\w'-]+,\s+"
    rf"{_ONE}\s*(?=,)",
)
def _my_role_from(m: re.Match[str], out: Emitter) -> None:
    """ "My friend from college, Lisa, visited me"."""
    _named(m, out)


@rule(
    "an_old_role",
    rf"(?i:\ban?\s+(?:old|close|good|dear|childhood)\s+)(?P<role>(?i:friend|buddy|pal|mate|"
    rf"classmate|colleague|coworker|co-worker|teammate|neighbou?r)),\s+{_ONE}\s*(?=,)",
)
def _an_old_role(m: re.Match[str], out: Emitter) -> None:
    """ "I met up with an old friend, Mark, for coffee"."""
    _named(m, out)


def _named(m: re.Match[str], out: Emitter, role: str | None = None) -> None:
    name = _name(m["name"])
    if name is None or not out.is_user:
        return
    if re.search(r"(?i)\b(?:your|yours|his|her|their)\b", m.group(0)):
        return
    said = (role or m["role"]).lower()
    said = "friend" if re.fullmatch(_ROLE_WORDS, said) else said
    valid_from, out.valid_from = out.valid_from, None  # "came over last night": the visit's date
    _relationship(out, said, name)
    out.valid_from = valid_from
