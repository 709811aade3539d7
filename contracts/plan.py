"""The memory-write plan: what the LLM (or the offline extractor) asks memory-upserter to store.

The LLM answers every turn with :class:`LLMAnswer` — its reply plus this plan — in one call.
Facts are PROFILE/PEOPLE/PROJECT only; open loops are todos, never facts (001 invariant).
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from contracts.common import (
    Category,
    Confidence,
    Importance,
    MemoryType,
    Scope,
    ShortText,
    Struct,
    TodoKind,
)

EntityHandle = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=120,
        description="'user' for the person themselves, an entity ref such as "
        "'person:marta', or a name used in this plan.",
    ),
]
FactType = Literal["fact", "preference", "relationship", "friction", "habit"]
Handle = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=120,
        description="The handle shown beside a GRAPH line, e.g. 'F3a9c1b' (a fact) or 'T07be2c' "
        "(a todo); for a todo its words also do ('call Marta').",
    ),
]


class PlanEntity(Struct, kw_only=True, frozen=True):
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=120)]
    category: Category = "Person"
    aliases: Annotated[
        list[Annotated[str, msgspec.Meta(min_length=1, max_length=120)]],
        msgspec.Meta(max_length=20),
    ] = []
    scope: Scope = "global"
    hint: ShortText | None = None
    distinct_from: (
        Annotated[
            str,
            msgspec.Meta(
                min_length=1,
                max_length=120,
                description="A new person, not the user's existing entity of this id, ref or name "
                "(two people with one name): never merged with it. Give it a "
                "distinguishing alias, e.g. 'work Marta', and name it by that alias in "
                "facts (its bare name is the known one).",
            ),
        ]
        | None
    ) = None


class PlanFact(Struct, kw_only=True, frozen=True):
    """One fact: ``subject predicate object`` (an entity) or ``subject predicate value``."""

    memory_type: MemoryType
    subject: EntityHandle = "user"
    predicate: Annotated[
        str, msgspec.Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z][A-Za-z0-9_]*$")
    ]
    object: EntityHandle | None = None
    value: Annotated[str, msgspec.Meta(max_length=500)] | None = None
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]
    fact_type: FactType = "fact"
    importance: Importance = 1
    pinned: bool = False
    confidence: Confidence = 0.8
    scope: Scope = "global"
    valid_from: (
        Annotated[
            str,
            msgspec.Meta(
                max_length=40,
                description="Since when it holds: ISO date or date-time, or words resolved "
                "against the "
                "turn's time ('last week', 'in March', 'since 2019'). Default: the turn.",
            ),
        ]
        | None
    ) = None
    valid_to: (
        Annotated[
            str,
            msgspec.Meta(
                max_length=40,
                description="Until when it holds ('until Friday', 'for two weeks', an ISO "
                "date); a time "
                "at or before the turn ends a fact the user no longer holds. Default: open.",
            ),
        ]
        | None
    ) = None
    replaces: (
        Annotated[
            Handle,
            msgspec.Meta(
                description="The handle of the GRAPH fact this one corrects or succeeds "
                "(a new home, job or partner): that fact ends when this one starts."
            ),
        ]
        | None
    ) = None


class PlanTodo(Struct, kw_only=True, frozen=True):
    kind: TodoKind
    text: Annotated[str, msgspec.Meta(min_length=1, max_length=300)]
    due: Annotated[str, msgspec.Meta(max_length=40)] | None = None
    source_snippet: ShortText | None = None


class AffectPromotion(Struct, kw_only=True, frozen=True):
    """Store an affect as a fact only because the user said it outright (003 §3.2)."""

    label: Annotated[str, msgspec.Meta(min_length=1, max_length=40)]
    user_statement: Annotated[str, msgspec.Meta(min_length=1, max_length=500)]


class MemoryWritePlan(Struct, kw_only=True, frozen=True):
    entities: Annotated[list[PlanEntity], msgspec.Meta(max_length=50)] = []
    facts: Annotated[list[PlanFact], msgspec.Meta(max_length=50)] = []
    todos: Annotated[list[PlanTodo], msgspec.Meta(max_length=20)] = []
    complete_commitment: bool = False
    promote_affect: AffectPromotion | None = None
    forget: Annotated[
        list[Annotated[str, msgspec.Meta(max_length=200)]], msgspec.Meta(max_length=20)
    ] = []
    ends: Annotated[
        list[Handle],
        msgspec.Meta(
            max_length=20,
            description="Handles of GRAPH facts the person says no longer hold ('I quit', "
            "'we broke up'): each ends at the turn, kept as history.",
        ),
    ] = []
    done: Annotated[
        list[Handle],
        msgspec.Meta(
            max_length=20,
            description="Todos (commitments, reminders, threads) the person says are done: "
            "their handle, or their words.",
        ),
    ] = []
    dropped: Annotated[
        list[Handle],
        msgspec.Meta(
            max_length=20,
            description="Todos the person no longer wants (cancelled, not doing it): their "
            "handle, or their words.",
        ),
    ] = []


class LLMAnswer(Struct, kw_only=True, frozen=True):
    """What the model must answer with: the reply to send, and what to remember."""

    reply: Annotated[str, msgspec.Meta(min_length=1, max_length=8_000)]
    plan: MemoryWritePlan = msgspec.field(default_factory=MemoryWritePlan)


EXPORTS = {"memory-write-plan": MemoryWritePlan, "llm-answer": LLMAnswer}
