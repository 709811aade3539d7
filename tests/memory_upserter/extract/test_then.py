"""A past of the person's life ("in high school", "when I was young", "as a kid") makes past only
the verb group it governs: a group in the present, or a state that began then, is the person's
now, and the message's other groups stand; a group in the past tense writes no current fact."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract import tone
from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)


def facts_of(text: str) -> set[tuple[str, str | None]]:
    plan = extract([Utterance(text)], now=NOW)
    return {(f.predicate, f.object or f.value) for f in plan.facts if f.subject == "user"}


@pytest.mark.parametrize(
    "text, written",
    [
        ("My love of baking started when I was little", ("LIKES", "baking")),
        ("I've loved chess ever since I was a kid", ("LIKES", "chess")),
        ("I work at Initech and I ran track in high school", ("WORKS_AT", "Initech")),
        ("I love tennis because I played it in high school", ("LIKES", "tennis")),
        ("I enjoy sketching, I did it a lot as a kid", ("LIKES", "sketching")),
        ("I have a cat, I got her when I was 12", ("HAS_PET", "cat")),
    ],
)
def test_the_present_beside_a_past_of_their_life_is_written(
    text: str, written: tuple[str, str]
) -> None:
    assert written in facts_of(text)


def test_a_present_group_in_high_school_is_now() -> None:
    said = facts_of("I'm a sophomore in high school")
    assert said and all(p == "STUDENT" for p, _ in said)


@pytest.mark.parametrize(
    "text",
    [
        "I ran track in high school",
        "I lived in Leeds as a kid",
        "As a kid I lived in Porto",
        "I was vegan in high school",
        "I had a parrot when I was young",
        "i moved to oslo when i was 20",
    ],
)
def test_a_past_group_writes_no_current_fact(text: str) -> None:
    assert facts_of(text) == set()


def test_the_governed_group_is_the_one_the_phrase_sits_in() -> None:
    clause = "I love tennis because I played it in high school"
    [(start, end)] = tone.then_spans(clause)
    assert clause[start:end] == "I played it in high school"
    assert tone.then_spans("I'm a sophomore in high school") == []
    assert tone.then_spans("My love of baking started when I was little") == []


def test_a_sentence_opening_on_when_i_was_is_no_question() -> None:
    said = facts_of("When I was small I wanted to be an astronaut, I'm a pharmacist now")
    assert ("JOB_TITLE", "pharmacist") in said
    assert not any(v == "astronaut" for _, v in said)
    assert facts_of("when were you in Lisbon") == set()  # the question still is one
