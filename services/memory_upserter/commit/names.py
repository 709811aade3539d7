"""Whom a model's plan names (the write side of 003 §10): its handles looked up among the
user's entities, and the category a new one takes.

:mod:`.known` reads, in one statement before the transaction, the user's visible entities
that a handle of the plan may name — by full name, alias, or (a person) given name — with the
relations the user holds to them. :func:`resolve` then decides, purely: one match is that entity;
several are told apart by the fact's relation ("HAS_SISTER Beatriz" among two Beatrizes), by
the relation the person put before the name ("my sister marta is pregnant") or by the category
the predicate implies, else the link stays open (the facts naming it are left out
with an ``entity_ambiguous`` warning and the one which-question waits for the next turn); none
is a new entity whose category the plan or the person's words imply (:mod:`.kinds`) — a dog
is a Pet, an employer an Org, a relative a Person — never a Person by default. A known name the
person sets apart in their words ("ana from work (brightwave ana, not uni ana)") is a new
entity apart from the namesake, or the namesake their words place there (:mod:`.apart`).
The transaction resolves a ``distinct_from`` to the namesake (:mod:`.entities`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING
from uuid import UUID

from contracts.memory import Notice
from contracts.plan import MemoryWritePlan
from contracts.relations import ROLES
from services.core.memory_store.keys import canonical_predicate
from services.core.memory_store.shapes import EntityWrite
from services.core.which import numbered, phrase, which_question
from services.memory_upserter.commit.apart import apart_from, placed_here
from services.memory_upserter.commit.kinds import category_hints
from services.memory_upserter.commit.read import (
    REF_CATEGORIES,
    SELF,
    SELF_HANDLES,
)
from services.memory_upserter.commit.turn import Resolved
from services.memory_upserter.extract.people import Known, answers_to, role_word
from services.memory_upserter.text import fold

if TYPE_CHECKING:
    pass


@dataclass
class _Resolver:
    """Builds a :class:`Resolved`: each handle, folded, found again as the write it made — or as
    the user's entity it names (``known``), or left open when it names several."""

    known: Sequence[Known] = ()
    said: Sequence[str] = ()  # the person's words: "my sister marta" names which Marta
    out: Resolved = field(default_factory=Resolved)
    index: dict[str, int | None] = field(default_factory=dict)  # None: an open link

    def handle(self, handle: str, *, category: str | None, role: str | None = None) -> int | None:
        key = fold(handle).strip()
        if key in SELF_HANDLES:
            return SELF
        if key not in self.index:
            ref = handle if re.fullmatch(r"[a-z_]+:[^\s:]+", handle) else None
            if ref:
                name = re.sub(r"_\d+$", "", ref.split(":", 1)[1]).replace("_", " ").title()
                kind = REF_CATEGORIES.get(ref.split(":", 1)[0], "Other")
                self.index[key] = self.add(EntityWrite(name, kind, (), "global", ref))
            else:
                self.index[key] = self._named(handle.strip(), key, category, role)
        return self.index[key]

    def _named(self, name: str, key: str, category: str | None, role: str | None) -> int | None:
        """A name: the one known entity it means, an open link among several, or a new one."""
        said = said_roles(key, self.said)
        role = role or next(iter(said), None)  # the first relation put before the name
        same = [k for k in self.known if answers_to(k, key)]
        roles = {*said, *([role] if role else [])}
        namesake, aliases = apart_from(name, same, self.said, roles)  # "not uni ana"
        if namesake is not None and namesake.entity_id is not None:
            write = EntityWrite(name, namesake.category, aliases, "global", None)
            return self.add(replace(write, distinct_from=UUID(namesake.entity_id)), by_name=False)
        found = placed_here(name, same, self.said) or pick(
            said_full(self.known, key, self.said), category, role
        )
        if isinstance(found, Known):
            return self.add(EntityWrite(found.name, found.category, (), "global", found.entity_ref))
        if found:
            shown = name[:1].upper() + name[1:]
            phrases = [phrase(k.name, role_word(k.roles[0]) if k.roles else None) for k in found]
            self.out.open[name] = which_question(shown, numbered(phrases))
            return None
        if category is None:
            self.out.unknown_kind.append(name)
        return self.add(EntityWrite(name, category or "Other", (), "global", None))

    def add(self, write: EntityWrite, *, by_name: bool = True) -> int:
        """A write, found again by its aliases and (unless it is a namesake declared apart,
        which the plan names by an alias) by its name."""
        self.out.writes.append(write)
        index = len(self.out.writes) - 1
        for name in (*([write.name] if by_name else []), *write.aliases):
            self.index.setdefault(fold(name), index)
        return index


