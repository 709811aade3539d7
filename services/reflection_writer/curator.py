"""The curator's decisions (001), pure: what to archive, fold and supersede. Never deletes.

**When** (``due``): 24 h since its last run for this user, or 25+ facts added since (or never
run).

**What**, over the user's ACTIVE facts, each fact decided at most once, pinned facts never:

1. *Dedupe* — facts with the same scope, agent, memory type and normalized text (folded,
   punctuation dropped) are duplicates: the pinned one (else the newest) stays, the others are
   ARCHIVED.
2. *Fold* — 3+ PEOPLE facts about one entity (same subject, scope, agent) become one curated
   fact (source ``curated_fold``, predicate ``CURATED_SUMMARY``, their texts joined, the
   highest importance and confidence, the union of their provenance); the originals are
   ARCHIVED with ``folded_into`` = the new row. A fold stays short — at most
   :data:`FOLD_WORDS` words: facts are folded in the order they came, a fold closes when the
   next fact would take it past that, and a run of fewer than three left over stays unfolded.
   A previous fold of that entity joins the new one while the two fit together; past that it
   stays as it is. (An ever-growing "everything about Marta" fact is found for any question
   about her and costs the prompt a paragraph each time: bench/RESULTS.md.) The new row's id
   is uuid5 of its members, so a retried fold is the same row.
3. *Deactivate outdated low-confidence facts* — a fact with confidence < 0.5 is SUPERSEDED
   (``superseded_by`` the newest contradicting fact) when a newer fact with the same subject,
   predicate, scope and agent has a different object or value and at least its confidence.
   Only single-valued predicates can contradict (``exclusive``: LIVES_IN, WORKS_AT, STATUS…,
   the shared write path's list — a second LIKES is not a contradiction); PSYCHE and curated
   facts are left alone.
"""

from __future__ import annotations

import re
import uuid
from collections import defaultdict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from services.reflection_writer.text import clip, fold

CURATOR_PERIOD = timedelta(hours=24)
CURATOR_FACTS = 25
FOLD_MIN = 3
LOW_CONFIDENCE = 0.5
FOLD_PREDICATE = "CURATED_SUMMARY"
FOLD_SOURCE = "curated_fold"
FOLD_CHARS = 1500
FOLD_WORDS = 60
FOLD_NAMESPACE = uuid.UUID("4f3a1d0e-2b9c-4e55-8d7a-0c6b1f2e9a34")
_PUNCT = re.compile(r"[^\w\s]+")


@dataclass(frozen=True, slots=True)
class CuratorFact:
    rel_id: str
    scope: str
    agent_id: str | None
    subject_id: str
    predicate: str
    object_key: str  # the object entity id or the literal value, as text
    memory_type: str
    text: str
    confidence: float
    importance: int
    pinned: bool
    source: str
    created_at: datetime
    message_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fold:
    new_id: str
    subject_id: str
    scope: str
    agent_id: str | None
    text: str
    importance: int
    confidence: float
    message_ids: list[str]
    members: list[str]


@dataclass
class CuratorPlan:
    archive: list[str] = field(default_factory=list)  # duplicates
    folds: list[Fold] = field(default_factory=list)
    supersede: list[tuple[str, str]] = field(default_factory=list)  # (old, newer)

    @property
    def touched(self) -> list[str]:
        return [
            *self.archive,
            *(m for f in self.folds for m in f.members),
            *(old for old, _ in self.supersede),
        ]


def due(last_run_at: datetime | None, now: datetime, facts_added: int) -> bool:
    return (
        last_run_at is None or now - last_run_at >= CURATOR_PERIOD or facts_added >= CURATOR_FACTS
    )


def normalized(text: str) -> str:
    return " ".join(_PUNCT.sub(" ", fold(text)).split())


def plan(facts: Sequence[CuratorFact], exclusive: Collection[str]) -> CuratorPlan:
    """The curator's decisions; ``exclusive``: the single-valued predicates (upper case)."""
    result = CuratorPlan()
    survivors = _dedupe(facts, result)
    survivors = _fold(survivors, result)
    _supersede(survivors, result, exclusive)
    return result


