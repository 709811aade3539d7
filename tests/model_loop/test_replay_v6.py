"""The v6 blind held-out set (``careful-v6``, ``sloppy-v6``), recorded in two halves at once:
``v6a-telegram-wiktor`` and ``v6b-telegram-sunniva`` (README "v6a"), and the second half's
``v6c-*``/``v6d-*`` (README "v6b"). Each half's conversations, checks and sloppy habits were
committed before any answer, then answered turn by turn from each turn's exact prompt before any
product change. Replayed through the real chain like v5 (one replay per conversation and style,
cached by the module's fixtures); what today's code cannot do yet is xfail (not strict) with the
missing behaviour as its reason."""

from __future__ import annotations

import pytest

from bench.model_loop.replay import STYLES_V6
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

RUNS = runs(STYLES_V6)
# the v6 conversations present (each half adds its own files): every one is recorded in v6
V6 = {c for c in RECORDED if c.startswith("v6")}


def test_the_v6_set_is_recorded_and_held_out() -> None:
    assert {"v6a-telegram-wiktor", "v6b-telegram-sunniva"} <= V6  # half A (v6a)
    assert {"v6c-locomo-nate", "v6d-telegram-aino"} <= V6  # half B (v6b)
    assert {c for c, _ in RUNS} == V6
    assert {(c, s) for c in V6 for s in STYLES_V6} == set(RUNS)
    assert all(RECORDED[c]["held_out"] for c in V6)


@pytest.mark.parametrize(("conv_id", "style"), run_cases(RUNS))
async def test_no_turn_is_lost(replayed, conv_id: str, style: str) -> None:
    assert_no_turn_lost(await replayed(conv_id, style))


@pytest.mark.parametrize(("conv_id", "style", "n"), check_cases(RUNS))
async def test_memory_holds_what_the_conversation_said(
    replayed, conv_id: str, style: str, n: int
) -> None:
    assert_check_holds(await replayed(conv_id, style), RECORDED[conv_id]["checks"][n])


async def test_the_v6_figures(replayed, capsys) -> None:
    for style in STYLES_V6:
        n = await held_out_figures(replayed, RUNS, style)
        with capsys.disabled():
            print(figures_line(style, n))
        assert n["turns"] > 0 and n["unexcused"] == 0, (style, n["unexcused"])
    with capsys.disabled():
        print("\n".join(await misses(replayed, RUNS)))


@pytest.mark.xfail(strict=False, reason="the blind v6 figures miss the targets (bench/RESULTS.md)")
async def test_the_v6_targets_are_met(replayed) -> None:
    careful = await totals(replayed, RUNS, "careful-v6")
    sloppy = await totals(replayed, RUNS, "sloppy-v6")
    assert careful["fair_dropped"] <= 0.02 * careful["fair"], careful
    assert sloppy["invented_kept"] <= 0.05 * sloppy["invented"], sloppy
