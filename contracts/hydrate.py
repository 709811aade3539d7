"""graph-hydrator's request and answer: one user message in, the ``GRAPH`` slot out."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import msgspec

from contracts.common import (
    FEW,
    MANY,
    SLOT_CONTRACT_VERSION,
    AgentId,
    ChatId,
    ContractVersion,
    RowId,
    Struct,
    UserId,
    UserMessage,
)
from contracts.slots import GraphSlot

EDGE_CAP_MIN, EDGE_CAP_MAX, EDGE_CAP_DEFAULT = 30, 60, 40


EdgeCap = Annotated[
    int,
    msgspec.Meta(
        ge=EDGE_CAP_MIN,
        le=EDGE_CAP_MAX,
        description="How many edges the subgraph keeps after ranking (003 §6.4).",
    ),
]


class HydrateRequest(Struct, kw_only=True, frozen=True):
    """One user turn, with the session's focus as pulse-decay returned it."""

    user_id: UserId
    agent_id: AgentId
    chat_id: ChatId
    message: UserMessage
    active_entity_ids: Annotated[
        list[RowId],
        msgspec.Meta(
            max_length=100,
            description="The session's active entity ids (pulse-decay's "
            "`session.active_entity_ids`):"
            " they resolve same-name mentions, and are the seeds when the message uses a "
            "pronoun or names nobody. Ids that are not this user's visible entities are "
            "ignored.",
        ),
    ] = []
    topic_focus: (
        Annotated[
            str,
            msgspec.Meta(
                max_length=200,
                description="The session's topic (`scratch.topic_focus`, e.g. 'family'); breaks "
                "a tie "
                "between same-name entities when it matches one's aliases or attributes.",
            ),
        ]
        | None
    ) = None
    edge_cap: EdgeCap = EDGE_CAP_DEFAULT
    now: (
        Annotated[
            datetime,
            msgspec.Meta(
                tz=True,
                description="The turn's time with its offset; decides which facts are valid and "
                "which "
                "wins are recent. Defaults to the server clock.",
            ),
        ]
        | None
    ) = None


class Mention(Struct, kw_only=True, frozen=True):
    """A name or alias found in the message and what it was resolved to."""

    text: Annotated[str, msgspec.Meta(description="As written, without a possessive 's.")]
    normalized: Annotated[str, msgspec.Meta(description="The lower(unaccent()) key it matched.")]
    candidates: Annotated[list[RowId], msgspec.Meta(max_length=FEW)]
    entity_id: (
        Annotated[
            RowId,
            msgspec.Meta(
                description="The entity it was resolved to; null when GRAPH.pending_question asks."
            ),
        ]
        | None
    ) = None
    resolution: Annotated[
        Literal["unique", "relation", "active", "recent", "topic", "ambiguous"],
        msgspec.Meta(
            description="unique: one entity has this name; relation: several do, and "
            'the relation word before it names one ("my sister Marta", '
            "1.3); active: the one in "
            "active_entity_ids; recent: the most recently seen; topic: the "
            "one matching topic_focus; ambiguous: nobody (ask)."
        ),
    ]
    relation: Annotated[
        str | None,
        msgspec.Meta(
            description='For a relation word ("my sister"): its role, resolved through the '
            "person's relations (HAS_SISTER…); null for a name. (1.3)"
        ),
    ] = None


class HydrateResponse(Struct, kw_only=True, frozen=True):
    """The GRAPH slot for the envelope, and the focus to store back into the session.

    ``GRAPH.dropped`` counts what did not fit, by kind (absent = none): ``edges`` cut by
    ``edge_cap``, ``neighbors`` reached only through those edges, ``scope_conflicts`` facts
    that lost the global/agent scope merge.
    """

    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    GRAPH: GraphSlot
    active_entity_ids: Annotated[
        list[RowId],
        msgspec.Meta(
            description="This turn's seed entities (mentioned, then carried over): write them to "
            "the session's active_entity_ids."
        ),
    ] = []
    mentions: Annotated[list[Mention], msgspec.Meta(max_length=MANY)] = []
    active_fallback: (
        Annotated[
            Literal["pronoun", "no_mention"],
            msgspec.Meta(description="Why the request's active_entity_ids were used as seeds."),
        ]
        | None
    ) = None


EXPORTS = {"hydrate-request": HydrateRequest, "hydrate-response": HydrateResponse}
