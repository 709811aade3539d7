"""The person's standing instructions are offered beside the recalled turns, found by a
question that shares few of their words (real Postgres, Qdrant Edge and MiniLM)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from contracts.retrieve import RetrieveResponse
from services.core.deps import Clients
from services.rag_gate import standing
from services.rag_gate.pipeline import retrieve
from tests.rag_gate.conftest import T0, Memory

RULE = "Always include version numbers when I ask about software dependencies or libraries."
QUESTION = "Which libraries are used in this project?"


async def ask(res: Clients, memory: Memory, message: str, **limits: int) -> RetrieveResponse:
    request = memory.request(message, force="open", limits={"turns": limits})
    return await retrieve(res.db, res.vectors, res.embedder, res.settings, request, T0)


def order(answer: RetrieveResponse) -> list[str]:
    return [t.message_id for t in answer.EPISODE.turns]


async def _chat(memory: Memory) -> str:
    """A rule said once, then many turns about the project's libraries."""
    _, first = await memory.session(
        "tg:1",
        [("user", RULE), ("assistant", "Got it, I will include version numbers.")],
        started_at=T0 - timedelta(days=30),
        ended=True,
    )
    talk = []
    for week in range(12):
        _, ids = await memory.session(
            "tg:1",
            [
                ("user", f"I added the library requests to the project in week {week}"),
                ("assistant", f"Good: the requests library handles HTTP for the project ({week})."),
                ("user", f"Which library should the project use for dates, week {week}?"),
                ("assistant", "The project could use the pendulum library for dates."),
            ],
            started_at=T0 - timedelta(days=29 - 2 * week),
            ended=True,
        )
        talk += ids
    await memory.index_messages(first + talk)
    return first[0]


async def test_a_standing_instruction_is_recalled_for_a_question_in_other_words(
    resources: Clients, memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """48 turns about the project's libraries match the question better than the rule does
    (cosine ~0.59 against 0.35), so a turn search of 8 candidates does not hold it: the
    standing search beside it does, and the rule is recalled, lifted."""
    rule = await _chat(memory)
    answer = await ask(resources, memory, QUESTION, candidates=8)
    assert rule in order(answer)
    details = next(t.score_details for t in answer.EPISODE.turns if t.message_id == rule)
    assert 0 < details["standing"] <= standing.BOOST * standing.FIRST
    assert rule in order(await ask(resources, memory, QUESTION))

    monkeypatch.setattr(standing, "SEARCH", 0)  # the same memory without the standing search
    assert rule not in order(await ask(resources, memory, QUESTION, candidates=8))


async def test_an_assistant_message_is_never_standing(resources: Clients, memory: Memory) -> None:
    _, ids = await memory.session(
        "tg:1",
        [("user", "How do I pin a library?"), ("assistant", RULE)],
        started_at=T0 - timedelta(days=3),
        ended=True,
    )
    await memory.index_messages(ids)
    answer = await ask(resources, memory, QUESTION)
    assert ids[1] in order(answer)
    assert all(t.score_details["standing"] == 0 for t in answer.EPISODE.turns)


def test_a_question_that_looks_back_at_what_was_said_is_not_a_request() -> None:
    for asked in (
        "What technologies did I say I was using?",
        "How did you recommend managing the requests?",
        "Can you list the order in which I brought up the features?",
        "Can you give me a summary of everything we've covered about triangles?",
        "How many columns did I want to add across my requests?",
    ):
        assert not standing.applies(asked), asked
    for request in (QUESTION, "If I'm creating a blog layout, which HTML elements should I use?"):
        assert standing.applies(request), request


async def test_a_question_about_what_was_said_gets_no_standing_instruction(
    resources: Clients, memory: Memory
) -> None:
    """ "Which libraries did I say the project uses?" asks for the turns that said it: the
    rule is neither searched for apart nor lifted, and the turns keep their places."""
    rule = await _chat(memory)
    answer = await ask(
        resources, memory, "Which libraries did I say the project uses?", candidates=8
    )
    assert rule not in order(answer)
    assert all(t.score_details["standing"] == 0 for t in answer.EPISODE.turns)
