"""What the person says they did, read against their pending todos (:mod:`.did`) and a forget
that names a todo (:mod:`.lifecycle`): pure, no fixtures."""

from __future__ import annotations

import pytest

from services.memory_upserter.commit.did import done_by_words, past_forms, verb_of
from services.memory_upserter.commit.lifecycle import forget_names_todo
from services.memory_upserter.commit.turn import PendingTodo


def _pending(*texts: str) -> list[PendingTodo]:
    return [PendingTodo(str(n) * 32, t) for n, t in enumerate(texts, 1)]


def test_a_todos_verb_and_its_past_forms() -> None:
    assert verb_of("remind me to call kasia") == "call"
    assert verb_of("Book train to Ålesund") == "book"
    assert {"bought"} == past_forms("buy")
    assert {"texted"} <= past_forms("text") and {"stopped"} <= past_forms("stop")
    assert {"cancelled", "canceled"} <= past_forms("cancel")
    assert "tried" in past_forms("try") and "renewed" in past_forms("renew")


@pytest.mark.parametrize(
    ("said", "closed"),
    [
        ("thanks. booked the train, leaving tuesday", "Book train to Ålesund"),
        ("back home. vet's booked for next thursday ✅", "Book vet for Loke"),
        ("called kasia last night, party is on the 28th", "Call Kasia about mums 60th"),
        ("swim ingrid is moving 😭 texted her about the gig btw", "Text Ingrid about the gig"),
        ("bought the shelf brackets lol", "Buy shelf brackets"),
    ],
)
def test_a_past_tense_of_the_verb_with_the_todos_words_names_it(said: str, closed: str) -> None:
    pending = _pending(
        "Book vet for Loke",
        "Book train to Ålesund",
        "Call Kasia about mums 60th",
        "Text Ingrid about the gig",
        "Buy shelf brackets",
        "Kasia visiting for the weekend",
    )
    assert [p.text for p in done_by_words(pending, [said])] == [closed]


@pytest.mark.parametrize(
    "said",
    [
        "i booked nothing yet lol",
        "havent booked the train",
        "booked a table for dinner",
        "she called kasia",
        "booked the train?",
        "if i booked the train today would it be cheaper",
        "gonna call kasia tonight",
    ],
)
def test_what_names_no_todo_done(said: str) -> None:
    assert done_by_words(_pending("Book train to Ålesund", "Call kasia"), [said]) == []


def test_a_forget_target_names_a_todo_by_its_first_clause() -> None:
    pending = _pending(
        "Return the IKEA shelf", "Take the bike to the shop", "send flowers to hanna"
    )
    assert [p.text for p in forget_names_todo("the ikea shelf, we're keeping it", pending)] == [
        "Return the IKEA shelf"
    ]
    assert [p.text for p in forget_names_todo("the bike shop thing, sold it", pending)] == [
        "Take the bike to the shop"
    ]
    assert [p.text for p in forget_names_todo("flowers for hanna", pending)] == [
        "send flowers to hanna"
    ]
    assert forget_names_todo("my old address", pending) == []
    assert forget_names_todo("marta silva", pending) == []
    assert forget_names_todo("my sister hanna", pending) == []  # a memory, not the todo
    assert forget_names_todo("hanna", pending) == []
