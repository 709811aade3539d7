"""The v5 blind held-out set (``careful-v5``, ``sloppy-v5``), recorded in two halves at once:
``v5a-telegram-yara`` and ``v5b-telegram-dario`` (README "v5a"), and the second half's
``v5c-*``/``v5d-*`` (README "v5b"). Each half's conversations, checks and sloppy habits were
committed before any answer, then answered turn by turn from each turn's exact prompt before any
product change. Replayed through the real chain like v4 (one replay per conversation and style,
cached by the module's fixtures); what today's code cannot do yet is xfail (not strict) with the
missing behaviour as its reason."""

from __future__ import annotations

import pytest

from bench.model_loop.replay import STYLES_V5
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

RUNS = runs(STYLES_V5)
# the v5 conversations present (each half adds its own files): every one is recorded in v5
V5 = {c for c in RECORDED if c.startswith("v5")}


def test_the_v5_set_is_recorded_and_held_out() -> None:
    assert {"v5a-telegram-yara", "v5b-telegram-dario"} <= V5
    assert {"v5c-locomo-joanna", "v5d-telegram-dani"} <= V5
    assert {c for c, _ in RUNS} == V5
    assert {(c, s) for c in V5 for s in STYLES_V5} == set(RUNS)
    assert all(RECORDED[c]["held_out"] for c in V5)


@pytest.mark.parametrize(("conv_id", "style"), run_cases(RUNS))
async def test_no_turn_is_lost(replayed, conv_id: str, style: str) -> None:
    assert_no_turn_lost(await replayed(conv_id, style))


@pytest.mark.parametrize(("conv_id", "style", "n"), check_cases(RUNS))
async def test_memory_holds_what_the_conversation_said(
    replayed, conv_id: str, style: str, n: int
) -> None:
    assert_check_holds(await replayed(conv_id, style), RECORDED[conv_id]["checks"][n])


async def test_the_v5_figures(replayed, capsys) -> None:
    for style in STYLES_V5:
        n = await held_out_figures(replayed, RUNS, style)
        with capsys.disabled():
            print(figures_line(style, n))
        assert n["turns"] > 0 and n["unexcused"] == 0, (style, n["unexcused"])
    with capsys.disabled():
        print("\n".join(await misses(replayed, RUNS)))


@pytest.mark.xfail(strict=False, reason="the blind v5 figures miss the targets (bench/RESULTS.md)")
async def test_the_v5_targets_are_met(replayed) -> None:
    careful = await totals(replayed, RUNS, "careful-v5")
    sloppy = await totals(replayed, RUNS, "sloppy-v5")
    assert careful["fair_dropped"] <= 0.02 * careful["fair"], careful
    assert sloppy["invented_kept"] <= 0.05 * sloppy["invented"], sloppy
