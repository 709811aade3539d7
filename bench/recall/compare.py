"""Figures derived from Twin Core's ranked items beside the baselines: grounded credit, and
everything returned against each baseline at the same tokens (overall and per conversation)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.recall import data, evaluate
from bench.recall.lexical import tokenize
from bench.recall.metrics import Item, grounded
from bench.recall.report import BASELINE_NAMES, ENVELOPE_ALL, TWIN_NAMES, per_conversation


@dataclass
class Derived:
    grounded: dict[str, Any] = field(default_factory=dict)
    matched: dict[str, Any] = field(default_factory=dict)
    matched_grounded: dict[str, Any] = field(default_factory=dict)
    per_conversation: list[list[str]] | None = None


def derive(
    methods: dict[str, dict[str, list[Item]]],
    conversations: Sequence[data.Conversation],
    questions: Sequence[data.Question],
) -> Derived:
    grounded_methods = _grounded(methods, conversations)
    base = {n: methods[n] for n in BASELINE_NAMES.values()}
    out = Derived(
        grounded=evaluate.evaluate(grounded_methods, questions),
        matched=evaluate.matched(methods["Twin Core"], base, questions),
        matched_grounded=evaluate.matched(grounded_methods["Twin Core"], base, questions),
    )
    if "Twin Core, envelope order" in methods:
        rendered = evaluate.matched(
            methods["Twin Core, envelope order"], base, questions, label=ENVELOPE_ALL
        )
        out.matched = {
            **{f"{k} · hydrate + retrieve": v for k, v in out.matched.items()},
            **{f"{k} · envelope": v for k, v in rendered.items()},
        }
        out.per_conversation = per_conversation(methods, base, questions)
    return out


def _grounded(
    methods: dict[str, dict[str, list[Item]]], conversations: Sequence[data.Conversation]
) -> dict[str, dict[str, list[Item]]]:
    # dia_ids repeat across conversations ("D1:3" is in each): one map per conversation
    words = {
        c.sample_id: {t.dia_id: frozenset(tokenize(t.content)) for t in c.turns}
        for c in conversations
    }
    return {
        n: {
            qid: [grounded(i, words[qid.split("#", 1)[0]]) for i in items]
            for qid, items in methods[n].items()
        }
        for n in TWIN_NAMES.values()
        if n in methods
    }
