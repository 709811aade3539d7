"""bench/extraction's LoCoMo scope (scope.py) and the Telegram-style corpus: what counts as an
observation memory should hold, decided from the observation's words alone, and the corpus's
size and held-out split."""

from __future__ import annotations

import pytest

from bench.extraction.corpus import DATA, load_messages
from bench.extraction.scope import REPORT, TUNE, classify


@pytest.mark.parametrize(
    "observation",
    [
        "Caroline has a guinea pig named Oscar.",
        "Jon lost his job as a banker the day before the conversation.",
        "Caroline is currently learning the piano to get creative.",
        "Caroline started playing acoustic guitar about five years ago.",
        "Jon is a dancer who runs his own dance studio.",
        "John's one-year-old son is named Kyle.",
    ],
)
def test_a_lasting_state_is_in_scope(observation: str) -> None:
    assert classify(observation, observation.split()[0].removesuffix("'s"))


@pytest.mark.parametrize(
    "observation",
    [
        "Caroline attended an LGBTQ support group recently and found the stories inspiring.",
        "Caroline feels blessed with a lot of love and support throughout her journey.",
        "Jon believes taking risks is essential for success and transformation.",
        "Caroline values the role of pets in bringing joy and comfort.",
        "Jon visited Paris recently",
    ],
)
def test_a_feeling_a_belief_or_a_one_off_event_is_not(observation: str) -> None:
    assert not classify(observation, observation.split()[0])


def test_the_tune_and_report_conversations_are_apart() -> None:
    assert not set(TUNE) & set(REPORT) and len(TUNE) == len(REPORT) == 2


def test_the_telegram_corpus_has_300_messages_two_in_five_held_out() -> None:
    messages = load_messages(DATA / "telegram.txt")
    assert len(messages) >= 300
    assert 0.3 < sum(m.held_out for m in messages) / len(messages) < 0.5
