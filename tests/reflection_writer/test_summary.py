"""Normalizing the model's answer: short strings, capped lists, a safe fallback, never a crash."""

from __future__ import annotations

import msgspec
import pytest

from contracts.reflection_draft import (
    EvidenceLine,
    PsycheItem,
    Reflection,
    ReflectionDraft,
    SessionSummary,
)
from services.reflection_writer.prompt import draft_schema
from services.reflection_writer.summary import (
    MalformedDraft,
    lines,
    normalize_draft,
    normalize_summary,
)

FALLBACK = ReflectionDraft(
    reflection=Reflection(
        observation=["offline observation"],
        action=["offline action"],
        evidence=[EvidenceLine(text="offline evidence", message_id="m1")],
        unresolved=["offline open"],
    ),
    summary=SessionSummary(
        one_liner="Offline one-liner.",
        what_mattered=["offline"],
        open_loops=["offline loop"],
        commitments=["offline promise"],
        people=["Marta"],
        tone="calm",
    ),
    psyche=[PsycheItem(kind="trait", text="offline trait", message_ids=["m1"])],
)
USER_IDS = {"m1", "m2"}


def test_lists_are_trimmed_cut_deduplicated_and_capped() -> None:
    assert lines(["  a  b ", "A B", "", 3, None, "x" * 400], 160, 6) == ["a b", "x" * 159 + "…"]
    assert lines("one string", 160, 6) == ["one string"]
    assert lines([f"item {i}" for i in range(20)], 160, 6) == [f"item {i}" for i in range(6)]
    assert lines({"not": "a list"}, 160, 6) is None


def test_a_summary_field_of_the_wrong_type_takes_the_safe_value() -> None:
    summary, fell = normalize_summary(
        {
            "one_liner": "  " + "Long day. " * 40,
            "what_mattered": "work",
            "open_loops": 7,
            "commitments": ["call mom", "call mom"],
            "people": ["Marta", ["x"]],
            "tone": None,
        },
        FALLBACK.summary,
    )
    assert len(summary.one_liner) <= 200 and summary.one_liner.endswith("…")
    assert summary.what_mattered == ["work"]
    assert summary.open_loops == ["offline loop"]
    assert summary.commitments == ["call mom"] and summary.people == ["Marta"]
    assert summary.tone == "calm"
    assert fell == ["summary.tone", "summary.open_loops"]
    whole, fell = normalize_summary("not an object", FALLBACK.summary)
    assert whole == FALLBACK.summary and fell == ["summary"]


@pytest.mark.parametrize(
    "raw",
    [None, [], "text", {"summary": {}}, {"reflection": "x"}],
    ids=["null", "array", "string", "no-reflection", "reflection-text"],
)
def test_an_answer_without_a_reflection_object_is_malformed(raw: object) -> None:
    with pytest.raises(MalformedDraft):
        normalize_draft(raw, FALLBACK, USER_IDS)


def test_a_partly_broken_answer_keeps_its_good_fields_and_counts_bad_evidence() -> None:
    normalized = normalize_draft(
        {
            "reflection": {
                "observation": ["said A"],
                "action": None,
                "evidence": [
                    {"text": "because B", "message_id": "m1"},
                    {"text": "no id"},
                    "just text",
                ],
                "unresolved": [],
                "hypothesis": {"text": "maybe C", "confidence": 2},
            },
            "summary": {
                "one_liner": "Fine.",
                "what_mattered": [],
                "open_loops": [],
                "commitments": [],
                "people": [],
                "tone": "warm",
            },
            "psyche": [
                {
                    "kind": "value",
                    "text": "honesty",
                    "message_ids": ["m2", "m9"],
                    "confidence": 0.9,
                },
                {"kind": "mood", "text": "grumpy", "message_ids": ["m2"]},
                {"kind": "trait", "text": "uncited", "message_ids": ["m9"]},
            ],
        },
        FALLBACK,
        USER_IDS,
    )
    draft = normalized.draft
    assert draft.reflection.observation == ["said A"]
    assert draft.reflection.action == ["offline action"]
    assert draft.reflection.evidence == [EvidenceLine(text="because B", message_id="m1")]
    assert normalized.malformed_evidence == 2
    assert draft.reflection.hypothesis.confidence == 0.5
    assert draft.summary.one_liner == "Fine." and draft.summary.tone == "warm"
    assert draft.psyche == [
        PsycheItem(kind="value", text="honesty", message_ids=["m2"], confidence=0.5)
    ]
    assert normalized.fell_back == ("reflection.action",)


def test_the_model_schema_is_strict_every_object_closed_and_fully_required() -> None:
    schema = draft_schema()
    assert "$ref" not in msgspec.json.encode(schema).decode()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object":
                assert node["additionalProperties"] is False
                assert node["required"] == list(node["properties"])
            assert not {"maxLength", "minLength", "default", "maximum", "maxItems"} & set(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    assert set(schema["properties"]) == {"reflection", "summary", "psyche"}
