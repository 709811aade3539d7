"""The offline shadow judge (001): a memory-write plan from the user's own words, by rule.

Deterministic and pure (``now`` passed in). It reads only user messages, and writes only what
they state outright: self-statements (name, home, work, diet, allergies, likes), people and
relationships, projects, and — from the user's own messages only — todos and a completion
signal. Psyche and affect are never extracted. The rules are the table in :mod:`.rules`.

Speakers: a message whose speaker is the user (no speaker, or one of ``self_names``) speaks for
"user"; any other speaker (an import such as LoCoMo commits both sides as user messages with the
speaker's name) speaks for an entity of that name, so "Caroline: I live in Boston" is a fact
about Caroline. Context messages (earlier in the session) only resolve "she"/"he".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from contracts.plan import MemoryWritePlan, PlanEntity, PlanFact, PlanTodo
from services.memory_upserter import rules
from services.memory_upserter.due import find_due, without_due
from services.memory_upserter.plan_logic import fold, says_done

_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class Utterance:
    text: str
    speaker: str | None = None  # None: the user


@dataclass
class Emitter:
    """What the rules write into, for one sentence of one speaker."""

    now: datetime
    sentence: str = ""
    subject: str = "user"   # the plan handle of whoever speaks
    is_user: bool = True
    entities: dict[str, PlanEntity] = field(default_factory=dict)
    facts: dict[tuple, PlanFact] = field(default_factory=dict)
    todos: dict[tuple, PlanTodo] = field(default_factory=dict)
    complete: bool = False
    last_person: str | None = None

    @property
    def who(self) -> str:
        return "User" if self.is_user else self.subject

    @property
    def whose(self) -> str:
        return "the user's" if self.is_user else f"{self.subject}'s"

    def entity(self, name: str, category: str) -> str:
        key = fold(name)
        if key not in self.entities:
            self.entities[key] = PlanEntity(name=name, category=category)
        if category in ("Person", "Pet"):
            self.last_person = self.entities[key].name
        return self.entities[key].name

    def fact(self, predicate: str, text: str, *, subject: str | None = None,
             obj: str | None = None, value: str | None = None, memory_type: str = "PROFILE",
             fact_type: str = "fact", importance: int = 1, confidence: float = 0.8) -> None:
        subject = subject or self.subject
        if subject != "user" and memory_type == "PROFILE":
            memory_type = "PEOPLE"
        fact = PlanFact(memory_type=memory_type, subject=subject, predicate=predicate,
                        object=obj, value=value, text=text[:500], fact_type=fact_type,
                        importance=importance, confidence=confidence)
        self.facts[(fold(subject), predicate, fold(obj or value or ""))] = fact

    def todo(self, kind: str, task: str, *, also_due_in: str = "", dated: bool = True) -> None:
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
        self.todos[(kind, fold(text))] = PlanTodo(
            kind=kind, text=text[:300], due=due.at.isoformat() if due else None,
            source_snippet=self.sentence[:2000])


def extract(new: Sequence[Utterance], *, now: datetime, context: Sequence[Utterance] = (),
            self_names: Sequence[str] = ()) -> MemoryWritePlan:
    """The plan for this turn's messages; ``context`` only seeds pronoun resolution."""
    selves = {fold(n) for n in self_names} | {"me", "user"}
    out = Emitter(now=now)
    for utterance in context:  # who "she" is, from earlier in the session; nothing is written
        scratch = Emitter(now=now, last_person=out.last_person)
        _read(utterance, scratch, selves)
        out.last_person = scratch.last_person
    for utterance in new:
        _read(utterance, out, selves)
    return MemoryWritePlan(entities=list(out.entities.values()), facts=list(out.facts.values()),
                           todos=list(out.todos.values()), complete_commitment=out.complete)


def _read(utterance: Utterance, out: Emitter, selves: set[str]) -> None:
    speaker = (utterance.speaker or "").strip()
    out.is_user = not speaker or fold(speaker) in selves
    last_person = out.last_person  # the speaker is never "she" in their own words
    out.subject = "user" if out.is_user else out.entity(speaker, "Person")
    out.last_person = last_person
    for sentence in _SENTENCE.split(utterance.text):
        sentence = sentence.strip()
        if not sentence:
            continue
        out.sentence = sentence
        for rule in rules.RULES:
            for match in rule.pattern.finditer(sentence):
                rule.apply(match, out)
        if out.is_user and says_done(sentence):
            out.complete = True
