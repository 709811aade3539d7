"""envelope-validator's request and answer: the slots as the other nodes returned them, plus
the prompt context, in; the checked envelope and the chat messages for the one LLM call, out.

The request is flat so an n8n designer maps each earlier node's output into one JSON body:
``AFFECT`` from pulse-decay, ``GRAPH`` from graph-hydrator, ``EPISODE``/``KNOWLEDGE``/``FACTS``
from rag-gate, each passed whole.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

from contracts.common import (
    FEW,
    MANY,
    SLOT_CONTRACT_VERSION,
    AgentId,
    ChatId,
    ContractVersion,
    Struct,
    Text,
    UserId,
)
from contracts.envelope import ChatMessage, InferenceEnvelope
from contracts.recall import EpisodeSlot, KnowledgeSlot, RankedItem
from contracts.slots import AffectSlot, EntityCard, FactLine, GraphSlot, Turn

LongText = Annotated[str, msgspec.Meta(max_length=10_000)]
# Words of evidence a prompt carries by default: about 1,000 model tokens beside the foundation,
# the todos and ten recent turns. Chosen, not fitted: bench/recall's largest standing budget.
DEFAULT_MEMORY_BUDGET_WORDS = 800


class FactsSlot(Struct, kw_only=True, frozen=True):
    """rag-gate's relevant facts (blended ranking) and entity cards; they join
    ``GRAPH.relevant_facts`` / ``GRAPH.entity_cards`` (they are Postgres facts: authoritative)."""

    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    relevant_facts: Annotated[list[FactLine], msgspec.Meta(max_length=MANY)] = []
    entity_cards: Annotated[list[EntityCard], msgspec.Meta(max_length=MANY)] = []
    degraded: str | None = None


PersonaPrompt = Annotated[
    str,
    msgspec.Meta(
        max_length=20_000,
        description="The agent's persona prompt (trusted, rendered as is).",
    ),
]


RealtimeContext = Annotated[
    str,
    msgspec.Meta(
        max_length=2_000,
        description="[REAL-TIME CONTEXT] (trusted, rendered as is); derived from `now` when empty.",
    ),
]


UserContext = Annotated[
    LongText,
    msgspec.Meta(description="The user's seed profile (UserSeed); cut to 800 characters."),
]


AnswerFormat = Annotated[
    Literal["twin_answer", "text"],
    msgspec.Meta(
        description="`twin_answer` (default): the system message asks for the JSON answer of "
        "`response_format` (reply + memory-write plan). `text`: it asks for a "
        "plain-text reply, for callers such as an n8n AI Agent whose answer goes "
        "straight to the person; the plan then comes from memory-upserter's judge "
        "at commit time."
    ),
]


MemoryBudgetWords = Annotated[
    int,
    msgspec.Meta(
        ge=0,
        le=100_000,
        description="At most this many words of RELEVANT MEMORIES (1.3), best first: an "
        "item "
        "that does not fit is left out (warning `budgeted`) and a shorter one "
        "after it may still fit. Foundation, todos and the question are never "
        "budgeted. Default 800; null: no budget.",
    ),
]


class EnvelopeRequest(Struct, kw_only=True, frozen=True):
    """Everything the LLM call needs. Slots are accepted whole, exactly as their node answered."""

    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    user_id: UserId
    agent_id: AgentId
    chat_id: ChatId
    AFFECT: Annotated[AffectSlot, msgspec.Meta(description="pulse-decay's AFFECT, whole.")]
    GRAPH: Annotated[GraphSlot, msgspec.Meta(description="graph-hydrator's GRAPH, whole.")]
    EPISODE: Annotated[
        EpisodeSlot,
        msgspec.Meta(
            description="rag-gate's EPISODE (omit when the gate stayed closed).",
        ),
    ] = msgspec.field(default_factory=EpisodeSlot)
    KNOWLEDGE: Annotated[
        KnowledgeSlot,
        msgspec.Meta(
            description="rag-gate's KNOWLEDGE (omit when the gate stayed closed).",
        ),
    ] = msgspec.field(default_factory=KnowledgeSlot)
    FACTS: (
        Annotated[
            FactsSlot,
            msgspec.Meta(
                description="rag-gate's relevant facts and entity cards, merged into GRAPH; or put "
                "them in GRAPH.relevant_facts / GRAPH.entity_cards directly.",
            ),
        ]
        | None
    ) = None
    persona_prompt: PersonaPrompt = ""
    realtime_context: RealtimeContext = ""
    user_context: UserContext = ""
    conversation_summary: Annotated[
        LongText, msgspec.Meta(description="The summary spine; cut to 1200 characters.")
    ] = ""
    latest_session_summary: Annotated[
        LongText,
        msgspec.Meta(
            description="The last closed session's summary; cut to 600 characters. When empty, "
            "EPISODE.latest_session_summary is used."
        ),
    ] = ""
    recent_turns: Annotated[
        list[Turn],
        msgspec.Meta(
            description="Recent history, oldest first (pulse-decay's session.turns); the last "
            "10 are replayed, each cut to 800 characters."
        ),
    ] = []
    user_message: Annotated[
        Text, msgspec.Meta(description="The current user message; the final user turn, never cut.")
    ]
    ranking: Annotated[
        list[RankedItem],
        msgspec.Meta(
            description="rag-gate's `ranking`, whole (1.3): the order its turns, facts, episodes "
            "and knowledge render in RELEVANT MEMORIES. Without it, each slot's own "
            "order is fused with rag-gate's default weights."
        ),
    ] = []
    memory_budget_words: MemoryBudgetWords | None = DEFAULT_MEMORY_BUDGET_WORDS
    now: (
        Annotated[
            datetime,
            msgspec.Meta(
                tz=True,
                description="The turn's time with its offset; defaults to the server clock.",
            ),
        ]
        | None
    ) = None
    answer_format: AnswerFormat = "twin_answer"


WarningCode = Literal[
    "truncated",  # a text was cut to its cap
    "capped",  # a list was over its cap: the first N (the producer's ranking) kept
    "deduplicated",  # an item repeated another one (same id and content, or same text)
    "filtered",  # an item the prompt must not carry (a fact not PROFILE/PEOPLE/PROJECT)
    "affect_expired",  # AFFECT's decay_at has passed: rendered as neutral
    "degraded",  # a producer said its retrieval was degraded
    "empty_user_message",  # the current user message is empty
    "prompt_large",  # the prompt is over 20,000 characters (nothing cut)
    "budgeted",  # relevant memories past memory_budget_words were left out (1.3)
]


class EnvelopeWarning(Struct, kw_only=True, frozen=True):
    """Something the node changed or noticed; nothing is dropped without one naming it."""

    code: WarningCode
    section: str
    detail: str


class MemoryItem(Struct, kw_only=True, frozen=True):
    """One rendered memory item, in the order the system message carries it (1.3)."""

    section: Literal["foundation", "relevant", "todos", "episodes"]
    kind: Literal[
        "foundation", "fact", "card", "edge", "turn", "episode", "knowledge", "todo", "tail"
    ]
    id: Annotated[
        str,
        msgspec.Meta(
            description="fact_id / rel_id / message_id / episode_id / chunk_id / todo_id; a "
            "card fact's fact_id (since 1.5: each card fact is one item; "
            "``entity_ref#n`` when the card came without fact_ids)."
        ),
    ]
    words: int


class EnvelopeStats(Struct, kw_only=True, frozen=True):
    chars: Annotated[dict[str, int], msgspec.Meta(max_length=FEW)] = {}
    counts: Annotated[dict[str, int], msgspec.Meta(max_length=FEW)] = {}
    total_chars: int = 0
    messages: int = 0


class JsonSchemaFormat(Struct, kw_only=True, frozen=True):
    name: str
    strict: bool
    schema: Annotated[dict[str, Any], msgspec.Meta(max_length=FEW)]


class ResponseFormat(Struct, kw_only=True, frozen=True):
    """OpenAI ``response_format``: the strict JSON Schema of the answer (``LLMAnswer``)."""

    type: Literal["json_schema"] = "json_schema"
    json_schema: JsonSchemaFormat


class EnvelopeResponse(Struct, kw_only=True, frozen=True):
    """The checked envelope (slots after caps), the chat messages to send as they are, the
    ``response_format`` to send beside them, and what was cut or noticed."""

    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    envelope: InferenceEnvelope
    messages: Annotated[list[ChatMessage], msgspec.Meta(max_length=MANY)]
    response_format: ResponseFormat
    warnings: Annotated[list[EnvelopeWarning], msgspec.Meta(max_length=MANY)] = []
    stats: EnvelopeStats = msgspec.field(default_factory=EnvelopeStats)
    memory_order: Annotated[
        list[MemoryItem],
        msgspec.Meta(
            description="Every memory item the system message renders, in its order (1.3)."
        ),
    ] = []


EXPORTS = {"envelope-request": EnvelopeRequest, "envelope-response": EnvelopeResponse}
