"""The turn's plan, decided (pure: no I/O; time and ids passed in): only what the person said
becomes memory. A model's fact must be grounded in the person's words — this turn's and their
recent ones of the session (:mod:`.grounding`: unsure facts kept lowered, hedged and
unsupported ones dropped) — affect becomes a fact only through ``promote_affect`` with the
user's own statement, each todo gets its due time and source sentence, and a commitment is
completed only when the person says done.
:func:`prepare` returns the writes and its notices; it never changes what it is given."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

import msgspec

from contracts.memory import Notice
from contracts.plan import MemoryWritePlan, PlanFact
from services.core.memory_store.keys import canonical_predicate
from services.core.memory_store.shapes import EntityWrite
from services.memory_upserter.commit.grounding import Said, ground
from services.memory_upserter.commit.read import (
    AFFECT_PREDICATES,
    OBJECT_CATEGORIES,
    REF_CATEGORIES,
    SELF,
    SELF_HANDLES,
    validity,
)
from services.memory_upserter.commit.turn import Judgement, ReadTurn, Resolved, TodoRow, TurnPlan
from services.memory_upserter.extract.due import parse_due
from services.memory_upserter.text import (
    SENTENCES,
    TODO_CUES,
    fold,
    says_done,
    statement_in,
    words,
)

LOWERED_CONFIDENCE = 0.5  # a fact the person's words support only in part


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
        for sentence in SENTENCES.split(text):
            overlap = len(wanted & set(words(sentence)))
            score = overlap + (0.5 if overlap and TODO_CUES.search(sentence) else 0.0)
            if score and score >= best[0]:
                best = (score, index, sentence.strip())
    return (snippet or best[2][:2000]) or None, best[1]


def prepare(turn: ReadTurn, judged: Judgement) -> TurnPlan:
    """The plan as writes — affect facts dropped or promoted, handles resolved, todos with
    their due time, source sentence and message — with the notices of what was left out."""
    plan = judged.plan or MemoryWritePlan()
    source = judged.source
    notes = list(judged.notes)
    selves = {fold(n) for n in judged.self_names}
    own = [
        r
        for r in turn.user_rows
        if not r.speaker or fold(r.speaker) in selves or source in ("request", "answer")
    ]
    facts = [f for f in plan.facts if canonical_predicate(f.predicate) not in AFFECT_PREDICATES]
    if len(facts) < len(plan.facts):
        notes.append(
            Notice(
                code="affect_fact_dropped",
                detail=(
                    f"{len(plan.facts) - len(facts)} feeling/mood fact(s) ignored: AFFECT "
                    "becomes a fact only through promote_affect, when the user said it"
                ),
            )
        )
    if source != "offline_extractor":  # a model's plan: only what the person said
        said = Said(turn.now, tuple(r.text for r in own), tuple(judged.context))
        facts, dropped = weigh(facts, said)
        notes += dropped
    promoted, note = _promotion(plan, [r.text for r in own])
    facts += promoted
    notes += note
    resolved = resolve(msgspec.structs.replace(plan, facts=facts))
    todos: list[TodoRow] = []
    seen: set[tuple[str, str]] = set()
    user_texts = [(i, r.text) for i, r in enumerate(turn.rows) if r in own]
    for todo in plan.todos:
        key = (todo.kind, fold(todo.text))
        if key in seen:
            continue
        seen.add(key)
        due = parse_due(todo.due, turn.now) if todo.due else None
        if todo.due and due is None:
            notes.append(
                Notice(
                    code="due_not_understood",
                    detail=f"todo {todo.text[:60]!r}: due {todo.due!r} ignored",
                )
            )
        snippet, index = source_of(todo.text, todo.source_snippet, user_texts)
        message_id = turn.rows[index].message_id if index is not None else None
        todos.append(TodoRow(uuid.uuid4(), todo.kind, todo.text, due, snippet, message_id))
    done_said = any(says_done(r.text) for r in own)
    if plan.complete_commitment and not done_said:
        notes.append(
            Notice(
                code="commitment_not_completed",
                detail="complete_commitment needs the user to say done, finished or completed",
            )
        )
    return TurnPlan(
        turn=turn,
        plan_source=source,
        resolved=resolved,
        validity=tuple(validity(f, turn.now) for f, _, _ in resolved.facts),
        todos=tuple(todos),
        done_said=done_said,
        complete_asked=plan.complete_commitment,
        forget=tuple(plan.forget),
        fact_source="llm_plan" if source in ("request", "answer") else "shadow_extraction",
        notes=tuple(notes),
        questions=judged.questions,
        ends=tuple(plan.ends),
    )


def weigh(facts: Sequence[PlanFact], said: Said) -> tuple[list[PlanFact], list[Notice]]:
    """The facts the person's words support (:mod:`.grounding`): the unsure ones kept lowered —
    confidence at most 0.5, importance at most 1, never pinned, so out of FOUNDATION — the
    unsupported and the hedged ones dropped; a notice for each."""
    kept: list[PlanFact] = []
    notes: list[Notice] = []
    for fact in facts:
        found = ground(fact, said)
        what = f"{fact.predicate} {fact.value if fact.value is not None else fact.object!r}"
        if found.verdict == "kept":
            kept.append(fact)
        elif found.verdict == "lowered":
            kept.append(
                msgspec.structs.replace(
                    fact,
                    confidence=min(fact.confidence, LOWERED_CONFIDENCE),
                    importance=min(fact.importance, 1),
                    pinned=False,
                )
            )
            notes.append(Notice(code="fact_unsure", detail=f"kept {what} lowered: {found.reason}"))
        else:
            code = "fact_hedged" if found.verdict == "hedged" else "fact_not_grounded"
            notes.append(
                Notice(code=code, detail=f'dropped {what}: "{fact.text[:120]}" — {found.reason}')
            )
    return kept, notes


def _promotion(plan: MemoryWritePlan, said: Sequence[str]) -> tuple[list[PlanFact], list[Notice]]:
    """``promote_affect`` as a FEELS fact when the user's words hold its statement."""
    promotion = plan.promote_affect
    if promotion is None:
        return [], []
    if not statement_in(promotion.user_statement, said):
        return [], [
            Notice(
                code="affect_not_promoted",
                detail=(
                    "promote_affect ignored: the user's message in this turn does not contain "
                    "the stated user_statement"
                ),
            )
        ]
    label = promotion.label.lower()
    fact = PlanFact(
        memory_type="PROFILE",
        subject="user",
        predicate="FEELS",
        value=label,
        importance=0,
        confidence=0.7,
        text=f'User said they feel {label}: "{promotion.user_statement[:400]}"',
    )
    return [fact], []