def _newest_first(fact: CuratorFact) -> tuple[bool, float, str]:
    return (not fact.pinned, -fact.created_at.timestamp(), fact.rel_id)


def _dedupe(facts: Sequence[CuratorFact], result: CuratorPlan) -> list[CuratorFact]:
    groups: dict[tuple[str, str, str, str], list[CuratorFact]] = defaultdict(list)
    for fact in facts:
        groups[(fact.scope, fact.agent_id or "", fact.memory_type, normalized(fact.text))].append(
            fact
        )
    survivors = []
    for group in groups.values():
        keeper, *others = sorted(group, key=_newest_first)
        survivors.append(keeper)
        for other in others:
            if other.pinned:
                survivors.append(other)
            else:
                result.archive.append(other.rel_id)
    return sorted(survivors, key=lambda f: (f.created_at, f.rel_id))


def _fold(facts: list[CuratorFact], result: CuratorPlan) -> list[CuratorFact]:
    groups: dict[tuple[str, str, str], list[CuratorFact]] = defaultdict(list)
    for fact in facts:
        if fact.memory_type == "PEOPLE" and not fact.pinned:
            groups[(fact.subject_id, fact.scope, fact.agent_id or "")].append(fact)
    folded: set[str] = set()
    for (subject_id, scope, _), group in groups.items():
        fresh = [f for f in group if f.source != FOLD_SOURCE]
        if len(fresh) < FOLD_MIN:
            continue
        old = [f for f in group if f.source == FOLD_SOURCE]
        for members in _fold_runs(old, fresh):
            ids = [f.rel_id for f in members]
            message_ids = list(dict.fromkeys(m for f in members for m in f.message_ids))[:50]
            result.folds.append(
                Fold(
                    new_id=str(uuid.uuid5(FOLD_NAMESPACE, "|".join(sorted(ids)))),
                    subject_id=subject_id,
                    scope=scope,
                    agent_id=members[0].agent_id,
                    text=clip(_joined(members), FOLD_CHARS),
                    importance=max(f.importance for f in members),
                    confidence=max(f.confidence for f in members),
                    message_ids=message_ids,
                    members=ids,
                )
            )
            folded.update(ids)
    return [f for f in facts if f.rel_id not in folded]


def _joined(members: Sequence[CuratorFact]) -> str:
    return "; ".join(f.text.strip().rstrip(".") for f in members) + "."


def _fold_runs(old: list[CuratorFact], fresh: list[CuratorFact]) -> list[list[CuratorFact]]:
    """The folds to make: runs of fresh facts (in order) of at most :data:`FOLD_WORDS` words
    and at least :data:`FOLD_MIN` facts, the previous folds joining the first run while they
    all fit (old fold text first)."""
    runs: list[list[CuratorFact]] = []
    run: list[CuratorFact] = []
    for fact in fresh:
        if run and len(_joined([*run, fact]).split()) > FOLD_WORDS:
            runs.append(run)
            run = []
        run.append(fact)
    runs.append(run)
    runs = [r for r in runs if len(r) >= FOLD_MIN]
    if runs and old and len(_joined([*old, *runs[0]]).split()) <= FOLD_WORDS:
        runs[0] = [*old, *runs[0]]
    return runs


def _supersede(facts: list[CuratorFact], result: CuratorPlan, exclusive: Collection[str]) -> None:
    groups: dict[tuple[str, str, str, str], list[CuratorFact]] = defaultdict(list)
    for fact in facts:
        if (
            fact.memory_type != "PSYCHE"
            and fact.source != FOLD_SOURCE
            and fact.predicate.upper() in exclusive
        ):
            groups[
                (fact.subject_id, fact.predicate.upper(), fact.scope, fact.agent_id or "")
            ].append(fact)
    for group in groups.values():
        ordered = sorted(group, key=lambda f: (f.created_at, f.rel_id))
        for i, old in enumerate(ordered):
            if old.pinned or old.confidence >= LOW_CONFIDENCE:
                continue
            newer = [
                g
                for g in ordered[i + 1 :]
                if g.object_key != old.object_key
                and g.confidence >= old.confidence
                and g.created_at > old.created_at
            ]
            if newer:
                result.supersede.append((old.rel_id, newer[-1].rel_id))
