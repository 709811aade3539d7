"""The turn's plan, decided (pure: no I/O; time and ids passed in): only what the person said
becomes memory. A model's fact must be grounded in the person's words — this turn's and their
recent ones of the session (:mod:`.grounding`: unsure facts kept lowered, hedged and
unsupported ones dropped) — affect becomes a fact only through ``promote_affect`` with the
user's own statement, each todo gets its due time and source sentence, and a commitment is
completed only when the person says done — or, when the plan says so, their past-tense words
name the todo ("called marta!!").
:func:`prepare` returns the writes and its notices; it never changes what it is given."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from datetime import datetime

import msgspec

from contracts.memory import Notice
from contracts.plan import MemoryWritePlan, PlanFact
from services.core.memory_store.keys import canonical_predicate
from services.memory_upserter.commit.grounding import Said, ground
from services.memory_upserter.commit.judge import forgets_asked
from services.memory_upserter.commit.names import resolve
from services.memory_upserter.commit.read import AFFECT_PREDICATES
from services.memory_upserter.commit.turn import (
    Judgement,
    MessageRow,
    ReadTurn,
    Resolved,
    TodoRow,
    TurnPlan,
)
from services.memory_upserter.extract.due import parse_due
from services.memory_upserter.extract.temporal import parse_when
from services.memory_upserter.text import (
    SENTENCES,
    TODO_CUES,
    fold,
    says_done,
    statement_in,
    words,
)

# A sentence that opens with what the person did: "called marta!!", "i finally booked it"
_DID = re.compile(
    r"(?i)\W*(?:i\s+|we\s+)?(?:just\s+|finally\s+|already\s+)?(?:[a-z]{2,}ed|did|went|got|"
    r"sent|paid|bought|made|took|wrote|met|saw|ran|gave|told|spoke|rang|found|left|brought)\b"
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
    own = _own(turn, judged)
    facts, notes = _facts(plan, turn, judged, own)
    resolved = resolve(
        msgspec.structs.replace(plan, facts=facts), judged.known, [r.text for r in own]
    )
    notes += _ambiguous(resolved)
    if source in ("request", "answer"):
        notes += [
            Notice(
                code="entity_category_unknown",
                detail=f"{name!r} is new and nothing says what it is (no entities entry, no "
                "predicate or words that tell): kept as Other, never a Person by default",
            )
            for name in dict.fromkeys(resolved.unknown_kind)
        ]
    todos, todo_notes = _todos(plan, turn, own)
    notes += todo_notes
    done_said = any(says_done(r.text) for r in own)
    did = [] if done_said or not plan.complete_commitment else did_sentences([r.text for r in own])
    forget = list(plan.forget)
    if source in ("request", "answer") and forget:  # the person asks; a model never forgets
        forget = forgets_asked(forget, [r.text for r in own], turn.now)
        notes += [
            Notice(code="plan_forget_dropped", detail=f"$.forget: {t!r}: the person did not ask")
            for t in plan.forget
            if t not in forget
        ]
    if plan.complete_commitment and not done_said and not did:
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
        forget=tuple(forget),
        fact_source="llm_plan" if source in ("request", "answer") else "shadow_extraction",
        notes=tuple(notes),
        questions=tuple(dict.fromkeys([*judged.questions, *resolved.open.values()])),
        done=tuple([*plan.done, *did]),
        dropped=tuple(plan.dropped),
        ends=tuple(plan.ends),
    )


def did_sentences(said: Sequence[str]) -> list[str]:
    """The person's past-tense sentences ("called marta!!"): a plan that says a commitment is
    done without naming it, when the person never said "done", closes the todo these name by
    their words — or none, with a notice (:mod:`.todos`)."""
    return [
        s.strip()
        for text in said
        for s in SENTENCES.split(text)
        if _DID.match(s) and not TODO_CUES.search(s)
    ][:5]


def _own(turn: ReadTurn, judged: Judgement) -> list[MessageRow]:
    """The person's own messages of the turn (a request's or answer's plan: all the user's)."""
    selves = {fold(n) for n in judged.self_names}
    return [
        r
        for r in turn.user_rows
        if not r.speaker or fold(r.speaker) in selves or judged.source in ("request", "answer")
    ]


def _facts(
    plan: MemoryWritePlan, turn: ReadTurn, judged: Judgement, own: list[MessageRow]
) -> tuple[list[PlanFact], list[Notice]]:
    """The plan's facts without affect, weighed against the person's words (a model's plan),
    with ``promote_affect``'s fact; and the notices, the judge's first."""
    notes = list(judged.notes)
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
    if judged.source != "offline_extractor":  # a model's plan: only what the person said
        said = Said(
            turn.now, tuple(r.text for r in own), tuple(judged.context), judged.stored_facts
        )
        facts, dropped = weigh(facts, said)
        notes += dropped
    promoted, note = _promotion(plan, [r.text for r in own])
    return facts + promoted, notes + note


def _ambiguous(resolved: Resolved) -> list[Notice]:
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


def _todos(
    plan: MemoryWritePlan, turn: ReadTurn, own: list[MessageRow]
) -> tuple[list[TodoRow], list[Notice]]:
    """Each todo once, with its due time, source sentence and message; a notice for a due
    time not understood."""
    todos: list[TodoRow] = []
    notes: list[Notice] = []
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
    return todos, notes


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


def validity(fact: PlanFact, now: datetime) -> tuple[datetime | None, datetime | None]:
    """The fact's ``valid_from``/``valid_to`` resolved against the turn (None: not given or
    not understood; a model's plan has them resolved already, by :mod:`.lenient`)."""
    return (
        parse_when(fact.valid_from, now) if fact.valid_from else None,
        parse_when(fact.valid_to, now, end=True) if fact.valid_to else None,
    )
