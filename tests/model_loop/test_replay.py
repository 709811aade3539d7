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

from bench.model_loop.replay import STYLES
from tests.model_loop.conftest import CONVERSATIONS
from tests.model_loop.replays import (
    assert_check_holds,
    assert_no_turn_lost,
    check_cases,
    lost_needs,
    xfail,
)


def _no_loss_cases() -> list:
    return [
        pytest.param(
            conv_id,
            style,
            marks=xfail(lost_needs(conv, style)),
            id=f"{conv_id}-{style}",
        )
        for conv_id, conv in CONVERSATIONS.items()
        for style in STYLES
    ]


@pytest.mark.parametrize(("conv_id", "style"), _no_loss_cases())
async def test_no_turn_is_lost(replayed, conv_id: str, style: str) -> None:
    assert_no_turn_lost(await replayed(conv_id, style))


@pytest.mark.parametrize(
    ("conv_id", "style", "n"),
    check_cases([(c, s) for c in CONVERSATIONS for s in STYLES], CONVERSATIONS),
)
async def test_memory_holds_what_the_conversation_said(
    replayed, conv_id: str, style: str, n: int
) -> None:
    assert_check_holds(await replayed(conv_id, style), CONVERSATIONS[conv_id]["checks"][n])


async def _totals(replayed, style: str) -> dict[str, int]:
    totals = {"fair": 0, "fair_dropped": 0, "invented": 0, "invented_kept": 0}
    for conv_id in CONVERSATIONS:
        run = (await replayed(conv_id, style)).run
        for name in totals:
            totals[name] += run.count(name)
    return totals


def _print(style: str, totals: dict[str, int], capsys) -> None:
    """The v1 figures, printed as the other sets print theirs (``-s``)."""
    with capsys.disabled():
        print(
            f"\n{style:10} v1 (tuned) fair dropped {totals['fair_dropped']}/{totals['fair']}"
            f"  invented kept {totals['invented_kept']}/{totals['invented']}"
        )


async def test_a_careful_models_fair_facts_are_kept(replayed, capsys) -> None:
    totals = await _totals(replayed, "careful")
    _print("careful", totals, capsys)
    assert totals["fair"] > 0
    assert totals["fair_dropped"] <= 0.02 * totals["fair"], totals


async def test_a_sloppy_models_inventions_are_not_kept(replayed, capsys) -> None:
    totals = await _totals(replayed, "sloppy")
    _print("sloppy", totals, capsys)
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
