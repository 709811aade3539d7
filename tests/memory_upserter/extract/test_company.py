"""Things said in passing in LoCoMo's register (issue 28, round 7): a relative as company ("my
brother and I", "with my cousin"), pets beyond dogs and cats ("my turtles"), a hobby taken up
or got back into, a run as a habit, a like by what it does to the person, a work of one's own
being finished — and the look-alikes that must write nothing (another person's, the other
speaker's, the past, a pronoun, an errand)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a LoCoMo session's date


def facts_of(text: str) -> set[tuple[str, str | None]]:
    plan = extract([Utterance(text)], now=NOW)
    return {(f.predicate, f.object or f.value) for f in plan.facts}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("My brother and I went fishing on Sunday.", ("HAS_BROTHER", "brother")),
        ("I went hiking with my cousin last week.", ("HAS_COUSIN", "cousin")),
        ("Me and my sister finally finished that puzzle lol.", ("HAS_SISTER", "sister")),
        ("Here's a pic of my turtles, they love the sun.", ("HAS_PET", "turtles")),
        ("I've had my hamster for three years now.", ("HAS_PET", "hamster")),
        ("Our guinea pig knocked over my coffee again lol.", ("HAS_PET", "guinea pig")),
        ("I've taken up surfing this summer, it's so much fun!", ("DOES", "surfing")),
        ("Hey! I got back into skateboarding recently and I'm loving it.",
         ("DOES", "skateboarding")),
        ("I got back into pottery recently.", ("DOES", "pottery")),
        ("I started painting recently and I love it.", ("DOES", "painting")),
        ("I go for a run every morning before work.", ("DOES", "go for a run")),
        ("Gaming is a great way for me to unwind.", ("LIKES", "gaming")),
        ("Cooking relaxes me after a long day.", ("LIKES", "cooking")),
        ("I've been writing a lot, trying to finish my script.", ("WORKS_ON", "script")),
        ("I'm hoping to publish my book by the end of the year.", ("WORKS_ON", "book")),
    ],
)  # fmt: skip
def test_said_in_passing_is_written(text: str, expected: tuple[str, str]) -> None:
    assert expected in facts_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "My sister's dog is so cute.",
        "Did you go with your cousin?",
        "My brother-in-law and I went fishing.",
        "Your turtles are so cute!",
        "My neighbor's turtles are so loud.",
        "Do you have a hamster?",
        "I started crying when I saw it.",
        "I got into arguing.",
        "I got into trouble at school.",
        "I took up the offer.",
        "I go for a walk sometimes when I'm stressed.",
        "I used to go for a run every morning.",
        "It's a great way for me to unwind.",
        "Pottery is a great way for you to relax.",
        "It relaxes me.",
        "Your voice calms me.",
        "I'm trying to finish my homework.",
        "I'm hoping to read your book.",
        "I'm trying to finish my mom's book.",
    ],
)
def test_look_alikes_write_nothing(text: str) -> None:
    assert not facts_of(text)


def test_a_time_said_after_the_activity_is_not_its_value() -> None:
    values = {v for _, v in facts_of("I got back into skateboarding recently.")}
    assert values == {"skateboarding"}
