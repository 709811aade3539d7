"""Recorded model answers (tests/fixtures/model_loop) replayed through the real chain.

Each conversation runs for a fresh person, once per model style: ``/v1/turn`` then
``/v1/commit`` with the recorded raw answer, as ``n8n-workflows/fast-brain.json`` commits it.
Issue 27's "Done when": no turn lost, the must-checks hold in the replayed memory, false drops
≤ 2 % of a careful model's fair facts, invented facts kept ≤ 5 % of a sloppy model's. What
today's code cannot do yet is xfail (not strict) with the missing behaviour as its reason, so
each fix that lands turns its checks green without an edit here.
"""

from __future__ import annotations

import pytest

from bench.model_loop import checks
from bench.model_loop.replay import STYLES
from tests.model_loop.conftest import CONVERSATIONS


def _cases() -> list:
    cases = []
    for conv_id, conv in CONVERSATIONS.items():
        for style in STYLES:
            for n, check in enumerate(conv["checks"]):
                reason = checks.needs(check, style)
                marks = [pytest.mark.xfail(strict=False, reason=reason)] if reason else []
                cases.append(
                    pytest.param(conv_id, style, n, marks=marks, id=f"{conv_id}-{style}-{n}")
                )
    return cases


def _lost_needs(conv: dict, style: str) -> str | None:
    """Why this style may lose turns today: the conversation's own ``lost_needs`` (a sloppy
    model's refused plans no longer lose a turn: the commit is lenient, issue 27 §1)."""
    return conv.get("lost_needs", {}).get(style)


def _no_loss_cases() -> list:
    return [
        pytest.param(
            conv_id,
            style,
            marks=[pytest.mark.xfail(strict=False, reason=reason)]
            if (reason := _lost_needs(conv, style))
            else [],
            id=f"{conv_id}-{style}",
        )
        for conv_id, conv in CONVERSATIONS.items()
        for style in STYLES
    ]


@pytest.mark.parametrize(("conv_id", "style"), _no_loss_cases())
async def test_no_turn_is_lost(replayed, conv_id: str, style: str) -> None:
    done = await replayed(conv_id, style)
    lost = [(t.index, t.status, t.detail) for t in done.run.turns if t.lost]
    assert not lost, f"turns lost (commit refused or reply not stored): {lost}"


@pytest.mark.parametrize(("conv_id", "style", "n"), _cases())
async def test_memory_holds_what_the_conversation_said(
    replayed, conv_id: str, style: str, n: int
) -> None:
    done = await replayed(conv_id, style)
    check = CONVERSATIONS[conv_id]["checks"][n]
    ok, seen = checks.evaluate(check, done.tables, done.end, done.nexts)
    assert ok, f"{check}: {seen}"


async def _totals(replayed, style: str) -> dict[str, int]:
    totals = {"fair": 0, "fair_dropped": 0, "invented": 0, "invented_kept": 0}
    for conv_id in CONVERSATIONS:
        run = (await replayed(conv_id, style)).run
        for name in totals:
            totals[name] += run.count(name)
    return totals


async def test_a_careful_models_fair_facts_are_kept(replayed) -> None:
    totals = await _totals(replayed, "careful")
    assert totals["fair"] > 0
    assert totals["fair_dropped"] <= 0.02 * totals["fair"], totals


async def test_a_sloppy_models_inventions_are_not_kept(replayed) -> None:
    totals = await _totals(replayed, "sloppy")
    assert totals["invented"] > 0
    assert totals["invented_kept"] <= 0.05 * totals["invented"], totals


async def test_the_replay_counts_what_each_commit_answered(replayed) -> None:
    """The counts the report prints come from the commits: every turn was committed or lost,
    and each labelled fact is counted once (kept or dropped)."""
    for conv_id, conv in CONVERSATIONS.items():
        for style in STYLES:
            run = (await replayed(conv_id, style)).run
            assert [t.index for t in run.turns] == [t["i"] for t in conv["turns"]]
            assert all(t.status for t in run.turns)
            assert run.count("fair_dropped") <= run.count("fair")
            assert run.count("invented_kept") <= run.count("invented")
