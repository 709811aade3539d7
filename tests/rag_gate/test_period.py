"""The period a question names (:func:`services.rag_gate.period.named`): a day or a month, read
by the write path's calendar grammar, in the past."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from contracts.retrieve_limits import TurnLimits
from services.rag_gate import fusion, period
from services.rag_gate.period import Period, named

NOW = datetime(2023, 12, 20, 9, 0, tzinfo=UTC)


def day(y: int, m: int, d: int) -> datetime:
    return datetime(y, m, d, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("What movie did Joanna watch on 1 May, 2022?", day(2022, 5, 1), day(2022, 5, 2)),
        ("What painting did she show on October 13, 2023?", day(2023, 10, 13), day(2023, 10, 14)),
        ("What happened on the 3rd of June 2023?", day(2023, 6, 3), day(2023, 6, 4)),
        ("What did Maria donate in December 2023?", day(2023, 12, 1), day(2024, 1, 1)),
        ("What did he do last weekend before April 10, 2023?", day(2023, 4, 10), day(2023, 4, 11)),
        ("What did I cook in May?", day(2023, 5, 1), day(2023, 6, 1)),  # the last May
        ("Which tournament in the beginning of November 2022?", day(2022, 11, 1), day(2022, 12, 1)),
    ],
)
def test_a_named_day_or_month_is_its_period(question: str, start: datetime, end: datetime) -> None:
    assert named(question, NOW) == Period(start, end)


@pytest.mark.parametrize(
    "question",
    [
        "What may Joanna do next?",  # "may" the verb
        "How many times has Melanie gone to the beach in 2023?",  # a year: too wide
        "What state did Joanna visit in summer 2021?",
        "What did I do last Friday?",  # needs the asker's day: not read here
        "What am I doing in May?",  # a month without its year, and not in the past
        "What did Maria say about her puppy?",
    ],
)
def test_no_day_or_month_named_is_no_period(question: str) -> None:
    assert named(question, NOW) is None


def test_a_period_holds_its_start_and_not_its_end() -> None:
    may = Period(day(2023, 5, 1), day(2023, 6, 1))
    assert may.holds(day(2023, 5, 1)) and may.holds(datetime(2023, 5, 31, 23, 59, tzinfo=UTC))
    assert not may.holds(day(2023, 6, 1)) and not may.holds(day(2023, 4, 30))


def test_a_turn_said_in_the_named_period_is_lifted_by_the_boost() -> None:
    def candidate(id: str, rrf: float, in_period: bool) -> fusion.TurnCandidate:
        return fusion.TurnCandidate(
            id, rrf, 0.5, None, f"s-{id}", frozenset(), bm25=1.0, in_period=in_period
        )

    scored = fusion.score_turns(
        [candidate("a", 0.032, False), candidate("b", 0.030, True)],
        limits=TurnLimits(),
        entity_ids=(),
        entity_names=(),
        session_ranks={},
    )
    assert [t.id for t in scored] == ["b", "a"]
    assert scored[0].details["period"] == round(period.BOOST * fusion.FIRST, 6)
    assert scored[1].details["period"] == 0
