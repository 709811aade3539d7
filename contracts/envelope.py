"""The inference envelope (003 Appendix A): every slot, checked, before the single LLM call."""

from __future__ import annotations

from typing import Annotated

import msgspec

from contracts.common import (
    SLOT_CONTRACT_VERSION,
    AgentId,
    ChatId,
    ContractVersion,
    Struct,
    UserId,
)
from contracts.recall import EpisodeSlot, KnowledgeSlot
from contracts.slots import AffectSlot, GraphSlot


class InferenceEnvelope(Struct, kw_only=True, frozen=True):
    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    user_id: UserId
    agent_id: AgentId
    chat_id: ChatId
    AFFECT: AffectSlot
    GRAPH: GraphSlot
    EPISODE: EpisodeSlot = msgspec.field(default_factory=EpisodeSlot)
    KNOWLEDGE: KnowledgeSlot = msgspec.field(default_factory=KnowledgeSlot)


class ChatMessage(Struct, kw_only=True, frozen=True):
    """One OpenAI-style chat message, ready for an n8n LLM node."""

    role: Annotated[str, msgspec.Meta(pattern="^(system|user|assistant)$")]
    content: str


EXPORTS = {"inference-envelope": InferenceEnvelope}
