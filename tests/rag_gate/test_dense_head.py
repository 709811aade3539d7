"""The turn search's candidates hold the nearest turns by cosine whatever their RRF
(:data:`services.rag_gate.search.TURN_DENSE_HEAD`): through the pipeline, on real Postgres,
Qdrant Edge and MiniLM."""

from __future__ import annotations

from datetime import timedelta

import pytest

from services.core.deps import Clients
from services.rag_gate import search
from services.rag_gate.pipeline import retrieve
from tests.rag_gate.conftest import T0, Memory

QUESTION = "Which markup should I use for the page header and footer?"
NEAREST = "Semantic HTML5 tags give a web document its structure, for screen readers too."


async def test_the_nearest_turn_is_recalled_when_every_other_turn_shares_a_word(
    resources: Clients, memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Long chats (BEAM) share a word with almost any question, so every turn is in both of
    the index's rankings and RRF puts the nearest turn that shares no word last: it used to
    fall outside the candidates before rag-gate's own scores could lift it."""
    diary = [
        f"Trip {n}: one page of my hiking diary, about the river and the birds" for n in range(20)
    ]
    _, ids = await memory.session(
        "tg:1",
        [("user", text) for text in [NEAREST, *diary]],
        started_at=T0 - timedelta(days=3),
        ended=True,
    )
    await memory.index_messages(ids)
    limits = {"turns": {"candidates": 8}}

    async def recalled() -> list[str]:
        request = memory.request(QUESTION, force="open", limits=limits)
        answer = await retrieve(
            resources.db, resources.vectors, resources.embedder, resources.settings, request, T0
        )
        return [t.message_id for t in answer.EPISODE.turns]

    assert ids[0] in await recalled()
    monkeypatch.setattr(search, "TURN_DENSE_HEAD", 0)  # candidates by RRF alone
    assert ids[0] not in await recalled()
