"""Calendar words in other languages (:mod:`services.core.calendar_words`): the time grammar
reads "27 februar", "am 6. januar", "bis freitag", "natale" as their English names, and the
grounding of a model's plan hears "mittwochs und freitags abends" as Wednesday and Friday
evenings; words that are something else elsewhere ("mai": Italian "never") are left alone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from contracts.plan import PlanFact
from services.core.when import calendar
from services.memory_upserter.commit.grounding import Said, ground

pytestmark = pytest.mark.pure

NOW = datetime(2026, 12, 10, 12, 0, tzinfo=UTC)  # a Thursday


@pytest.mark.parametrize(
    ("said", "side", "day"),
    [
        ("27 februar", "start", "2027-02-27"),
        ("am 6. januar", "start", "2027-01-06"),
        ("il 5 maggio", "start", "2027-05-05"),
        ("le 3 décembre", "start", "2027-12-03"),
        ("el lunes", "start", "2026-12-14"),
        ("bis freitag", "end", "2026-12-12"),  # all of Friday
        ("until natale", "end", "2026-12-26"),
        ("sábado", "start", "2026-12-12"),
        ("quarta-feira", "start", "2026-12-16"),
    ],
)
def test_a_foreign_day_or_month_is_read_as_its_english_name(said: str, side, day: str) -> None:
    read = calendar(said, NOW, side)
    assert read is not None and read.date().isoformat() == day, (said, read)


@pytest.mark.parametrize("said", ["mars", "segunda"])
def test_a_word_that_is_something_else_elsewhere_is_no_date(said: str) -> None:
    assert calendar(said, NOW, "start") is None


@pytest.mark.parametrize(("said", "day"), [("mai", "2027-05-01"), ("mañana", "2026-12-11")])
def test_a_word_that_is_a_time_word_in_a_field_is_read_there(said: str, day: str) -> None:
    """Something else in running text ("mai": it "never"), a time word in a whole time field
    (:func:`services.core.calendar_words.field_in_english`; running text never reaches it)."""
    read = calendar(said, NOW, "start")
    assert read is not None and read.date().isoformat() == day


def _fact(value: str, text: str) -> PlanFact:
    return PlanFact(memory_type="PROFILE", subject="user", predicate="fact", value=value, text=text)


@pytest.mark.parametrize(
    ("said", "fact"),
    [
        ("ah and the exam is actually on 27 februar not 20",
         _fact("2027-02-27", "User's exam is on 2027-02-27")),
        ("ich kann nur mittwochs und freitags abends",
         _fact("Wednesday and Friday evenings", "User is free Wednesday and Friday evenings")),
        ("mamma wants me home for natale, 23 to 27 december",
         _fact("home for Christmas", "User will be home for Christmas")),
    ],
)  # fmt: skip
def test_a_plan_in_english_is_grounded_in_the_persons_other_language(
    said: str, fact: PlanFact
) -> None:
    assert ground(fact, Said(NOW, (said,))).verdict == "kept"


def test_a_foreign_name_supports_only_its_own_day() -> None:
    said = Said(NOW, ("ich kann nur mittwochs",))
    assert ground(_fact("Friday", "User is free on Friday"), said).verdict != "kept"
