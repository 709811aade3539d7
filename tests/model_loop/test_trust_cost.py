"""What a plan's trust from its shape costs where the shape is wrong
(:mod:`bench.model_loop.perturb`): each recorded careful answer replayed without one field (held
strictly), each sloppy answer replayed as strict decoding would have forced it (held to the
conversation). A measurement, not a gate: ``TWIN_TRUST_COST=1`` runs it (it replays every set
once more); the figures it prints are in bench/RESULTS.md (block "wt9/trust")."""

from __future__ import annotations

import os
from collections import Counter

import pytest

from bench.model_loop.perturb import restyled
from bench.model_loop.replay import ALL_STYLES, replay, styles_of
from tests.model_loop.conftest import RECORDED

pytestmark = pytest.mark.skipif(
    not os.environ.get("TWIN_TRUST_COST"), reason="a measurement: TWIN_TRUST_COST=1 runs it"
)
SETS = ("careful", "sloppy")


async def test_what_the_shape_tier_costs_where_it_is_wrong(nodes, capsys) -> None:
    n: Counter[tuple[str, str]] = Counter()
    for conv in RECORDED.values():
        for style in styles_of(conv):
            if style not in ALL_STYLES or style.endswith("-v7"):
                continue
            how = "without_a_field" if style.startswith("careful") else "completed"
            run = await replay(
                nodes["retrieve"], nodes["memory"], restyled(conv, style, how), style
            )
            for name in ("fair", "fair_dropped", "invented", "invented_kept", "lost"):
                n[style, name] += run.count(name)
    lines = [
        f"{style:11} {('without plan.ends' if style.startswith('careful') else 'completed'):17}"
        f" lost {n[style, 'lost']}  fair dropped {n[style, 'fair_dropped']}/{n[style, 'fair']}"
        f"  invented kept {n[style, 'invented_kept']}/{n[style, 'invented']}"
        for style in sorted({s for s, _ in n})
    ]
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    assert sum(n[s, "lost"] for s, _ in n) == 0
