"""Inventions of a small model's kinds written by us into recorded sloppy-v4/v5 answers
(:func:`bench.model_loop.perturb.with_inventions`, :data:`~bench.model_loop.perturb.INVENTED`):
how many the real ``/v1/turn`` + ``/v1/commit`` keep. Written after the guards they exercise
(tuned on), so the figure is their reach on their own classes, reported apart from the blind
sets' (bench/RESULTS.md, block "wt10/sloppy"). A measurement: ``TWIN_INVENTED=1`` runs it."""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest

from bench.model_loop.perturb import INVENTED, with_inventions
from bench.model_loop.replay import replay
from tests.model_loop.conftest import RECORDED

pytestmark = pytest.mark.skipif(
    not os.environ.get("TWIN_INVENTED"), reason="a measurement: TWIN_INVENTED=1 runs it"
)


async def test_what_the_guards_keep_of_inventions_written_by_us(nodes, capsys) -> None:
    added = json.loads(INVENTED.read_text())["added"]
    kinds = {e["fact"]["text"][:80]: e["class"] for e in added}
    n: Counter[str] = Counter()
    kept: list[str] = []
    for conv_id in sorted({e["conv"] for e in added}):
        style = "sloppy-v4" if conv_id.startswith("v4") else "sloppy-v5"
        conv = with_inventions(RECORDED[conv_id], style, added)
        run = await replay(nodes["retrieve"], nodes["memory"], conv, style)
        n["lost"] += run.count("lost")
        n["fair"] += run.count("fair")
        n["fair_dropped"] += run.count("fair_dropped")
        kept += [k for t in run.turns for k in t.invented_kept if k.split(": ", 1)[-1] in kinds]
    lines = [f"written by me, tuned on: invented kept {len(kept)}/{len(added)}"]
    lines += [f"  kept ({kinds[k.split(': ', 1)[-1]]}): {k}" for k in kept]
    lines += [f"  the answers' own fair facts dropped {n['fair_dropped']}/{n['fair']}"]
    with capsys.disabled():
        print("\n" + "\n".join(lines))
    assert n["lost"] == 0
