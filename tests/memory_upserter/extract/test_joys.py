"""Likes said by what a pastime gives the person, and a like of the other side's agreed to
("me too") — issue 28, round 9: must-write and the look-alikes that must write nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract.agreeing import agreed
from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a LoCoMo session's date


def likes(text: str, asked: str | None = None) -> set[str]:
    plan = extract([Utterance(text)], now=NOW, asked=asked)
    return {f.value or "" for f in plan.facts if f.predicate == "LIKES"}


@pytest.mark.parametrize(
    "text, value",
    [
        ("Thanks, Mel! Art gives me so much joy.", "art"),
        ("Dancing makes me so happy, and now I get to share that with other people.", "dancing"),
        ("Painting helps me explore my identity and be true to myself.", "painting"),
        ("Pottery is a huge part of my life, not just a hobby.", "pottery"),
        ("Guitar's mostly my thing. Playing it helps me get my emotions out.", "guitar"),
        ("Playing my guitar gives me peace.", "playing their guitar"),
        ("Running makes me feel alive.", "running"),
        ("Gotcha! Dance is my stress fix too.", "dance"),
        (
            "Contemporary dance is so expressive and graceful - it really speaks to me.",
            "contemporary dance",
        ),
        ("Clay is incredible, it brings me so much joy!", "clay"),
        ("Abstract art gives me so much joy.", "abstract art"),
    ],
)
def test_a_pastime_by_what_it_gives(text: str, value: str) -> None:
    assert value in likes(text)


@pytest.mark.parametrize(
    "text",
    [
        "Mel makes me happy.",  # a person
        "Your support makes me so happy.",  # the other speaker's
        "My kids give me so much joy.",  # a relation, not a taste
        "This gives me so much joy.",  # a pronoun
        "It brings me so much joy!",
        "Seeing my students get better at it brings me such joy.",  # a thing seen
        "Being outdoors makes me happy.",
        "Something makes me so happy.",
        "Work is my thing.",
        "Playing it helps me get my emotions out.",
        "Your painting is lovely, it speaks to me.",
        "The music is great, it speaks to me.",
        "Mel is amazing, it makes me happy.",
        "It speaks to me.",
    ],
)
def test_no_pastime_no_like(text: str) -> None:
    assert likes(text) == set()


@pytest.mark.parametrize(
    "asked, text, value",
    [
        (
            "Cool, Gina! I love all dances, but contemporary is my top pick. What's your fave?",
            "Yeah, me too! Contemporary dance is so expressive.",
            "contemporary",
        ),
        ("i love sushi", "same lol", "sushi"),
        ("Hiking is my favorite thing on weekends.", "Same here!", "hiking"),
        ("I went hiking yesterday and I love hiking.", "Me too!", "hiking"),
        ("I'm a big fan of jazz.", "So do I.", "jazz"),
    ],
)
def test_me_too_takes_the_like_over(asked: str, text: str, value: str) -> None:
    assert value in likes(text, asked=asked)


@pytest.mark.parametrize(
    "asked, text",
    [
        ("I love your painting!", "me too"),  # the listener's thing
        ("I just got back from Paris, I love it there.", "me too!"),  # an outing, a pronoun
        ("i love sushi", "me neither"),
        ("i love sushi", "you too!"),
        ("I hate sushi", "same here"),  # no like
        ("I'm so tired today.", "same"),  # a mood
        ("I used to love skating.", "me too"),  # the past
        ("Do you love hiking?", "me too"),  # a question
        ("I love hiking.", "I'm tired, me too"),  # agreeing is not what opens the message
    ],
)
def test_no_like_agreed(asked: str, text: str) -> None:
    assert likes(text, asked=asked) == set()


def test_only_the_like_is_taken_over() -> None:
    said = agreed("I just got back from Lisbon, and I love it there. I love fado.", "Me too!")
    assert said == "I love it there. I love fado."
