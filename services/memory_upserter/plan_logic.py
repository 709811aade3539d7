"""The plan's pure vocabulary (no I/O; time passed in): folding text as Postgres does, checking
a plan beyond its schema, a fact's validity, resolving the plan's entity handles to writes, and
the working-memory session after the turn. :mod:`.turn_plan` decides a turn with these."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

import msgspec

from contracts.plan import MemoryWritePlan, PlanFact
from contracts.slots import Scratch, SessionState, Turn
from services.core.memory_store.keys import canonical_predicate
from services.core.memory_store.shapes import EntityWrite

SELF_HANDLES = frozenset({"user", "me", "self", "i", "myself", "self:user", "the user"})
REF_CATEGORIES = {
    "person": "Person",
    "place": "Location",
    "org": "Org",
    "project": "Project",
    "goal": "Goal",
    "food": "Food",
    "habit": "Habit",
    "pet": "Pet",
    "thing": "Thing",
    "event": "Event",
}
OBJECT_CATEGORIES = {
    "LIVES_IN": "Location",
    "BORN_IN": "Location",
    "FROM": "Location",
    "VISITED": "Location",
    "HOMETOWN": "Location",
    "WORKS_AT": "Org",
    "STUDIES_AT": "Org",
    "MEMBER_OF": "Org",
    "WORKS_ON": "Project",
    "HAS_PET": "Pet",
}
MAX_ACTIVE_ENTITIES = 12
_WORDS = re.compile(r"\w+")
SELF = -1  # the handle index of the user's own entity


def fold(text: str) -> str:
    """Case- and accent-insensitive form, close to Postgres's ``twin_normalize``."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in plain if not unicodedata.combining(c)).split())


def words(text: str) -> list[str]:
    return _WORDS.findall(fold(text))


@dataclass
class Resolved:
    """The plan's entities as writes, and each fact's subject/object as a write index."""

    writes: list[EntityWrite] = field(default_factory=list)
    facts: list[tuple[PlanFact, int, int | None]] = field(default_factory=list)
    self_aliases: list[str] = field(default_factory=list)
    distinct: dict[int, tuple[int, str]] = field(default_factory=dict)
    # write index → (plan entity index, the handle it is not)
    _index: dict[str, int] = field(default_factory=dict)

    def handle(self, handle: str, *, category: str) -> int:
        key = fold(handle)
        if key in SELF_HANDLES:
            return SELF
        if key not in self._index:
            ref = handle if re.fullmatch(r"[a-z_]+:[^\s:]+", handle) else None
            name = (
                re.sub(r"_\d+$", "", ref.split(":", 1)[1]).replace("_", " ").title()
                if ref
                else handle.strip()
            )
            if ref:
                category = REF_CATEGORIES.get(ref.split(":", 1)[0], "Other")
            self._index[key] = self.add(EntityWrite(name, category, (), "global", ref))
        return self._index[key]

    def add(self, write: EntityWrite, *, by_name: bool = True) -> int:
        """A write, found again by its aliases and (unless it is a namesake declared apart,
        which the plan names by an alias) by its name."""
        self.writes.append(write)
        index = len(self.writes) - 1
        for name in (*([write.name] if by_name else []), *write.aliases):
            self._index.setdefault(fold(name), index)
        return index


def resolve(plan: MemoryWritePlan) -> Resolved:
    """Entity writes for the plan's entities and for every handle its facts use ("user" is the
    user's own entity, an ``entity_ref`` is looked up, any other name becomes an entity)."""
    out = Resolved()
    for i, entity in enumerate(plan.entities):
        if fold(entity.name) not in SELF_HANDLES:
            index = out.add(
                EntityWrite(entity.name, entity.category, tuple(entity.aliases), entity.scope),
                by_name=entity.distinct_from is None or not entity.aliases,
            )
            if entity.distinct_from is not None:
                out.distinct[index] = (i, entity.distinct_from)
    for fact in plan.facts:
        predicate = canonical_predicate(fact.predicate)
        subject_category = {"PROJECT": "Project"}.get(fact.memory_type, "Person")
        subject = out.handle(fact.subject, category=subject_category)
        obj = None
        if fact.object is not None:
            guess = OBJECT_CATEGORIES.get(predicate) or (
                "Person"
                if predicate.startswith("HAS_")
                else "Project"
                if fact.memory_type == "PROJECT"
                else "Other"
            )
            obj = out.handle(fact.object, category=guess)
        out.facts.append((fact, subject, obj))
        if subject == SELF and predicate == "NAME" and fact.value:
            out.self_aliases.append(fact.value)
    return out


def next_session(
    seen: SessionState | None,
    *,
    user_id: str,
    agent_id: str,
    chat_id: str,
    turns: Sequence[Turn],
    active_ids: Sequence[str],
    scratch: Scratch | None,
    now: datetime,
    max_turns: int,
    questions: Sequence[str] = (),
) -> SessionState:
    """The session blob after this turn: its turns appended once (by message id), trimmed to
    the newest ``max_turns``; this turn's entities first among the active ones; the scratch
    replaced when the caller sent one; the write's open questions ("work Marta or family
    Marta?") added to ``scratch.pending_questions`` (the newest 5) for the next turn to ask.
    The message count is pulse-decay's, left alone."""
    session = seen or SessionState(user_id=user_id, agent_id=agent_id, chat_id=chat_id)
    known = {t.message_id for t in session.turns if t.message_id}
    appended = [*session.turns, *(t for t in turns if t.message_id not in known)]
    active = list(dict.fromkeys([*active_ids, *session.active_entity_ids]))
    scratch = scratch if scratch is not None else session.scratch
    if questions:
        asked = list(dict.fromkeys([*scratch.pending_questions, *questions]))[-5:]
        scratch = msgspec.structs.replace(scratch, pending_questions=asked)
    return msgspec.structs.replace(
        session,
        turns=appended[-max_turns:] if max_turns > 0 else [],
        active_entity_ids=active[:MAX_ACTIVE_ENTITIES],
        scratch=scratch,
        updated_at=now,
    )
