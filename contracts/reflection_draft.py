"""What reflection-writer drafts for one consolidated session range: the grounded reflection
(003 §11), the session summary (000) and psyche items (002), as the model (or the offline
engine) answers them, before the grounding check.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from contracts.common import RowId, Struct

Line = Annotated[str, msgspec.Meta(min_length=1, max_length=300)]
Short = Annotated[str, msgspec.Meta(min_length=1, max_length=160)]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=80)]
LowConfidence = Annotated[float, msgspec.Meta(ge=0.0, le=0.5)]
PsycheKind = Literal["trait", "value", "belief"]

LIST_CAP = 8


# --- the reflection (003 §11) -----------------------------------------------------------------


class EvidenceLine(Struct, kw_only=True, frozen=True):
    """An explicit link the user stated, citing the user message that states it."""

    text: Annotated[
        Line, msgspec.Meta(description="The link in the user's own words (a quote or near-quote).")
    ]
    message_id: Annotated[
        RowId,
        msgspec.Meta(
            description="The id of the user message that states it (the `[id]` of the transcript)."
        ),
    ]


class Hypothesis(Struct, kw_only=True, frozen=True):
    """An explicitly labelled guess: never evidence, never a fact."""

    label: Literal["hypothesis"] = "hypothesis"
    text: Line
    confidence: LowConfidence = 0.3


class Reflection(Struct, kw_only=True, frozen=True):
    """Observation / Action / Evidence / Unresolved / optional Hypothesis (003 §11).

    No invented causality: Evidence holds only links the user stated, each citing its message;
    anything else the writer suspects goes in ``hypothesis``, labelled, at confidence ≤ 0.5.
    """

    observation: Annotated[
        list[Line], msgspec.Meta(max_length=LIST_CAP, description="What the user explicitly said.")
    ] = []
    action: Annotated[
        list[Line], msgspec.Meta(max_length=LIST_CAP, description="What the agent did.")
    ] = []
    evidence: Annotated[
        list[EvidenceLine],
        msgspec.Meta(
            max_length=LIST_CAP,
            description="Explicit links the user stated, each citing the user "
            "message that states it.",
        ),
    ] = []
    unresolved: Annotated[
        list[Line], msgspec.Meta(max_length=LIST_CAP, description="What remains open.")
    ] = []
    hypothesis: Hypothesis | None = None


# --- the session summary (000 SessionSummary) ---------------------------------------------------


class SessionSummary(Struct, kw_only=True, frozen=True):
    """000's structured session summary, normalized: short trimmed strings, capped lists."""

    one_liner: Annotated[str, msgspec.Meta(max_length=200)] = ""
    what_mattered: Annotated[list[Short], msgspec.Meta(max_length=6)] = []
    open_loops: Annotated[list[Short], msgspec.Meta(max_length=6)] = []
    commitments: Annotated[list[Short], msgspec.Meta(max_length=6)] = []
    people: Annotated[list[Name], msgspec.Meta(max_length=10)] = []
    tone: Annotated[str, msgspec.Meta(max_length=40)] = "neutral"


class PsycheItem(Struct, kw_only=True, frozen=True):
    """A trait, value or belief the user revealed; stored as a low-authority PSYCHE fact."""

    kind: PsycheKind
    text: Line
    message_ids: Annotated[
        list[RowId], msgspec.Meta(max_length=LIST_CAP, description="The user messages it rests on.")
    ] = []
    confidence: LowConfidence = 0.4


class ReflectionDraft(Struct, kw_only=True, frozen=True):
    """Reflection + summary + psyche of one session range: the model's one structured answer
    (or the offline engine's), before the grounding check."""

    reflection: Reflection = msgspec.field(default_factory=Reflection)
    summary: SessionSummary = msgspec.field(default_factory=SessionSummary)
    psyche: Annotated[list[PsycheItem], msgspec.Meta(max_length=LIST_CAP)] = []


EXPORTS = {"reflection-draft": ReflectionDraft}