@dataclass
class _Resolver:
    """Builds a :class:`Resolved`: each handle, folded, found again as the write it made."""

    out: Resolved = field(default_factory=Resolved)
    index: dict[str, int] = field(default_factory=dict)

    def handle(self, handle: str, *, category: str) -> int:
        key = fold(handle)
        if key in SELF_HANDLES:
            return SELF
        if key not in self.index:
            ref = handle if re.fullmatch(r"[a-z_]+:[^\s:]+", handle) else None
            name = (
                re.sub(r"_\d+$", "", ref.split(":", 1)[1]).replace("_", " ").title()
                if ref
                else handle.strip()
            )
            if ref:
                category = REF_CATEGORIES.get(ref.split(":", 1)[0], "Other")
            self.index[key] = self.add(EntityWrite(name, category, (), "global", ref))
        return self.index[key]

    def add(self, write: EntityWrite, *, by_name: bool = True) -> int:
        """A write, found again by its aliases and (unless it is a namesake declared apart,
        which the plan names by an alias) by its name."""
        self.out.writes.append(write)
        index = len(self.out.writes) - 1
        for name in (*([write.name] if by_name else []), *write.aliases):
            self.index.setdefault(fold(name), index)
        return index


def resolve(plan: MemoryWritePlan) -> Resolved:
    """Entity writes for the plan's entities and for every handle its facts use ("user" is the
    user's own entity, an ``entity_ref`` is looked up, any other name becomes an entity)."""
    resolver = _Resolver()
    out = resolver.out
    for i, entity in enumerate(plan.entities):
        if fold(entity.name) not in SELF_HANDLES:
            index = resolver.add(
                EntityWrite(entity.name, entity.category, tuple(entity.aliases), entity.scope),
                by_name=entity.distinct_from is None or not entity.aliases,
            )
            if entity.distinct_from is not None:
                out.distinct[index] = (i, entity.distinct_from)
    for fact in plan.facts:
        predicate = canonical_predicate(fact.predicate, literal=fact.object is None)
        subject_category = {"PROJECT": "Project"}.get(fact.memory_type, "Person")
        subject = resolver.handle(fact.subject, category=subject_category)
        obj = None
        if fact.object is not None:
            guess = OBJECT_CATEGORIES.get(predicate) or (
                "Person"
                if predicate.startswith("HAS_")
                else "Project"
                if fact.memory_type == "PROJECT"
                else "Other"
            )
            obj = resolver.handle(fact.object, category=guess)
        out.facts.append((fact, subject, obj))
        if subject == SELF and predicate == "NAME" and fact.value:
            out.self_aliases.append(fact.value)
    return out
