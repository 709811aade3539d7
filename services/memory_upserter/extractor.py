"""The offline shadow judge (001): a memory-write plan from the user's own words, by rule.

Deterministic and pure (``now`` passed in). It reads only user messages, and writes only what
they assert (:mod:`.assertion`): questions, conditionals, hypotheticals, wishes, negations,
disputed claims and quoted text write no fact; "no longer …" / "… anymore" ends the fact it
names (``valid_to`` = the turn). Time phrases date a fact and leave its value
(:mod:`.temporal`). What it recognises — name, age, job, employer, home, birthplace, languages,
family and friends, pets, diet and allergies, likes, projects, todos and a completion signal —
is the rule table of :mod:`.rules` (rules_self → rules_profile → rules_life, and
:mod:`.rules_todos`). Psyche and
affect are never extracted.

Speakers: a message whose speaker is the user (no speaker, or one of ``self_names``) speaks for
"user"; any other speaker (an import such as LoCoMo commits both sides as user messages with the
speaker's name) speaks for an entity of that name, so "Caroline: I live in Boston" is a fact
about Caroline. Context messages (earlier in the session) only resolve "she"/"he".

Same-name people: ``known`` lists the user's people whose name the turn uses. A relationship
that tells a new person apart from the known ones ("my colleague Marta" when the known Marta
is a sister, "a different Marta") declares a new entity ``distinct_from`` the known one, with a
distinguishing alias ("work Marta"); a todo that names a person two known entities answer to
links nobody and leaves a question in :attr:`Extracted.questions`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from contracts.common import Category, MemoryType, TodoKind
from contracts.plan import FactType, MemoryWritePlan, PlanEntity, PlanFact, PlanTodo
from services.memory_upserter import assertion, rules, rules_life, rules_todos  # noqa: F401
from services.memory_upserter.due import find_due, without_due
from services.memory_upserter.people import Known, People
from services.memory_upserter.plan_logic import fold
from services.memory_upserter.temporal import validity
from services.memory_upserter.turn_plan import says_done

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_SELF = re.compile(r"(?i)^(?:I|I'm|I've|I'd|we|we're|my|our|me)\b")


@dataclass(frozen=True)
class Utterance:
    text: str
    speaker: str | None = None  # None: the user


@dataclass
class Emitter:
    """What the rules write into, for one clause of one speaker."""

    now: datetime
    sentence: str = ""
    subject: str = "user"  # the plan handle of whoever speaks
    is_user: bool = True
    entities: dict[str, PlanEntity] = field(default_factory=dict)
    facts: dict[tuple[str, str, str], PlanFact] = field(default_factory=dict)
    todos: dict[tuple[str, str], PlanTodo] = field(default_factory=dict)
    complete: bool = False
    last_person: str | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    people: People = field(default_factory=People)
    handles: dict[str, str] = field(default_factory=dict)  # folded name → plan handle

    @property
    def who(self) -> str:
        return "User" if self.is_user else self.subject

    @property
    def whose(self) -> str:
        return "the user's" if self.is_user else f"{self.subject}'s"

    def entity(self, name: str, category: Category) -> str:
        key = fold(name)
        if key in self.handles:
            handle = self.handles[key]
        else:
            if key not in self.entities:
                self.entities[key] = PlanEntity(name=name, category=category)
            handle = self.entities[key].name
        if category in ("Person", "Pet"):
            self.last_person = handle
        return handle

    def person(self, name: str, role: str | None, category: Category = "Person") -> str:
        """The handle of a person named in a relationship: a known one, or a new one told
        apart from the known namesakes (module docstring)."""
        key = fold(name)
        if key not in self.handles and key not in self.entities and self.is_user:
            decided = self.people.decide(name, role, self.sentence)
            if decided.handle is not None:
                self.handles[key] = decided.handle
            elif decided.distinct_from is not None:
                self.entities[key] = PlanEntity(
                    name=name,
                    category=category,
                    aliases=list(decided.aliases),
                    distinct_from=decided.distinct_from,
                )
                self.handles[key] = decided.aliases[0]  # the plan names the new one so
        return self.entity(name, category)

    def fact(
        self,
        predicate: str,
        text: str,
        *,
        subject: str | None = None,
        obj: str | None = None,
        value: str | None = None,
        memory_type: MemoryType = "PROFILE",
        fact_type: FactType = "fact",
        importance: int = 1,
        confidence: float = 0.8,
    ) -> None:
        subject = subject or self.subject
        if subject != "user" and memory_type == "PROFILE":
            memory_type = "PEOPLE"
        fact = PlanFact(
            memory_type=memory_type,
            subject=subject,
            predicate=predicate,
            object=obj,
            value=value,
            text=text[:500],
            fact_type=fact_type,
            importance=importance,
            confidence=confidence,
            valid_from=self.valid_from.isoformat() if self.valid_from else None,
            valid_to=self.valid_to.isoformat() if self.valid_to else None,
        )
        self.facts[(fold(subject), predicate, fold(obj or value or ""))] = fact

    def todo(self, kind: TodoKind, task: str, *, also_due_in: str = "", dated: bool = True) -> None:
        """A todo of the user's (another speaker's plans are not theirs); a due expression in
        the task (or in ``also_due_in``) becomes its due date and leaves its text."""
        if not self.is_user:
            return
        due = find_due(task, self.now) if dated else None
        text = without_due(task, due)
        if dated and due is None and also_due_in:
            due = find_due(also_due_in, self.now)
        if len(text) < 2:
            return
        text = text[0].upper() + text[1:]
        self.people.note_todo(text)
        self.todos[(kind, fold(text))] = PlanTodo(
            kind=kind,
            text=text[:300],
            due=due.at.isoformat() if due else None,
            source_snippet=self.sentence[:2000],
        )


@dataclass(frozen=True)
class Extracted:
    plan: MemoryWritePlan
    questions: list[str] = field(default_factory=list)  # whom a todo means, when unclear


def extract(
    new: Sequence[Utterance],
    *,
    now: datetime,
    context: Sequence[Utterance] = (),
    self_names: Sequence[str] = (),
    known: Sequence[Known] = (),
) -> MemoryWritePlan:
    """The plan for this turn's messages; ``context`` only seeds pronoun resolution."""
    return extract_turn(new, now=now, context=context, self_names=self_names, known=known).plan


