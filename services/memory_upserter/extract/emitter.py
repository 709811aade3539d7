"""What the offline extractor's rules write into (:class:`Emitter`): for one clause of one
speaker, the plan's entities, facts and todos, keyed so a repeat merges, with the clause's
validity and who "she" was. The rules (:mod:`.rules`) import it; the
extractor (:mod:`.extractor`) runs them over each sentence."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

from contracts.common import Category, MemoryType, TodoKind
from contracts.plan import FactType, PlanEntity, PlanFact, PlanTodo
from services.memory_upserter.extract.due import find_due, without_due
from services.memory_upserter.extract.people import People
from services.memory_upserter.extract.phrase import whole, without_filler, without_rhythm
from services.memory_upserter.text import fold

_TASTES = frozenset({"LIKES", "DISLIKES", "LOVES", "ENJOYS"})  # values said with a rhythm too

# what chat puts after a task that is no part of it
_CHAT_END = re.compile(
    r"(?i)(?:\s+(?:too|as\s+well|also|pls|please|plz|lol|haha|thx|thanks|btw|tho|ok))+\W*$"
)

# Words of a relation's beginning: only then does the clause's time date the relation.
_BEGINS = re.compile(
    r"(?i)\b(?:born|adopt\w*|rescued|married|wed|engaged|dating|met|got|new|welcomed|since|"
    r"brought\s+home|moved\s+in|gave\s+birth|had\s+(?:a|our|my|their)|became|becoming)\b"
)


@dataclass
class Emitter:
    """What the rules write into, for one clause of one speaker."""

    now: datetime
    sentence: str = ""
    message: str = ""  # the whole message the sentence is from
    subject: str = "user"  # the plan handle of whoever speaks
    is_user: bool = True
    entities: dict[str, PlanEntity] = field(default_factory=dict)
    facts: dict[tuple[str, str, str], PlanFact] = field(default_factory=dict)
    todos: dict[tuple[str, str], PlanTodo] = field(default_factory=dict)
    complete: bool = False
    forget: list[str] = field(default_factory=list)  # what the person asks to be forgotten
    ends: list[str] = field(default_factory=list)  # facts ended by words ("ALLERGY except nuts")
    correcting: bool = False  # the sentence corrects what was said before
    done: list[str] = field(default_factory=list)  # todos the user says are done, by words
    dropped: list[str] = field(default_factory=list)  # todos the user no longer wants
    last_person: str | None = None
    clause_start: int = 0  # how many facts the plan held when this clause began
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    people: People = field(default_factory=People)
    handles: dict[str, str] = field(default_factory=dict)  # folded name → plan handle
    names: list[str] = field(default_factory=list)  # the turn's known names, as written
    heard: dict[str, str] = field(default_factory=dict)  # speaker → their earlier sentences

    @property
    def said_before(self) -> str:
        """What this speaker said earlier in the session and the turn, before this sentence."""
        return self.heard.get(self.subject, "")

    @property
    def clause_said(self) -> bool:
        """Whether an earlier rule already wrote a fact from this clause."""
        return len(self.facts) > self.clause_start

    @property
    def who(self) -> str:
        return "User" if self.is_user else self.subject

    @property
    def whose(self) -> str:
        return "the user's" if self.is_user else f"{self.subject}'s"

    def entity(self, name: str, category: Category) -> str:
        name = without_filler(name) or name  # "a novel atm": the novel
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
        if obj is not None:
            if not whole(obj):
                return  # "working on myself", "allergic to stuff": no thing of theirs
            obj = without_filler(obj) or obj  # as :meth:`entity` named it
        if value is not None:
            value = whole(value)  # "hiking tbh": hiking; "also latex": latex
            if fact_type == "habit" or predicate in _TASTES:
                value = without_rhythm(value)  # "hiking most weekends": hiking
            if not value:
                return  # "… and stuff", "dogs are fine", "chatting with you": no value of theirs
        subject = subject or self.subject
        valid_from = self.valid_from
        if (
            fact_type == "relationship"
            and valid_from is not None
            and (valid_from > self.now or not _BEGINS.search(self.sentence))
        ):  # "my brother Ben is starting uni in Sept", "my daughter lost a tooth today": the
            valid_from = None  # time is the event's; the relation began long before
        key = (fold(subject), predicate, fold(obj or value or ""))
        if fact_type == "relationship" and key in self.facts:
            # a relation said again keeps the time its first rule gave it ("my grandpa died in
            # March": the death's month, not the start of being his grandchild)
            prior = self.facts[key].valid_from
            valid_from = datetime.fromisoformat(prior) if prior else None
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
            valid_from=valid_from.isoformat() if valid_from else None,
            valid_to=self.valid_to.isoformat() if self.valid_to else None,
        )
        self.facts[key] = fact

    def todo(
        self,
        kind: TodoKind,
        task: str,
        *,
        also_due_in: str = "",
        dated: bool = True,
        at: datetime | None = None,
    ) -> None:
        """A todo of the user's (another speaker's plans are not theirs); a due expression in
        the task (or in ``also_due_in``) becomes its due date and leaves its text; ``at``: the
        due date the clause's time words already gave, when the task has none."""
        if not self.is_user:
            return
        due = find_due(task, self.now) if dated else None
        text = _CHAT_END.sub("", without_due(task, due))  # "email marta too pls": Email marta
        if dated and due is None and also_due_in:
            due = find_due(also_due_in, self.now)
        if len(text) < 2:
            return
        due_at = due.at if due else (at if dated else None)
        text = text[0].upper() + text[1:]
        self.people.note_todo(text)
        self.todos[(kind, fold(text))] = PlanTodo(
            kind=kind,
            text=text[:300],
            due=due_at.isoformat() if due_at else None,
            source_snippet=self.sentence[:2000],
        )
