"""pulse-decay's request and answer: one user message in, ``session`` + ``AFFECT`` out."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

import msgspec

from contracts.common import (
    FEW,
    SLOT_CONTRACT_VERSION,
    AgentId,
    ChatId,
    Confidence,
    ContractVersion,
    Struct,
    UserId,
    UserMessage,
)
from contracts.slots import AffectSlot, SessionState

AffectLabel = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=40,
        pattern=r"^[A-Za-z][A-Za-z _-]*$",
        description="A tone label such as 'furious', 'stressed', 'happy' (stored "
        "lower-case); 'neutral' resets the affect.",
    ),
]

AppliedRule = Literal[
    "new_affect",  # no affect in Redis (first turn or expired): start neutral, no decay
    "temporal_decay",  # Rule 1: decay_at has passed → neutral, markers ["expired_decay"]
    "pulse_decay",  # Rule 2: pulse turn → confidence × 0.95, pulse stamped
    "short_message_decay",  # Rule 2: pulse turn on a short functional message → also × 0.7
    "forced_flush",  # Rule 3: a non-neutral affect fell under 0.3 → neutral
    "explicit_boost",  # an explicit marker (request or first-person statement) set the affect
    "replayed",  # the same message_id as the last counted turn: nothing re-applied
]


class AffectMarker(Struct, kw_only=True, frozen=True):
    """An explicit affect signal the caller already has (a classifier, a reaction, a button)."""

    label: AffectLabel
    confidence: Confidence = 0.85
    evidence: (
        Annotated[
            str,
            msgspec.Meta(
                max_length=80,
                description="What to record in AFFECT's markers (default: the label).",
            ),
        ]
        | None
    ) = None


MessageId = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=128,
        pattern=r"^[^\x00-\x1f\x7f]+$",
        description="The channel's id of this message (Telegram's message_id). A retry of "
        "the turn last counted for this chat is answered from the saved state "
        "without counting or decaying again.",
    ),
]

Markers = Annotated[
    list[AffectMarker],
    msgspec.Meta(
        max_length=8,
        description="Explicit affect signals; the most confident one at or above 0.3 wins "
        "over anything detected in the message.",
    ),
]


class PulseRequest(Struct, kw_only=True, frozen=True):
    """One user turn. Markers are the only way besides a first-person statement to raise AFFECT."""

    user_id: UserId
    agent_id: AgentId
    chat_id: ChatId
    message: UserMessage
    message_id: MessageId | None = None
    markers: Markers = []
    now: (
        Annotated[
            datetime,
            msgspec.Meta(
                tz=True,
                description="The turn's time with its offset; defaults to the server clock "
                "(set it when importing history or testing).",
            ),
        ]
        | None
    ) = None


class PulseResponse(Struct, kw_only=True, frozen=True):
    """The conversation after this turn: both blobs as saved, and which rules fired."""

    slot_contract_version: ContractVersion = SLOT_CONTRACT_VERSION
    session: SessionState
    AFFECT: AffectSlot
    applied: Annotated[list[AppliedRule], msgspec.Meta(max_length=FEW)] = []
    degraded: Annotated[
        bool,
        msgspec.Meta(
            description="True when the working memory (Redis) could not be read or written: the "
            "turn goes on with a neutral AFFECT and an empty session, nothing was "
            "counted or saved. Affect is volatile by design; the flow must not fail "
            "on it."
        ),
    ] = False
    replay_reply: (
        Annotated[
            str,
            msgspec.Meta(
                max_length=20_000,
                description='On a replay (`applied: ["replayed"]`) of a turn already committed: '
                "the reply the person was sent for it, from the session's recent turns, "
                "so a redelivered message is answered again without a second model "
                "call. Null when the turn was never committed (answer it normally).",
            ),
        ]
        | None
    ) = None


EXPORTS = {"pulse-request": PulseRequest, "pulse-response": PulseResponse}
