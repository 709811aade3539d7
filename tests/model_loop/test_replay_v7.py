"""The v7 blind held-out set (``careful-v7``, ``sloppy-v7``), recorded in two halves at once on
main 1a01160: ``v7a-telegram-eleni`` and ``v7b-locomo-gina`` (README "v7a"), and the second
half's ``v7c-telegram-brendan``/``v7d-telegram-giulia`` (README "v7b": a 3–4B and a 7–8B small
model). Each half's conversations, checks and sloppy habits were committed before any answer
(2e9aa14, 55d3a6a), then answered turn by turn from each turn's exact prompt before any product
change of the round. Replayed through the real chain like v5 (one replay per conversation and style,
cached by the module's fixtures); what today's code cannot do yet is xfail (not strict) with the
missing behaviour as its reason."""

from __future__ import annotations

import pytest

from bench.model_loop.replay import STYLES_V7
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

RUNS = runs(STYLES_V7)
# the v7 conversations present (each half adds its own files): every one is recorded in v7
V7 = {c for c in RECORDED if c.startswith("v7")}


def test_the_v7_set_is_recorded_and_held_out() -> None:
    assert {"v7a-telegram-eleni", "v7b-locomo-gina"} <= V7  # half A (v7a)
    assert {"v7c-telegram-brendan", "v7d-telegram-giulia"} <= V7  # half B (v7b)
    assert {c for c, _ in RUNS} == V7
    assert {(c, s) for c in V7 for s in STYLES_V7} == set(RUNS)
    assert all(RECORDED[c]["held_out"] for c in V7)


@pytest.mark.parametrize(("conv_id", "style"), run_cases(RUNS))
async def test_no_turn_is_lost(replayed, conv_id: str, style: str) -> None:
    assert_no_turn_lost(await replayed(conv_id, style))


@pytest.mark.parametrize(("conv_id", "style", "n"), check_cases(RUNS))
async def test_memory_holds_what_the_conversation_said(
    replayed, conv_id: str, style: str, n: int
) -> None:
    assert_check_holds(await replayed(conv_id, style), RECORDED[conv_id]["checks"][n])


async def test_the_v7_figures(replayed, capsys) -> None:
    for style in STYLES_V7:
        n = await held_out_figures(replayed, RUNS, style)
        with capsys.disabled():
            print(figures_line(style, n))
        assert n["turns"] > 0 and n["unexcused"] == 0, (style, n["unexcused"])
    with capsys.disabled():
        print("\n".join(await misses(replayed, RUNS)))


@pytest.mark.xfail(strict=False, reason="the blind v7 figures miss the targets (bench/RESULTS.md)")
async def test_the_v7_targets_are_met(replayed) -> None:
    careful = await totals(replayed, RUNS, "careful-v7")
    sloppy = await totals(replayed, RUNS, "sloppy-v7")
    assert careful["fair_dropped"] <= 0.02 * careful["fair"], careful
    assert sloppy["invented_kept"] <= 0.05 * sloppy["invented"], sloppy
