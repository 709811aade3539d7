"""Two people with one name, on the write side (pure): never guess, never merge.

``Known`` is one of the user's people whose name the turn uses, with the relations the user has
to them (``HAS_SISTER`` …) and their aliases. For a relationship the turn states:

- a known namesake with the same role, or whose alias the sentence uses ("work Marta"), is that
  person: the plan names them by their ``entity_ref``;
- a role of another group than every namesake's (a colleague when the known Marta is family),
  or words that say so ("a different Marta", "another Marta"), is a new person: an entity
  ``distinct_from`` the namesake, with the alias "<group> <name>" ("work Marta");
- otherwise the name is left to the store (the one known Marta, or a first one).

A todo whose text names someone two or more namesakes answer to, with no alias that picks one,
links nobody: :meth:`People.questions` asks "work Marta or family Marta?" (003 §10).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from services.memory_upserter.extract.vocabulary import ROLES
from services.memory_upserter.text import fold

GROUPS = {
    "family": {
        "SISTER",
        "BROTHER",
        "MOTHER",
        "FATHER",
        "WIFE",
        "HUSBAND",
        "PARTNER",
        "SON",
        "DAUGHTER",
        "COUSIN",
        "AUNT",
        "UNCLE",
        "GRANDMOTHER",
        "GRANDFATHER",
        "NIECE",
        "NEPHEW",
        "FIANCE",
        "BOYFRIEND",
        "GIRLFRIEND",
        "SPOUSE",
    },
    "work": {"COLLEAGUE", "BOSS", "MANAGER", "COFOUNDER", "CLIENT", "EMPLOYEE", "REPORT"},
    "friend": {"FRIEND", "ROOMMATE"},
    "neighbor": {"NEIGHBOR"},
    "doctor": {"DOCTOR", "THERAPIST"},
    "coach": {"COACH", "MENTOR"},
}
_DIFFERENT = re.compile(r"(?i)\b(?:a\s+different|another|not\s+the\s+same|other)\b")


@dataclass(frozen=True)
class Known:
    name: str
    entity_ref: str
    roles: tuple[str, ...] = ()  # predicates user → them: HAS_SISTER …
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Decision:
    handle: str | None = None  # an existing person's entity_ref
    distinct_from: str | None = None  # a new person, apart from this ref
    aliases: tuple[str, ...] = ()


def group_of(label: str | None) -> str | None:
    if label is None:
        return None
    label = label.upper().removeprefix("HAS_")
    return next((g for g, labels in GROUPS.items() if label in labels), None)


def label_of(role: str | None) -> str | None:
    return ROLES.get(role.lower()) if role else None


@dataclass
class People:
    known: Sequence[Known] = ()
    _todos: list[str] = field(default_factory=list)

    def namesakes(self, name: str) -> list[Known]:
        key = fold(name)
        return [k for k in self.known if fold(k.name) == key]

    def decide(self, name: str, role: str | None, sentence: str) -> Decision:
        same = self.namesakes(name)
        if not same:
            return Decision()
        said = fold(sentence)
        for k in same:
            if any(fold(a) in said for a in k.aliases if fold(a) != fold(name)):
                return Decision(handle=k.entity_ref)
        label = label_of(role)
        group = group_of(label)
        for k in same:
            if label and f"HAS_{label}" in k.roles:
                return Decision(handle=k.entity_ref)
        theirs = {group_of(r) for k in same for r in k.roles} - {None}
        apart = bool(_DIFFERENT.search(sentence)) or (
            group is not None and theirs and group not in theirs
        )
        if not apart:
            if len(same) == 1:
                return Decision(handle=same[0].entity_ref)
            fits = [
                k for k in same if group is not None and group in {group_of(r) for r in k.roles}
            ]
            return Decision(handle=fits[0].entity_ref) if len(fits) == 1 else Decision()
        qualifier = group or "other"
        return Decision(distinct_from=same[0].entity_ref, aliases=(f"{qualifier} {name}",))

    def note_todo(self, text: str) -> None:
        self._todos.append(text)

    def questions(self) -> list[str]:
        asked: list[str] = []
        for text in self._todos:
            said = fold(text)
            for name in dict.fromkeys(k.name for k in self.known):
                same = self.namesakes(name)
                if len(same) < 2 or not re.search(rf"\b{re.escape(fold(name))}\b", said):
                    continue
                if any(fold(a) in said for k in same for a in k.aliases if fold(a) != fold(name)):
                    continue
                labels = [_label(k) for k in same]
                question = f"{' or '.join(labels)}?"
                if question not in asked:
                    asked.append(question)
        return asked


def _label(k: Known) -> str:
    alias = next((a for a in k.aliases if fold(a) != fold(k.name)), None)
    if alias:
        return alias
    group = next((group_of(r) for r in k.roles if group_of(r)), None)
    return f"{group} {k.name}" if group else k.name
