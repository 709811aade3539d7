"""The fast brain in one call (1.4): one user message in; pulse-decay's, graph-hydrator's,
rag-gate's and envelope-validator's answers out, exactly as the four routes give them.

``POST /v1/turn`` runs the four steps in the server's process, in the order the fast-brain
flow calls them, with the bodies the flow would send (session focus into the hydrate, the
resolved entities and the scratch into the retrieve, every slot into the envelope). A caller
that makes one HTTP call per turn (an n8n HTTP node, the AI-Agent memory node, a script)
saves three round trips and the slots' trip through it. ``next`` says what to do with the
answer.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import msgspec

from contracts.common import (
    SLOT_CONTRACT_VERSION,
    AgentId,
    ChatId,
    ContractVersion,
    Struct,
    UserId,
    UserMessage,
)
from contracts.envelope_io import (
    DEFAULT_MEMORY_BUDGET_WORDS,
    AnswerFormat,
    EnvelopeResponse,
    MemoryBudgetWords,
    PersonaPrompt,
    RealtimeContext,
    UserContext,
)
from contracts.hydrate import EDGE_CAP_DEFAULT, EdgeCap, HydrateResponse
from contracts.pulse import Markers, MessageId, PulseResponse
from contracts.retrieve import GateForce, RetrieveResponse
from contracts.retrieve_limits import Limits

Next = Literal["model", "question", "replayed"]


class TurnRequest(Struct, kw_only=True, frozen=True):
    """One user message, with the options of the four steps (each named as on its own route)."""

    user_id: UserId
    agent_id: AgentId
    chat_id: ChatId
    message: UserMessage
    message_id: MessageId | None = None
    now: (
        Annotated[
            datetime,
            msgspec.Meta(
                tz=True,
                description="The turn's time with its offset, for every step; defaults to the "
                "server clock (set it when importing history or testing).",
            ),
        ]
        | None
    ) = None
    markers: Markers = []
    edge_cap: EdgeCap = EDGE_CAP_DEFAULT
    force: GateForce | None = None
    limits: Limits = msgspec.field(default_factory=Limits)
    persona_prompt: PersonaPrompt = ""
    realtime_context: RealtimeContext = ""
    user_context: UserContext = ""
    memory_budget_words: MemoryBudgetWords | None = DEFAULT_MEMORY_BUDGET_WORDS
    answer_format: AnswerFormat = "twin_answer"
    private_memory: Annotated[
        bool,
        msgspec.Meta(
            description="false (1.7): the reply is read in company, e.g. a group chat: the "
            "envelope gets none of the person's private memory (an empty GRAPH, no episodes, "
            "knowledge or facts; only this chat's own recent turns and affect), no same-name "
            "question is asked (it names the person's people) and nothing is retrieved. The "
            "hydrate still runs, for the commit's `active_entity_ids`."
        ),
    ] = True


class TurnResponse(Struct, kw_only=True, frozen=True):
    """Each step's answer as its own route gives it; the steps a turn did not need are null."""

    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    next: Annotated[
        Next,
        msgspec.Meta(
            description="`model`: send `envelope.messages` (with `envelope.response_format`) "
            "to the model, then commit its answer. `question`: the message names a person "
            "memory cannot tell apart; send `hydrate.GRAPH.pending_question.question` as the "
            "reply (and commit the turn). `replayed`: this `message_id` was already answered; "
            "resend `pulse.replay_reply` (a counted turn never committed runs as `model`)."
        ),
    ]
    pulse: PulseResponse
    hydrate: HydrateResponse | None = None
    retrieve: RetrieveResponse | None = None
    envelope: EnvelopeResponse | None = None


EXPORTS = {"turn-request": TurnRequest, "turn-response": TurnResponse}
