"""The multilingual recall set (bench/recall/multilingual.json) reads as LoCoMo does, every
question has its twin in English, and every label names a turn that exists."""

from __future__ import annotations

from collections import Counter

from bench.recall import baselines, multilingual


def test_every_question_is_asked_twice_and_labelled_with_a_turn() -> None:
    conversations = multilingual.load()
    assert [c.sample_id for c in conversations] == ["ml-pt", "ml-es", "ml-de"]
    questions = baselines.questions_of(conversations)
    assert len(questions) == len([q for c in conversations for q in c.questions]) == 84
    groups = Counter(q.group for q in questions)
    assert groups == {f"{a}→{b}": 14 for b in ("pt", "es", "de") for a in (b, "en")}
    for conversation in conversations:
        turns = {t.dia_id for t in conversation.turns}
        native, english = conversation.questions[0::2], conversation.questions[1::2]
        for a, b in zip(native, english, strict=True):
            assert a.evidence == b.evidence and set(a.evidence) <= turns
            assert a.text != b.text and b.group.startswith("en→")


def test_questions_group_by_kind() -> None:
    questions = baselines.questions_of(multilingual.load())
    kinds = Counter(q.group for q in multilingual.by_kind(questions))
    assert kinds == {"same": 42, "English question": 42}
