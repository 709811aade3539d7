"""What the replay tests of every recorded set share (test_replay.py, test_replay_sets.py): which
(conversation, style) runs a set holds, its checks as test cases (xfail, not strict, with the
missing behaviour as the reason), the two per-run assertions, and the figures summed per style."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from bench.model_loop import checks
from bench.model_loop.replay import styles_of
from tests.model_loop.conftest import RECORDED

Run = tuple[str, str]  # (conversation id, style)
FIGURES = ("lost", "fair", "fair_dropped", "invented", "invented_kept")


def runs(styles: Iterable[str]) -> list[Run]:
    """Every recorded conversation answered in one of ``styles``."""
    wanted = set(styles)
    return [(c, s) for c, conv in RECORDED.items() for s in styles_of(conv) if s in wanted]


def xfail(reason: str | None) -> list[Any]:
    return [pytest.mark.xfail(strict=False, reason=reason)] if reason else []


def check_cases(runs: Sequence[Run], conversations: Mapping[str, dict] = RECORDED) -> list[Any]:
    """One case per check of each run's conversation, xfail where ``checks.needs`` says why."""
    return [
        pytest.param(c, s, n, marks=xfail(checks.needs(check, s)), id=f"{c}-{s}-{n}")
        for c, s in runs
        for n, check in enumerate(conversations[c]["checks"])
    ]


def lost_needs(conv: dict[str, Any], style: str) -> str | None:
    """Why this style may lose turns on today's code: the conversation's own ``lost_needs``."""
    reason = conv.get("lost_needs", {}).get(style)
    return str(reason) if reason else None


def run_cases(runs: Sequence[Run], conversations: Mapping[str, dict] = RECORDED) -> list[Any]:
    """One case per run, xfail where the conversation's ``lost_needs`` says why it loses turns."""
    return [
        pytest.param(c, s, marks=xfail(lost_needs(conversations[c], s)), id=f"{c}-{s}")
        for c, s in runs
    ]


def assert_no_turn_lost(done: Any) -> None:
    lost = [(t.index, t.status, t.detail) for t in done.run.turns if t.lost]
    assert not lost, f"turns lost (commit refused or reply not stored): {lost}"


def assert_check_holds(done: Any, check: dict) -> None:
    ok, seen = checks.evaluate(check, done.tables, done.end, done.nexts)
    assert ok, f"{check}: {seen}"


async def totals(
    replayed: Any, runs: Sequence[Run], style: str, held_out: bool | None = None
) -> dict[str, int]:
    """The figures of ``style``'s runs summed (``held_out``: that split only; None: both)."""
    out = dict.fromkeys(("turns", *FIGURES), 0)
    for conv_id, s in runs:
        if s != style:
            continue
        run = (await replayed(conv_id, s)).run
        if held_out is None or run.held_out == held_out:
            out["turns"] += len(run.turns)
            for name in FIGURES:
                out[name] += run.count(name)
    return out


async def held_out_figures(replayed: Any, runs: Sequence[Run], style: str) -> dict[str, int]:
    """:func:`totals` of a blind set's style, with its plans refused, answers not read as JSON
    and turns lost that no ``lost_needs`` of the conversation excuses."""
    out = {**await totals(replayed, runs, style), "refused": 0, "unread": 0, "unexcused": 0}
    for conv_id, s in runs:
        if s != style:
            continue
        run = (await replayed(conv_id, s)).run
        out["refused"] += run.count("refused")
        out["unread"] += sum(
            any(w.startswith("answer_not_json") for w in t.warnings) for t in run.turns
        )
        out["unexcused"] += 0 if lost_needs(RECORDED[conv_id], s) else run.count("lost")
    return out


def figures_line(style: str, n: dict[str, int]) -> str:
    """One printed line of :func:`held_out_figures`."""
    return (
        f"\n{style:10} held-out turns {n['turns']:3}  lost {n['lost']}  refused {n['refused']}"
        f"  answers not read as JSON {n['unread']}  fair dropped {n['fair_dropped']}/{n['fair']}"
        f"  invented kept {n['invented_kept']}/{n['invented']}"
    )


async def misses(replayed: Any, runs: Sequence[Run]) -> list[str]:
    """Each fair fact dropped and each invention kept, a line each, to print."""
    lines = []
    for conv_id, style in runs:
        for t in (await replayed(conv_id, style)).run.turns:
            lines += [f"  fair dropped  {conv_id}/{style} #{t.index}: {n}" for n in t.fair_dropped]
            lines += [f"  invented kept {conv_id}/{style} #{t.index}: {n}" for n in t.invented_kept]
    return lines
