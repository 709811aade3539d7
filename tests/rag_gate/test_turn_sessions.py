"""Recalled raw turns and their session: the session where a question's topic came up lifts
its other turns (real Postgres, Qdrant Edge and MiniLM)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from contracts.retrieve import RetrieveResponse
from contracts.retrieve_limits import TurnLimits
from services.core.deps import Clients
from services.rag_gate import fusion
from services.rag_gate.pipeline import retrieve
from tests.rag_gate.conftest import T0, Memory

QUESTION = "Why did Melanie choose the adoption agency?"
WEEKS = range(14)
OLD_MARGIN = 0.3  # the turn cutoff's margin up to contract 1.8


async def ask(res: Clients, memory: Memory, message: str) -> RetrieveResponse:
    request = memory.request(message, force="open")
    return await retrieve(res.db, res.vectors, res.embedder, res.settings, request, T0)


async def _two_sessions(memory: Memory) -> tuple[list[str], list[str]]:
    """The adoption session (its answer shares few of the question's words) and a later one
    about choosing something else."""
    _, adoption = await memory.session(
        "tg:1",
        [
            ("user", "Melanie: Wow, that adoption agency looks great! What made you pick it?"),
            ("user", "Caroline: They help LGBTQ+ folks build a family, that means a lot to me"),
            ("user", "Melanie: That's lovely, Caroline. Anything you're excited about?"),
        ],
        started_at=T0 - timedelta(days=40),
        ended=True,
    )
    _, other = await memory.session(
        "tg:1",
        [
            ("user", "Melanie: I had to choose a new school for the kids this week"),
            ("user", "Caroline: Which one did you choose in the end?"),
            ("user", "Melanie: We will choose between two agencies of the city next month"),
        ],
        started_at=T0 - timedelta(days=10),
        ended=True,
    )
    await memory.index_messages(adoption + other)
    return adoption, other


async def test_the_session_where_the_topic_came_up_lifts_its_answer(
    resources: Clients, memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    adoption, other = await _two_sessions(memory)
    answer = await ask(resources, memory, QUESTION)
    turns = {t.message_id: t for t in answer.EPISODE.turns}
    reply = turns[adoption[1]]  # the answer, though it names neither "choose" nor "agency"
    best = max(t.score_details["session_context"] for t in turns.values())
    assert reply.score_details["session_context"] == best > 0
    assert all(turns[m].score_details["session_context"] < best for m in other if m in turns)
    order = [t.message_id for t in answer.EPISODE.turns]

    monkeypatch.setattr(fusion, "SESSION_SHARE", 0.0)  # the same memory without it
    without = [t.message_id for t in (await ask(resources, memory, QUESTION)).EPISODE.turns]
    assert order.index(adoption[1]) < without.index(adoption[1])


async def test_a_turn_well_below_the_best_ones_cosine_is_still_recalled(
    resources: Clients, memory: Memory
) -> None:
    """The turn cutoff (1.9 defaults) keeps its floor, not 003's relative margin: the answer
    to a question often shares few of its words."""
    adoption, _ = await _two_sessions(memory)
    answer = await ask(resources, memory, QUESTION)
    kept = {t.message_id: t.score_details["similarity"] for t in answer.EPISODE.turns}
    assert adoption[1] in kept
    assert kept[adoption[1]] < max(kept.values()) - OLD_MARGIN  # 1.8's margin cut it
    assert TurnLimits().margin > max(kept.values()) - TurnLimits().floor


async def test_past_the_first_ten_turns_another_session_comes_before_more_of_the_same(
    resources: Clients, memory: Memory
) -> None:
    _, garden = await memory.session(
        "tg:1",
        [
            ("user", f"The tomatoes in bed {i} of the garden got watered on day {i}")
            for i in range(14)
        ],
        started_at=T0 - timedelta(days=20),
        ended=True,
    )
    _, later = await memory.session(
        "tg:1",
        [("user", "My neighbour gave me tomato seedlings for the garden")],
        started_at=T0 - timedelta(days=5),
        ended=True,
    )
    await memory.index_messages(garden + later)
    answer = await ask(resources, memory, "When did the garden tomatoes get watered?")
    order = [t.message_id for t in answer.EPISODE.turns]
    assert set(order[:10]) <= set(garden)  # the best turns first, all of one session
    assert order[10] == later[0]  # then the other session, before the garden's 11th turn
    assert len(order) == 15
