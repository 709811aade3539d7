"""The commit's pure decisions (no I/O; time and ids passed in): checking a plan beyond its
schema, resolving its entity handles, affect promotion, the conservative completion signal,
each todo's source sentence, and the working-memory session after the turn."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from difflib import SequenceMatcher

import msgspec

from contracts.plan import MemoryWritePlan, PlanFact
from contracts.slots import Scratch, SessionState, Turn
from services.core.clock import out_of_range
from services.core.memory_store import EntityWrite, canonical_predicate
from services.core.validation import FieldError
from services.memory_upserter.temporal import parse_when

SELF_HANDLES = frozenset({"user", "me", "self", "i", "myself", "self:user", "the user"})
AFFECT_PREDICATES = frozenset(
    {"FEELS", "FEELING", "MOOD", "EMOTION", "AFFECT", "IS_FEELING", "FEELS_LIKE", "EMOTIONAL_STATE"}
)
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
_DONE = re.compile(
    r"\b(?:done|finished|completed|I\s+did\s+(?:it|that)|checked\s+(?:it\s+)?off|"
    r"ticked\s+(?:it\s+)?off)\b",
    re.IGNORECASE,
)
_NEGATED = re.compile(
    r"(?:\bnot|n't|\bnever|\balmost|\bnearly|\bhalf|\bbarely|\bwill|'ll|"
    r"\bgonna|\bgoing\s+to|\bwhen|\bif|\bonce|\buntil)\W+(?:\w+\W+){0,2}$",
    re.IGNORECASE,
)
SELF = -1  # the handle index of the user's own entity


def fold(text: str) -> str:
    """Case- and accent-insensitive form, close to Postgres's ``twin_normalize``."""
    plain = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in plain if not unicodedata.combining(c)).split())


def words(text: str) -> list[str]:
    return _WORDS.findall(fold(text))


def says_done(text: str) -> bool:
    """The user says something is done/finished/completed — not "not done yet", not "I'll be
    finished tomorrow", not "once it's done"."""
    for match in _DONE.finditer(text):
        before, after = text[: match.start()], text[match.end() :]
        if not _NEGATED.search(before) and not re.match(r"\W*yet\b", after, re.IGNORECASE):
            return True
    return False


def validity(fact: PlanFact, now: datetime) -> tuple[datetime | None, datetime | None]:
    """The fact's ``valid_from``/``valid_to`` resolved against the turn (None: not given or
    not understood; :func:`check_plan` refuses the latter)."""
    return (
        parse_when(fact.valid_from, now) if fact.valid_from else None,
        parse_when(fact.valid_to, now) if fact.valid_to else None,
    )


def check_plan(plan: MemoryWritePlan, path: str, now: datetime) -> list[FieldError]:
    """What the schema cannot say: each fact names its object or its value, not both; its
    validity is understood and does not end before it begins."""
    errors = []
    for i, fact in enumerate(plan.facts):
        start, end = validity(fact, now)
        for name, given, parsed in (
            ("valid_from", fact.valid_from, start),
            ("valid_to", fact.valid_to, end),
        ):
            if given and parsed is None:
                errors.append(
                    FieldError(
                        f"{path}.facts[{i}].{name}", "not understood: give an ISO date or date-time"
                    )
                )
            elif parsed is not None and out_of_range(parsed, "x") is not None:
                errors.append(
                    FieldError(f"{path}.facts[{i}].{name}", "must be between 1970 and 2199")
                )
        if start is not None and end is not None and end < start:
            errors.append(
                FieldError(f"{path}.facts[{i}].valid_to", "must not be before valid_from")
            )
        if fact.object is not None and fact.value is not None:
            errors.append(
                FieldError(
                    f"{path}.facts[{i}]", "give either object (an entity) or value (a literal)"
                )
            )
        if fact.object is not None and fold(fact.object) == fold(fact.subject):
            errors.append(
                FieldError(f"{path}.facts[{i}].object", "a fact cannot relate an entity to itself")
            )
    return errors


def is_affect(fact: PlanFact) -> bool:
    return canonical_predicate(fact.predicate) in AFFECT_PREDICATES


