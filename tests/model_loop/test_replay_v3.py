"""The v3 held-out set (``careful-v3``, ``sloppy-v3``): three conversations written and answered
after every earlier set had been read by the rounds that fixed the product, never tuned on
(tests/fixtures/model_loop/README.md, "v3"). Replayed through the real chain like v2; what
today's code cannot do yet is xfail (not strict) with the missing behaviour as its reason."""

from __future__ import annotations

import pytest

from bench.model_loop import checks
from bench.model_loop.replay import STYLES_V3, styles_of
from tests.model_loop.conftest import RECORDED

RUNS = [(c, s) for c, conv in RECORDED.items() for s in styles_of(conv) if s in STYLES_V3]


def _xfail(reason: str | None) -> list:
    return [pytest.mark.xfail(strict=False, reason=reason)] if reason else []


def _check_cases() -> list:
    return [
        pytest.param(c, s, n, marks=_xfail(checks.needs(check, s)), id=f"{c}-{s}-{n}")
        for c, s in RUNS
        for n, check in enumerate(RECORDED[c]["checks"])
    ]


def test_the_v3_set_is_recorded_and_held_out() -> None:
    assert {s for _, s in RUNS} == set(STYLES_V3)
    assert all(RECORDED[c]["held_out"] for c, _ in RUNS)


@pytest.mark.parametrize(("conv_id", "style"), [pytest.param(c, s, id=f"{c}-{s}") for c, s in RUNS])
async def test_no_turn_is_lost(replayed, conv_id: str, style: str) -> None:
    done = await replayed(conv_id, style)
    lost = [(t.index, t.status, t.detail) for t in done.run.turns if t.lost]
    assert not lost, f"turns lost (commit refused or reply not stored): {lost}"


@pytest.mark.parametrize(("conv_id", "style", "n"), _check_cases())
async def test_memory_holds_what_the_conversation_said(
    replayed, conv_id: str, style: str, n: int
) -> None:
    done = await replayed(conv_id, style)
    check = RECORDED[conv_id]["checks"][n]
    ok, seen = checks.evaluate(check, done.tables, done.end, done.nexts)
    assert ok, f"{check}: {seen}"


async def _totals(replayed, style: str) -> dict[str, int]:
    totals = dict.fromkeys(("turns", "lost", "fair", "fair_dropped", "invented"), 0)
    totals["invented_kept"] = 0
    for conv_id, s in RUNS:
        if s == style:
            run = (await replayed(conv_id, s)).run
            totals["turns"] += len(run.turns)
            for name in totals.keys() - {"turns"}:
                totals[name] += run.count(name)
    return totals


async def test_the_v3_figures(replayed, capsys) -> None:
    for style in STYLES_V3:
        n = await _totals(replayed, style)
        with capsys.disabled():
            print(
                f"\n{style:10} held-out turns {n['turns']:3}  lost {n['lost']}  fair dropped "
                f"{n['fair_dropped']}/{n['fair']}  invented kept "
                f"{n['invented_kept']}/{n['invented']}"
            )
        assert n["turns"] > 0 and n["lost"] == 0
    with capsys.disabled():
        for conv_id, style in RUNS:
            for t in (await replayed(conv_id, style)).run.turns:
                for name in t.fair_dropped:
                    print(f"  fair dropped  {conv_id}/{style} #{t.index}: {name}")
                for name in t.invented_kept:
                    print(f"  invented kept {conv_id}/{style} #{t.index}: {name}")


async def test_the_v3_targets_are_met(replayed) -> None:
    careful, sloppy = await _totals(replayed, "careful-v3"), await _totals(replayed, "sloppy-v3")
    assert careful["fair_dropped"] <= 0.02 * careful["fair"], careful
    assert sloppy["invented_kept"] <= 0.05 * sloppy["invented"], sloppy
