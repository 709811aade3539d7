"""The v4 blind held-out set (``careful-v4``, ``sloppy-v4``), recorded by two people at once:
``v4a-telegram-mia`` and ``v4b-telegram-raj`` (README "v4"), ``v4c-telegram-ines`` and
``v4d-locomo-caroline`` (README "v4b"). Each half's conversations, checks and sloppy habits were
committed before any answer, then answered turn by turn from each turn's exact prompt before any
product change. Replayed through the real chain like v3; what today's code cannot do yet is
xfail (not strict) with the missing behaviour as its reason."""

from __future__ import annotations

import pytest

from bench.model_loop.replay import STYLES_V4
from tests.model_loop.conftest import RECORDED
from tests.model_loop.replays import (
    assert_check_holds,
    assert_no_turn_lost,
    check_cases,
    figures_line,
    held_out_figures,
    misses,
    run_cases,
    runs,
    totals,
)

RUNS = runs(STYLES_V4)


def test_the_v4_set_is_recorded_and_held_out() -> None:
    assert {c for c, _ in RUNS} == {
        "v4a-telegram-mia",
        "v4b-telegram-raj",
        "v4c-telegram-ines",
        "v4d-locomo-caroline",
    }
    assert {s for _, s in RUNS} == set(STYLES_V4)
    assert all(RECORDED[c]["held_out"] for c, _ in RUNS)


@pytest.mark.parametrize(("conv_id", "style"), run_cases(RUNS))
async def test_no_turn_is_lost(replayed, conv_id: str, style: str) -> None:
    assert_no_turn_lost(await replayed(conv_id, style))


@pytest.mark.parametrize(("conv_id", "style", "n"), check_cases(RUNS))
async def test_memory_holds_what_the_conversation_said(
    replayed, conv_id: str, style: str, n: int
) -> None:
    assert_check_holds(await replayed(conv_id, style), RECORDED[conv_id]["checks"][n])


async def test_the_v4_figures(replayed, capsys) -> None:
    for style in STYLES_V4:
        n = await held_out_figures(replayed, RUNS, style)
        with capsys.disabled():
            print(figures_line(style, n))
        assert n["turns"] > 0 and n["lost"] == 0
    with capsys.disabled():
        print("\n".join(await misses(replayed, RUNS)))


async def test_the_v4_targets_are_met(replayed) -> None:
    """Met since wt7/invent's claim-level grounding, no longer blind (bench/RESULTS.md)."""
    careful = await totals(replayed, RUNS, "careful-v4")
    sloppy = await totals(replayed, RUNS, "sloppy-v4")
    assert careful["fair_dropped"] <= 0.02 * careful["fair"], careful
    assert sloppy["invented_kept"] <= 0.05 * sloppy["invented"], sloppy
