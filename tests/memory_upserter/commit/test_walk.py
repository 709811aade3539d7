"""Issues #18 and #26's measure of memory-upserter's layout (the counter: ``bench/walk.py``):
a reader who follows a real ``commit_turn`` (a plan with two entities, two facts, a todo, and
the person saying a pending one is done) through the package and its concept folders, reading
each function once, stays in at most so many places (a stay: the stretch in one file before the
walk moves to another) and turns back to a file already left at most so many times (issue
#26's goal is 8; the bounds below are what the layout measures now, so the walk cannot grow
unnoticed). The walk through ``services/core`` as well (the memory store the steps call) is
printed beside it, bounded the same way.

``uv run pytest -q -s -p no:cacheprovider tests/memory_upserter/commit/test_walk.py`` prints
each walk as a tree (``↩``: a return) and its figures.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import msgspec
import pytest

import services.core
import services.memory_upserter
from bench.walk import trace
from services.core.app import create_app
from services.core.deps import Clients
from services.core.settings import Settings
from services.memory_upserter.app import SPEC
from tests.memory_upserter.conftest import T0, commit, fact, turn

PACKAGE = Path(services.memory_upserter.__file__).parent
CORE = Path(services.core.__file__).parent
SCOPES = {"memory_upserter": (PACKAGE,), "memory_upserter+core": (PACKAGE, CORE)}
PLAN = {
    "entities": [
        {"name": "Marta", "category": "Person"},
        {"name": "Lisbon", "category": "Location"},
    ],
    "facts": [
        fact("HAS_SISTER", "Marta is the user's sister", obj="Marta", memory_type="PEOPLE"),
        fact(
            "LIVES_IN", "Marta lives in Lisbon", subject="Marta", obj="Lisbon", memory_type="PEOPLE"
        ),
    ],
    "todos": [{"kind": "COMMITMENT", "text": "Call Marta", "due": "tomorrow"}],
}
SAID = "Done, I sent the report to my sister Marta, who lives in Lisbon. I'll call Marta tomorrow."


# Bounds per scope: what the layout measures now (stays, returns, returns of the calls alone),
# so it cannot grow unnoticed; issue #26's goal is 8 returns in memory_upserter, counted along
# the call path (the calls alone, ``bench/walk.py``); the stays, which also count each return
# to a caller's file, are the stricter figure. Main at 683dbef, before the steps of
# wt4/house, walked the same way: 73 stays in 22 files, 51 returns; with core 167/46/121.
# Main at 0e1deed, before the transaction's and the plan's steps went to their concepts'
# modules (wt5/house): 59 stays in 22 files, 37 returns, calls alone 42 stops, 20 returns.
# wt5/loop (issue 27): grounding asks commit/whose whether the words were the person's, firmly,
# and plan asks commit/kinds what each new name is — each one call in and back: stays 61 → 65,
# returns 33 → 35 (core 155/103 → 159/105); the calls alone stay at 8 returns.
# wt6/beam33 (issue 33): a message's point asks core/standing whether the person said how to be
# answered (one call in core, in and back): core 159/105 → 161/106; memory_upserter unchanged.
# wt6/v4a (issue 27, the blind v4 set's misses): the read asks commit/stays whether a home is
# a stay, lenient and grounding ask commit/written_dates for day/month dates, the fact step
# asks commit/corrected what a correction takes back — each one call in and back: stays 65 →
# 73, returns 35 → 40 (core 161/106 → 169/111), the calls alone 8 → 10 returns. read's own
# steps (the cut notes, the plan's source) now run before it hands the plan on: 10 → 9, one
# over issue #26's goal of 8 — grounding's second visit to commit/written_dates (dates in
# words, read at lenient first) is the one left.
# wt7/invent (issue 27, claim-level grounding): grounding asks commit/claims whether the fact's
# claim is the person's, and claims asks commit/whose for firmness (as grounding did before) —
# one more file, called in and back: stays 73 → 75, returns 40 → 41, the calls alone 9 → 10
# (core 169/111/36 → 171/112/37).
# wt8/audit: fact_write asks its own `standing` (the person's identity facts rank for every
# persona's FOUNDATION) after core's memory_key, and read_plan asks commit/todo_status which
# re-listed todos are closed — one more file, called in and back: core 171/112/37 →
# 173/113/39 (the package's own walk within its bounds).
# wt8/invent (issue 27, round 2): grounding reads a fact naming the person by their name in
# commit/selves, and claims asks commit/standing (past, jest, identity) and commit/related (a
# relation's framing) — each one call in and back: stays 75 → 77, returns and the calls alone
# unchanged (core 171/112/37 → 177/115/39).
# wt8/audit and wt8/invent together, as merged: 79/42/12 (core 179/116/41).
# wt8/lead (issue 27, v6's misses): lenient asks commit/said_bounds for a time bound the person
# said that a small model's fact left out ("from dec 1 im at studio szum"), which reads that
# clause with extract/temporal and core/when's tense — in and back: core 171/112/37 → 175/114/38
# (memory_upserter alone unchanged, 75/40/9).
# wt8/todo6 (issue 27 §6): the transaction settles the pending todos first (commit/lifecycle,
# commit/did) — its own file and one more, in and back. All of this round as merged (audit,
# invent, lead, todo6): 91/50/18, core 197/129/50 — issue #26's goal of 8 returns is further
# off; folding lifecycle into close_todos and said_bounds into lenient's step is the next cut.
# wt9/trust (issue 27, a plan's trust from its shape): read asks commit/shape whether the answer
# is one strict decoding could write, and grounding's word forms moved to commit/wordforms (to
# keep grounding under 300 lines), which grounding calls for the bag of words and for each word
# — three calls in and back: 91/50/18 → 97/54/22, core 197/129/50 → 203/133/54. Folding the
# bag and the word test into one wordforms call per fact is the next cut.
# wt9/lead2: read_plan asks commit/fact_kind for a fact's kind when the model left it out — one
# call in and back, one file and one return more: 97/54/22 → 99/55/23, core 203/133/54 →
# 205/134/55.
# wt10/v8m (the blind v8 set's misses): weigh asks commit/copied whether a fact's text copies
# the person's words before grounding it — one file, in and back: 99/55/23 → 101/56/24,
# core 205/134/55 → 207/135/56.
# wt10/multi (issues 27, 28: other languages): weigh asks commit/quoted whether a kept fact
# copies the person's foreign words, and the person's words and each bag of words pass through
# core/gloss (the English of another language's words), the time field through
# core/calendar_words — in and back: 99/55/23 → 101/56/24, core 205/134/55 → 213/139/60.
# Folding the gloss into one call where `Said` is built (the bag reading its glossed texts)
# is the next cut.
# wt10/sloppy (issue 27, the small model's inventions): claims asks commit/habits (its habit
# rules, split out of claims at 299 lines) and commit/strength (a claim stronger than what was
# said) — two calls in and back: 99/55/23 → 103/57/23, core 205/134/55 → 209/136/55.
BOUNDS = {"memory_upserter": (107, 59, 25), "memory_upserter+core": (219, 142, 61)}


@pytest.mark.parametrize("scope", list(SCOPES))
@pytest.mark.parametrize(
    "index_after_reply",
    [
        False,  # the vectors written before the answer, inside after_commit's turn_index
        True,  # the product's default: they follow the reply, in a background task
    ],
)
async def test_a_commit_turn_walk_stays_in_few_places(
    settings: Settings,
    resources: Clients,
    app_client,
    user_id: str,
    index_after_reply: bool,
    scope: str,
) -> None:
    """Through the real app (``POST /v1/commit``), as n8n commits a turn."""
    settings = msgspec.structs.replace(settings, index_after_reply=index_after_reply)
    async with app_client(create_app(SPEC, settings, resources)) as client:
        pending = {"todos": [{"kind": "COMMITMENT", "text": "Send the report to Marta"}]}
        await commit(client, turn(user_id, "I will send the report to Marta", plan=pending))
        body = turn(user_id, SAID, plan=PLAN, at=T0 + timedelta(minutes=1))
        answer, walk = await trace(SCOPES[scope], lambda: commit(client, body))
    await resources.background.drain()
    print(f"\n{scope}, index_after_reply={index_after_reply}: {walk.figures()}")
    print(walk.render(tree=True))
    print("the same walk as its calls alone (issue #26's reading):")
    print(walk.render(tree=True, calls=True))
    assert answer["warnings"] == []
    assert [f["outcome"] for f in answer["facts"]] == ["created", "created"]
    assert [c["text"] for c in answer["completions"]] == ["Send the report to Marta"]
    assert [t["text"] for t in answer["todos"]] == ["Call Marta"]
    max_stays, max_returns, max_call_returns = BOUNDS[scope]
    assert len(walk.stays) <= max_stays, walk.render()
    assert len(walk.returns) <= max_returns, walk.render()
    assert len(walk.call_returns) <= max_call_returns, walk.render(calls=True)
