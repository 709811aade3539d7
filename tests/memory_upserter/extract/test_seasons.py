"""Seasons and years in everyday words ("last spring", "over the winter", "earlier this year",
"back in 2019", "a few years back") are time phrases of the one grammar (:mod:`.temporal`): cut
from the value, and a past one dates the event, never today. Titles ("Mrs. Lee", "Dr. Patel")
end no sentence and stay in the name."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from services.memory_upserter.extract.extractor import Utterance, extract
from services.memory_upserter.extract.temporal import validity

NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)  # a Wednesday in early spring
TODAY = NOW.date()


def facts_of(text: str) -> dict[tuple[str, str | None], date | None]:
    plan = extract([Utterance(text)], now=NOW)
    return {
        (f.predicate, f.object or f.value): _day(f.valid_from)
        for f in plan.facts
        if f.subject == "user"
    }


def _day(at: str | datetime | None) -> date | None:
    if at is None:
        return None
    return (datetime.fromisoformat(at) if isinstance(at, str) else at).date()


@pytest.mark.parametrize(
    "sentence, kept, start",
    [
        ("I moved to Denver last spring", "I moved to Denver", date(2025, 3, 1)),
        ("I took up knitting last winter", "I took up knitting", date(2025, 12, 1)),
        ("I adopted a cat last summer", "I adopted a cat", date(2025, 6, 1)),
        ("I quit my job last fall", "I quit my job", date(2025, 9, 1)),
        ("I started pottery this past autumn", "I started pottery", date(2025, 9, 1)),
        ("I took up pottery over the winter", "I took up pottery", date(2025, 12, 1)),
        ("I learned to swim in the summer of 2019", "I learned to swim", date(2019, 6, 1)),
        ("I moved to Oslo back in 2019", "I moved to Oslo", date(2019, 1, 1)),
        ("I moved to Oslo back in May", "I moved to Oslo", date(2025, 5, 1)),
        ("I started running this year", "I started running", date(2026, 1, 1)),
        ("I started yoga earlier this year", "I started yoga", date(2026, 1, 1)),
        ("I met Tom earlier this month", "I met Tom", date(2026, 3, 1)),
        ("I moved here last year", "I moved here", TODAY - timedelta(days=365)),
        ("I left Acme a couple of years ago", "I left Acme", TODAY - timedelta(days=730)),
        ("I lived in Leeds a few years back", "I lived in Leeds", TODAY - timedelta(days=1095)),
    ],
)
def test_a_past_season_or_year_is_cut_and_dates_the_event(
    sentence: str, kept: str, start: date
) -> None:
    found = validity(sentence, NOW)
    assert found.text == kept
    assert found.valid_from is not None and found.valid_from.date() == start
    assert found.valid_from.date() < TODAY  # the past is never today


@pytest.mark.parametrize(
    "sentence, kept, start",
    [
        ("I'm learning Spanish this summer", "I'm learning Spanish", date(2026, 6, 1)),
        ("We're moving to Porto next winter", "We're moving to Porto", date(2026, 12, 1)),
        ("I'm running a marathon this year", "I'm running a marathon", None),
    ],
)
def test_a_season_to_come_is_cut_and_dates_it_ahead(
    sentence: str, kept: str, start: date | None
) -> None:
    found = validity(sentence, NOW)
    assert found.text == kept
    assert (found.valid_from.date() if found.valid_from else None) == start


@pytest.mark.parametrize(
    "sentence", ["I love winter", "I love the fall", "I fall asleep early", "Spring rolls rock"]
)
def test_a_season_word_alone_is_no_time(sentence: str) -> None:
    assert validity(sentence, NOW).text == sentence
    assert not validity(sentence, NOW).dated


@pytest.mark.parametrize(
    "text, fact, start",
    [
        ("Moved to Denver last spring", ("LIVES_IN", "Denver"), date(2025, 3, 1)),
        ("Took up knitting last winter", ("DOES", "knitting"), date(2025, 12, 1)),
        ("I started running this year", ("DOES", "running"), date(2026, 1, 1)),
        ("I moved to Austin back in 2019", ("LIVES_IN", "Austin"), date(2019, 1, 1)),
        ("i took up pottery over the winter", ("DOES", "pottery"), date(2025, 12, 1)),
    ],
)
def test_the_fact_keeps_a_whole_value_dated_in_the_past(
    text: str, fact: tuple[str, str], start: date
) -> None:
    said = facts_of(text)
    assert said.get(fact) == start, said


@pytest.mark.parametrize(
    "text, fact",
    [
        ("My neighbor Mrs. Lee is lovely", ("HAS_NEIGHBOR", "Mrs. Lee")),
        ("my neighbor mrs. lee is lovely", ("HAS_NEIGHBOR", "Mrs. Lee")),
        ("I really like my doctor, Dr. Patel.", ("HAS_DOCTOR", "Dr. Patel")),
        ("My neighbor Mrs Lee is lovely", ("HAS_NEIGHBOR", "Mrs Lee")),
    ],
)
def test_a_title_stays_in_the_name(text: str, fact: tuple[str, str]) -> None:
    plan = extract([Utterance(text)], now=NOW)
    said = {(f.predicate, f.object) for f in plan.facts if f.subject == "user"}
    assert fact in said
    assert {e.name for e in plan.entities} == {fact[1]}


@pytest.mark.parametrize(
    "text",
    [
        "Mr. Jones my old teacher called me",
        "I ran into Ms. Novak, she says hi.",
        "Dr. Patel said my knee is fine",
    ],
)
def test_a_title_alone_is_nobody(text: str) -> None:
    plan = extract([Utterance(text)], now=NOW)
    names = {e.name.rstrip(".").lower() for e in plan.entities}
    assert not names & {"mr", "mrs", "ms", "dr"}
    assert not any((f.object or "").rstrip(".").lower() in {"mr", "ms", "dr"} for f in plan.facts)


def test_a_todo_keeps_the_titled_name_and_its_day() -> None:
    plan = extract([Utterance("Remind me to call Mrs. Lee tomorrow")], now=NOW)
    assert [(t.text, _day(t.due)) for t in plan.todos] == [("Call Mrs. Lee", date(2026, 3, 12))]


def test_a_plan_for_a_season_is_due_at_its_start() -> None:
    plan = extract([Utterance("I'm going skiing this winter")], now=NOW)
    assert [_day(t.due) for t in plan.todos] == [date(2026, 12, 1)]


def test_since_a_season_dates_a_state_from_it() -> None:
    assert facts_of("I've lived in Denver since last spring") == {
        ("LIVES_IN", "Denver"): date(2025, 3, 1)
    }
    assert facts_of("I've been vegetarian since the summer") == {
        ("DIET", "vegetarian"): date(2025, 6, 1)
    }


def test_a_season_is_no_day_for_a_one_off_event() -> None:
    """ "went to Paris last summer" is the episode's; only a state takes the season's date."""
    assert not any(p == "DID" for p, _ in facts_of("i went to paris with my mum last summer"))