def said_full(known: Sequence[Known], key: str, said: Sequence[str]) -> list[Known]:
    """The entities a name means; of several, the only one the person named in full this turn
    ("marta reis is leaving" with a plan that says "Marta")."""
    found = [k for k in known if answers_to(k, key)]
    text = fold(" ".join(said))
    full = [
        k
        for k in found
        if any(
            fold(n).strip() != key and re.search(rf"\b{re.escape(fold(n).strip())}\b", text)
            for n in (k.name, *k.aliases)
        )
    ]
    return full if len(found) > 1 and len(full) == 1 else found


def said_roles(name: str, said: Sequence[str]) -> tuple[str, ...]:
    """Every relation the person put before the name, in order ("my colleague marta …, a
    different marta from my sister marta": ``HAS_COLLEAGUE``, ``HAS_SISTER``); not one they
    deny ("ana from work, not my friend ana")."""
    roles = []
    for found in re.finditer(
        rf"(?i)(?<!not )\bmy\s+((?:\w+[\s-])?\w+)\s+{re.escape(name)}\b", " ".join(said)
    ):
        phrase = found[1].lower()
        label = ROLES.get(phrase) or ROLES.get(phrase.split()[-1].split("-")[-1])
        if label and label != "PET":
            roles.append(f"HAS_{label}")
    return tuple(dict.fromkeys(roles))


def pick(
    candidates: Sequence[Known], category: str | None, role: str | None
) -> Known | list[Known]:
    """The one of ``candidates`` a name means: the only one; else the only one of the category
    the predicate implies; else the only one the fact's relation names ("HAS_SISTER"); else
    all of them (ask). No candidate: an empty list."""
    if len(candidates) <= 1:
        return candidates[0] if candidates else []
    for narrowed in (
        [k for k in candidates if category is not None and k.category == category],
        [k for k in candidates if role is not None and role in k.roles],
    ):
        if len(narrowed) == 1:
            return narrowed[0]
    return list(candidates)


def resolve(
    plan: MemoryWritePlan,
    known: Sequence[Known] = (),
    said: Sequence[str] = (),
    hints: dict[str, str] | None = None,
) -> Resolved:
    """Entity writes for the plan's entities and for every handle its facts use ("user" is the
    user's own entity, an ``entity_ref`` is looked up, a name is the user's entity it names
    (:mod:`.names`), else a new entity of the category its predicates imply). A fact naming
    someone several entities answer to is left out: :attr:`Resolved.open` holds the question.
    ``hints``: each name's category (:func:`.kinds.category_hints`, read here when not given)."""
    resolver = _Resolver(known, said)
    out = resolver.out
    hints = category_hints(plan, said) if hints is None else hints
    for i, entity in enumerate(plan.entities):
        key = fold(entity.name).strip()
        if key in SELF_HANDLES:
            continue
        if entity.distinct_from is None and not entity.aliases and key not in resolver.index:
            if any(answers_to(k, key) for k in known):  # a known one: found by its name
                resolver.handle(entity.name, category=entity.category)
                continue
        index = resolver.add(
            EntityWrite(entity.name, entity.category, tuple(entity.aliases), entity.scope),
            by_name=entity.distinct_from is None or not entity.aliases,
        )
        if entity.distinct_from is not None:
            out.distinct[index] = (i, entity.distinct_from)
    for fact in plan.facts:
        predicate = canonical_predicate(fact.predicate, literal=fact.object is None)
        subject = resolver.handle(fact.subject, category=hints.get(fold(fact.subject).strip()))
        obj = None
        if fact.object is not None:
            role = predicate if fold(fact.subject) in SELF_HANDLES else None
            obj = resolver.handle(
                fact.object, category=hints.get(fold(fact.object).strip()), role=role
            )
        if subject is None or (fact.object is not None and obj is None):
            out.left_open.append(fact)
            continue
        out.facts.append((fact, subject, obj))
        if subject == SELF and predicate == "NAME" and fact.value:
            out.self_aliases.append(fact.value)
    return out


def resolve_plan(
    plan: MemoryWritePlan,
    known: Sequence[Known],
    said: Sequence[str],
    hints: dict[str, str],
) -> tuple[Resolved, list[Notice]]:
    """The plan's names resolved (:func:`resolve`), and a notice for each fact left out
    because a name it uses means several people (:func:`ambiguous`)."""
    resolved = resolve(plan, known, said, hints)
    return resolved, ambiguous(resolved)


def ambiguous(resolved: Resolved) -> list[Notice]:
    """A notice for each fact left out because a name it uses means several people."""
    return [
        Notice(
            code="entity_ambiguous",
            detail=f"left out {f.predicate} {f.subject!r} → {f.object or f.value!r}: "
            f"{(f.subject if f.subject in resolved.open else f.object)!r} names several "
            "people; nobody was linked. Ask: "
            + resolved.open.get(f.subject, resolved.open.get(f.object or "", "")),
        )
        for f in resolved.left_open
    ]
