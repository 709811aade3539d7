"""Two people with one name, on the write side (pure): never guess, never merge.

``Known`` is one of the user's people whose name the turn uses, with the relations the user has
to them (``HAS_SISTER`` …) and their aliases. For a relationship the turn states:

- a known namesake with the same role, or whose alias the sentence uses ("work Marta"), is that
  person: the plan names them by their ``entity_ref``;
- a role of another group than every namesake's (a colleague when the known Marta is family),
  or words that say so ("a different Marta", "another Marta"), is a new person: an entity
  ``distinct_from`` the namesake, with the alias "<group> <name>" ("work Marta");
- otherwise the name is left to the store (the one known Marta, or a first one).

A name answers to a known person by their full name, an alias, or their given name alone
("marta" is "Marta Silva": :func:`answers_to`). A todo whose text names someone two or more
known people answer to, with no alias that picks one, links nobody: :meth:`People.questions`
asks the one which-question of 003 §10 (:mod:`services.core.which`): "Which Marta do you mean
— Marta (sister) or Marta Silva (colleague)?".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from services.core.which import numbered, phrase, which_question
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
    category: str = "Person"
    entity_id: str | None = None
    active: bool = False  # active in the session: named or chosen a moment ago (003 §10)


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
        key = fold(name).strip()
        return [k for k in self.known if answers_to(k, key)]

    def name_of(self, handle: str) -> str | None:
        """The full name of the known person a plan handle (their ``entity_ref``) names."""
        return next((k.name for k in self.known if k.entity_ref == handle), None)

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
        """The which-question of each todo naming someone several known people answer to."""
        asked: list[str] = []
        keys = sorted(
            {key for k in self.known for key in _keys(k)}, key=lambda k: (-len(k.split()), k)
        )
        for text in self._todos:
            said = fold(text)
            taken: list[tuple[int, int]] = []
            for key in keys:
                found = re.search(rf"\b{re.escape(key)}\b", said)
                if found is None or any(a < found.end() and found.start() < b for a, b in taken):
                    continue
                taken.append(found.span())
                same = self.namesakes(key)
                if len(same) < 2 or _told_apart(same, said, found.start()):
                    continue
                if sum(k.active for k in same) == 1:
                    continue  # the active one is meant (003 §10: active → recent → ask)
                shown = text[found.start() : found.end()] if text.isascii() else key
                question = which_question(
                    shown[:1].upper() + shown[1:], numbered([phrase(*_described(k)) for k in same])
                )
                if question not in asked:
                    asked.append(question)
        return asked


def _told_apart(same: Sequence[Known], said: str, at: int) -> bool:
    """The words pick one of ``same``: an alias of one ("work Marta"), or the relation word
    right before the name naming exactly one ("my sister Marta")."""
    if any(fold(a) in said for k in same for a in k.aliases if fold(a) != fold(k.name)):
        return True
    before = said[:at].split()
    label = label_of(before[-1]) if before else None
    return label is not None and sum(f"HAS_{label}" in k.roles for k in same) == 1


def answers_to(known: Known, key: str) -> bool:
    """Whether a folded name means ``known``: their name, an alias, or their given name."""
    return key in _keys(known)


def _keys(known: Known) -> set[str]:
    names = {fold(n).strip() for n in (known.name, *known.aliases)}
    given = fold(known.name).split()
    person = known.category == "Person" and len(given) > 1 and len(given[0]) > 1
    return names | ({given[0]} if person else set())


def role_word(predicate: str) -> str:
    """ "HAS_SISTER" → "sister"."""
    return predicate.upper().removeprefix("HAS_").lower().replace("_", " ")


def _described(k: Known) -> tuple[str, str | None]:
    """(label, detail): an alias that tells them apart, else the name; their role to the user."""
    alias = next((a for a in k.aliases if fold(a) != fold(k.name)), None)
    return alias or k.name, role_word(k.roles[0]) if k.roles else None
