"""The turn search's query without the people it names (pure helpers, then through the
pipeline on real Postgres, Qdrant Edge and MiniLM)."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest

from contracts.retrieve import RetrieveResponse
from services.core.deps import Clients
from services.rag_gate import unnamed
from services.rag_gate.pipeline import retrieve
from services.rag_gate.unnamed import mixed, without_names
from tests.rag_gate.conftest import SELF_REF, T0, Memory

T_DAYS = timedelta(days=20)


def test_names_and_aliases_are_replaced_as_whole_words_possessive_included() -> None:
    names = ["Melanie", "Mel", "Caroline Smith"]
    assert without_names("What did Melanie's sister paint?", names) == "What did they sister paint?"
    assert without_names("did mel or caroline smith go?", names) == "did they or they go?"
    assert without_names("What did Melanoma research find?", names) is None
    assert without_names("What did she research?", names) is None


def test_the_mixed_vector_is_unit_length_and_between_the_two() -> None:
    v = mixed([1.0, 0.0], [0.0, 1.0])
    assert math.isclose(math.hypot(*v), 1.0)
    assert math.isclose(v[0], v[1])  # SHARE 0.5


async def ask(res: Clients, memory: Memory, message: str, **extra: object) -> RetrieveResponse:
    request = memory.request(message, force="open", **extra)
    return await retrieve(res.db, res.vectors, res.embedder, res.settings, request, T0)


@pytest.fixture
def paired(resources: Clients, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The texts of each call that embedded a question with and without the names."""
    calls: list[list[str]] = []
    real = resources.embedder.embed_queries

    async def spy(texts):  # type: ignore[no-untyped-def]
        calls.append(list(texts))
        return await real(texts)

    monkeypatch.setattr(resources.embedder, "embed_queries", spy)
    return calls


async def test_a_question_naming_the_wrong_speaker_still_finds_the_topic(
    resources: Clients, memory: Memory, monkeypatch: pytest.MonkeyPatch, paired: list[list[str]]
) -> None:
    """LoCoMo's adversarial shape: Caroline looked into adoption agencies; the question asks
    about *Melanie*, and everything Melanie said comes near it by her name alone. Without her
    name the answer is nearer, and her small talk falls below the turn cutoff."""
    melanie = await memory.entity("Melanie", category="Person")
    await memory.entity("Caroline", category="Person")
    said = [("Caroline", "I looked into adoption agencies for weeks before choosing one")]
    said += [("Melanie", f"That sounds lovely, I hope week {w} goes well!") for w in range(8)]
    _, ids = await memory.session(
        "tg:1", [("user", text) for _, text in said], started_at=T0 - T_DAYS, ended=True
    )
    async with memory.db.acquire() as conn:  # as the commit logs a named speaker's turn
        for message_id, (speaker, _) in zip(ids, said, strict=True):
            await conn.execute(
                "UPDATE messages SET speaker = $2 WHERE message_id = $1", message_id, speaker
            )
    await memory.index_messages(ids)
    question = "What did Melanie find out about adoption agencies?"

    def answer_cosine(answer: RetrieveResponse) -> float:
        return next(
            t.score_details["similarity"] for t in answer.EPISODE.turns if t.message_id == ids[0]
        )

    def small_talk(answer: RetrieveResponse) -> int:
        return sum(t.speaker == "Melanie" for t in answer.EPISODE.turns)

    found = await ask(resources, memory, question, entity_ids=[melanie])
    assert paired == [[question, "What did they find out about adoption agencies?"]]
    monkeypatch.setattr(unnamed, "SHARE", 0.0)  # the query as asked
    as_asked = await ask(resources, memory, question, entity_ids=[melanie])
    assert len(paired) == 1
    assert answer_cosine(found) > answer_cosine(as_asked) + 0.05
    assert small_talk(found) < small_talk(as_asked) == 8


async def test_the_persons_own_entity_is_never_taken_out(
    resources: Clients, memory: Memory, paired: list[list[str]]
) -> None:
    me = await memory.entity("me", ref=SELF_REF)
    await ask(resources, memory, "Can you show me how to add a login?", entity_ids=[me])
    assert paired == []


async def test_an_alias_of_a_named_person_is_taken_out_and_a_named_project_is_not(
    resources: Clients, memory: Memory, paired: list[list[str]]
) -> None:
    """The seed entities' names and aliases come with the continuity read; only people's."""
    mel = await memory.entity("Melanie", category="Person", aliases=["Mel"])
    atlas = await memory.entity("Atlas", category="Project")
    await ask(resources, memory, "What did Mel say about Atlas?", entity_ids=[mel, atlas])
    assert paired == [["What did Mel say about Atlas?", "What did they say about Atlas?"]]
