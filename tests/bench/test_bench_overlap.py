"""bench/extraction's coverage matcher (overlap.py) and the observation kinds (coverage.py): a
right write about a dog, art or Max counts; function words, the bench's own phrasing and the
person's name do not."""

from __future__ import annotations

import pytest

from bench.extraction.coverage import kind
from bench.extraction.overlap import shared, stems


@pytest.mark.parametrize(
    "observation, write",
    [
        ("Caroline has a dog named Max.", "User has a dog"),
        ("John's dog Max loves the park.", "Max is the user's pup"),
        ("Melanie loves art.", "User likes art"),
        ("Jon is losing his job.", "User lost their job"),
        ("Melanie has two kids.", "User has children"),
        ("Joanna adopted a puppy.", "User has a dog"),
    ],
)
def test_a_right_write_with_a_short_word_or_a_name_counts(observation: str, write: str) -> None:
    person = observation.split()[0].removesuffix("'s")
    assert shared(stems(observation, [person]), stems(write))[1]


@pytest.mark.parametrize(
    "observation, write",
    [
        ("Caroline is going to the park with her friend.", "User has been to the gym"),
        ("Jon was at home all day.", "User has a new job"),
        ("Caroline thinks about it a lot.", "Caroline is the user's friend"),
    ],
)
def test_function_words_and_the_persons_name_do_not(observation: str, write: str) -> None:
    person = observation.split()[0]
    assert not shared(stems(observation, [person]), stems(write))[1]


def test_strict_needs_two_shared_stems_or_all_of_fewer() -> None:
    want = stems("Caroline has a dog named Max.", ["Caroline"])
    assert shared(want, stems("Max is the user's dog")) == (True, True)
    assert shared(want, stems("User has a dog")) == (False, True)
    assert shared(stems("Jon is a dancer.", ["Jon"]), stems("User is a dancer")) == (True, True)


@pytest.mark.parametrize(
    "observation, expected",
    [
        ("John grew up in Chicago.", "home"),
        ("Caroline has a guinea pig named Oscar.", "pet"),
        ("Melanie has been married for 5 years.", "family"),
        ("Jon runs his own dance studio.", "job"),
        ("Joanna loves horror movies.", "like"),
        ("John has been painting since he was a kid.", "activity"),
    ],
)
def test_an_observation_has_one_kind(observation: str, expected: str) -> None:
    assert kind(observation) == expected