def statement_in(statement: str, texts: Sequence[str], *, ratio: float = 0.85) -> bool:
    """Near-quote: the statement's words appear in one of the texts, in order, give or take a
    few letters (a typo, a contraction)."""
    wanted = words(statement)
    if not wanted:
        return False
    target = " ".join(wanted)
    for text in texts:
        have = words(text)
        for start in range(max(1, len(have) - len(wanted) + 1)):
            window = " ".join(have[start : start + len(wanted)])
            if window == target or SequenceMatcher(None, target, window).ratio() >= ratio:
                return True
    return False


@dataclass
class Resolved:
    """The plan's entities as writes, and each fact's subject/object as a write index."""

    writes: list[EntityWrite] = field(default_factory=list)
    facts: list[tuple[PlanFact, int, int | None]] = field(default_factory=list)
    self_aliases: list[str] = field(default_factory=list)
    distinct: dict[int, tuple[int, str]] = field(default_factory=dict)
    # write index → (plan entity index, the handle it is not)
    validity: list[tuple[datetime | None, datetime | None]] = field(default_factory=list)
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


_GROUNDING_STOP = frozenset("the a an of and or in at to my our for on with is are user".split())
_NUMBER_WORDS = {
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
}


def grounded(fact: PlanFact, texts: Sequence[str]) -> bool:
    """The fact's object or value is in the person's words: at least half of its content words
    (a word matches its inflections: "marathons", "Lisbon's"), numbers exactly."""
    said = {_NUMBER_WORDS.get(w, w) for text in texts for w in words(text)}
    target = fact.value if fact.value is not None else fact.object
    if target is None or fold(target) in SELF_HANDLES:
        return True
    if re.fullmatch(r"[a-z_]+:[^\s:]+", target):
        target = target.split(":", 1)[1].replace("_", " ")
    wanted = [_NUMBER_WORDS.get(w, w) for w in words(target) if w not in _GROUNDING_STOP]
    if not wanted:
        return True
    hits = sum(
        1
        for w in wanted
        if w in said
        or (
            len(w) >= 4
            and any(
                s.startswith(w[: max(4, len(w) - 2)])
                or (len(s) >= 4 and w.startswith(s[: max(4, len(s) - 2)]))
                for s in said
            )
        )
    )
    return hits * 2 >= len(wanted)


def pick_done(pending: Sequence[tuple[str, str]], said: Sequence[str]) -> str | None | list[str]:
    """Which pending todo ``(id, text)`` the person said is done: the only one; else the only
    one sharing the most content words with what they said; else the texts to ask about."""
    if len(pending) == 1:
        return pending[0][0]
    if not pending:
        return None
    spoken = {w for text in said for w in words(text) if w not in _GROUNDING_STOP}
    scores = [
        (len(spoken & {w for w in words(text) if w not in _GROUNDING_STOP}), todo_id)
        for todo_id, text in pending
    ]
    best = max(score for score, _ in scores)
    winners = [todo_id for score, todo_id in scores if score == best]
    return winners[0] if best > 0 and len(winners) == 1 else [text for _, text in pending]


_SENTENCES = re.compile(r"(?<=[.!?])\s+|\n+")
_TODO_CUES = re.compile(
    r"(?i)\b(?:remind|i'll|i will|going to|gonna|promise|add|list|need to|"
    r"have to|goal|tomorrow|tonight|today|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|next week)\b"
)


def source_of(
    todo_text: str, snippet: str | None, user_texts: Sequence[tuple[int, str]]
) -> tuple[str | None, int | None]:
    """The user's sentence a todo comes from, and the index of its message (002 "source_ref").
    A snippet the plan gives is kept when a user message contains it."""
    if not user_texts:
        return snippet, None
    if snippet:
        for index, text in user_texts:
            if fold(snippet) in fold(text) or statement_in(snippet, [text]):
                return snippet, index
    wanted = set(words(todo_text))
    best = (0.0, user_texts[-1][0], user_texts[-1][1].strip())
    for index, text in user_texts:
        for sentence in _SENTENCES.split(text):
            overlap = len(wanted & set(words(sentence)))
            score = overlap + (0.5 if overlap and _TODO_CUES.search(sentence) else 0.0)
            if score and score >= best[0]:
                best = (score, index, sentence.strip())
    return (snippet or best[2][:2000]) or None, best[1]


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
