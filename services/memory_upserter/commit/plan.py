"""The turn's plan, decided (pure: no I/O; time and ids passed in): only what the person said
becomes memory. :func:`prepare` calls the steps in order: the plan's facts the person's words
hold (a model's facts weighed against this turn's and the session's recent words by
:mod:`.grounding`: unsure ones kept lowered, hedged and unsupported ones dropped; affect a
fact only through ``promote_affect``), their names resolved (:mod:`.names`), each todo with
its due time and source sentence (:mod:`.todo_rows`); which todos the person's words close
(a past tense, a forget that names a todo) is decided against the pending ones at commit
(:mod:`.lifecycle`). :func:`prepare` returns the writes and its notices; it never changes what it is
given."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

import msgspec

from contracts.memory import Notice
from contracts.plan import MemoryWritePlan, PlanFact
from services.core import gloss
from services.core.memory_store.keys import canonical_predicate
from services.memory_upserter.commit.apart import confirmed
from services.memory_upserter.commit.copied import as_claim
from services.memory_upserter.commit.grounding import Said, ground
from services.memory_upserter.commit.judge import forgets_asked
from services.memory_upserter.commit.kinds import category_hints
from services.memory_upserter.commit.names import resolve_plan
from services.memory_upserter.commit.quoted import as_quote
from services.memory_upserter.commit.read import AFFECT_PREDICATES
from services.memory_upserter.commit.todo_question import called_off
from services.memory_upserter.commit.todo_rows import todo_rows
from services.memory_upserter.commit.turn import (
    PLAN_PATHS,
    Judgement,
    MessageRow,
    ReadTurn,
    TurnPlan,
)
from services.memory_upserter.text import fold, says_done, statement_in

LOWERED_CONFIDENCE = 0.5  # a fact the person's words support only in part


def prepare(turn: ReadTurn, judged: Judgement) -> TurnPlan:
    """The plan as writes — affect facts dropped or promoted, handles resolved, todos with
    their due time, source sentence and message — with the notices of what was left out."""
    plan = judged.plan or MemoryWritePlan()
    source = judged.source
    own = _own(turn, judged)
    facts, notes = _facts(plan, turn, judged, own)
    weighed, said = msgspec.structs.replace(plan, facts=facts), [r.text for r in own]
    hints = category_hints(weighed, said)  # what each new name is (:mod:`.kinds`)
    resolved, unresolved = resolve_plan(weighed, judged.known, said, hints)
    notes += unresolved
    if source in ("request", "answer"):
        notes += [
            Notice(
                code="entity_category_unknown",
                detail=f"{name!r} is new and nothing says what it is (no entities entry, no "
                "predicate or words that tell): kept as Other, never a Person by default",
            )
            for name in dict.fromkeys(resolved.unknown_kind)
        ]
    todos, todo_notes = todo_rows(plan, turn, own, PLAN_PATHS.get(source, "plan"))
    notes += todo_notes
    done_said = any(says_done(r.text) for r in own)
    # "nvm the card" sent as done: the person called it off — unless the plan drops something
    # too: that model told done from dropped ("passport came back … forget the insurance")
    off = bool(plan.done) and not plan.dropped and not done_said and called_off(said)
    if off:
        notes.append(
            Notice(
                code="plan_repaired",
                detail="$.answer.plan.done: the person called it off: read as dropped",
            )
        )
    asked = [judged.todo_answer] if judged.todo_answer is not None else []
    forget = list(plan.forget)
    if source in ("request", "answer") and forget:  # the person asks; a model never forgets
        forget = forgets_asked(forget, [r.text for r in own], turn.now)
        notes += [
            Notice(
                code="plan_forget_dropped",
                detail=f"{PLAN_PATHS.get(source, 'plan')}.forget: {t!r}: the person did not ask",
            )
            for t in plan.forget
            if t not in forget
        ]
    return TurnPlan(
        turn=turn,
        plan_source=source,
        resolved=resolved,
        todos=tuple(todos),
        done_said=done_said,
        complete_asked=plan.complete_commitment,
        forget=tuple(forget),
        fact_source="llm_plan" if source in ("request", "answer") else "shadow_extraction",
        notes=tuple(notes),
        questions=tuple(dict.fromkeys([*judged.questions, *resolved.open.values()])),
        done=tuple([*([] if off else plan.done), *(a.text for a in asked if a.verb == "done")]),
        dropped=tuple(
            [
                *plan.dropped,
                *(plan.done if off else ()),
                *(a.text for a in asked if a.verb == "dropped"),
            ]
        ),
        ends=tuple(plan.ends),
        closes_asked=tuple(a.question for a in asked),  # the "which one is done?" answered
        renames=judged.renames,
    )


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
    promoted, note = _promotion(plan, [r.text for r in own], turn.now)
    if judged.source != "offline_extractor":  # a model's plan: only what the person said
        said = Said(
            turn.now,
            tuple(gloss.with_english(r.text) for r in own),  # another language with its English
            tuple(map(gloss.with_english, judged.context)),
            judged.stored_facts,
            turn.reply or "",
            tuple(judged.self_names),
            judged.people,
            turn.trust,
        )
        facts, dropped = weigh(facts, said, _alias_names(plan, judged, said))
        notes += dropped
    return facts + promoted, notes + note


def _alias_names(plan: MemoryWritePlan, judged: Judgement, said: Said) -> dict[str, str]:
    """The aliases a fact may name someone by, each with their name: a known entity's stored
    ones, and a plan entity's the person's words confirm (:func:`.apart.confirmed`)."""
    words = (*said.this_turn, *said.earlier)
    names = {fold(a): k.name for k in judged.known for a in k.aliases}
    for e in plan.entities:
        names |= {fold(a): e.name for a in e.aliases if confirmed(a, e.name, words)}
    return names


def _by_name(fact: PlanFact, names: Mapping[str, str]) -> PlanFact:
    """The fact with an alias object or value read as the name ("work Priya" → "Priya"): the
    alias is a label that tells two namesakes apart, not a claim to ground."""
    obj, value = (None if t is None else names.get(fold(t), t) for t in (fact.object, fact.value))
    return msgspec.structs.replace(fact, object=obj, value=value)


def weigh(
    facts: Sequence[PlanFact], said: Said, names: Mapping[str, str] | None = None
) -> tuple[list[PlanFact], list[Notice]]:
    """The facts the person's words support (:mod:`.grounding`), one naming someone by an
    alias read by their name (:func:`_by_name`): the unsure ones kept lowered — confidence at
    most 0.5, importance at most 1, never pinned, so out of FOUNDATION — the unsupported and
    the hedged ones dropped; a copy of the person's words in another language kept lowered
    (:mod:`.quoted`); a notice for each."""
    kept: list[PlanFact] = []
    notes: list[Notice] = []
    for fact in facts:
        found = as_quote(fact.text, ground(_by_name(as_claim(fact), names or {}), said))
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


# how long a feeling the person stated stays current: "bit stressed tbh" is this week's, not who
# they are (after it, the fact is history: searchable, no longer shown as current)
FEELING_HOLDS = timedelta(days=7)


def _promotion(
    plan: MemoryWritePlan, said: Sequence[str], now: datetime
) -> tuple[list[PlanFact], list[Notice]]:
    """``promote_affect`` as a FEELS fact when the user's words hold its statement, current
    for :data:`FEELING_HOLDS` from the turn."""
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
        valid_to=(now + FEELING_HOLDS).isoformat(),
    )
    return [fact], []