def extract_turn(
    new: Sequence[Utterance],
    *,
    now: datetime,
    context: Sequence[Utterance] = (),
    self_names: Sequence[str] = (),
    known: Sequence[Known] = (),
) -> Extracted:
    selves = {fold(n) for n in self_names} | {"me", "user"}
    out = Emitter(now=now, people=People(known))
    for utterance in context:  # who "she" is, from earlier in the session; nothing is written
        scratch = Emitter(now=now, last_person=out.last_person)
        _read(utterance, scratch, selves)
        out.last_person = scratch.last_person
    for utterance in new:
        _read(utterance, out, selves)
    plan = MemoryWritePlan(
        entities=list(out.entities.values()),
        facts=list(out.facts.values()),
        todos=list(out.todos.values()),
        complete_commitment=out.complete,
    )
    return Extracted(plan, out.people.questions())


def _read(utterance: Utterance, out: Emitter, selves: set[str]) -> None:
    speaker = (utterance.speaker or "").strip()
    out.is_user = not speaker or fold(speaker) in selves
    last_person = out.last_person  # the speaker is never "she" in their own words
    out.subject = "user" if out.is_user else out.entity(speaker, "Person")
    out.last_person = last_person
    for sentence in _SENTENCE.split(utterance.text):
        sentence = sentence.strip()
        if sentence:
            _sentence(sentence, out)


def _sentence(sentence: str, out: Emitter) -> None:
    out.sentence = sentence
    out.valid_from = out.valid_to = None
    plain = assertion.unquoted(sentence)
    block = assertion.blocked(plain)
    for rule in rules.TODO_RULES:
        if block is None or rule.requested:
            for match in rule.pattern.finditer(plain):
                rule.apply(match, out)
    if out.is_user and block is None and says_done(plain):
        out.complete = True
    if block is not None:
        return
    for clause in assertion.clauses(plain):
        restated = assertion.ended(clause)
        dated = validity(restated or clause, out.now)
        out.valid_from, out.valid_to = dated.valid_from, dated.valid_to
        if restated is not None:
            out.valid_to = out.now
        for rule in rules.FACT_RULES:
            text = (restated or clause) if rule.raw else dated.text
            for match in rule.pattern.finditer(text):
                about_self = bool(_SELF.match(match.group(0)))
                if not assertion.hedged(text[: match.start()], about_self=about_self):
                    rule.apply(match, out)
    out.valid_from = out.valid_to = None
