"""The person's own words that end a state, for a model's plan that wrote only the new one."""

from __future__ import annotations

import pytest

from contracts.plan import PlanFact
from services.memory_upserter.commit.ending import ends_said

pytestmark = pytest.mark.pure


def _fact(predicate: str, value: str, valid_to: str | None = None) -> PlanFact:
    return PlanFact(
        memory_type="PROFILE", predicate=predicate, value=value, text="t", valid_to=valid_to
    )


@pytest.mark.parametrize(
    ("said", "facts", "ends"),
    [
        ("ugh i just lost my job", [], ["WORKS_AT *", "JOB_TITLE *"]),
        ("got laid off today. brutal", [], ["WORKS_AT *", "JOB_TITLE *"]),
        ("i quit my job!! starting at globex monday", [_fact("works_at", "Globex")],
         ["WORKS_AT except Globex", "JOB_TITLE *"]),
        ("we finally moved out", [], ["LIVES_IN *"]),
        ("i moved out, now in lisbon", [_fact("location", "Lisbon")], ["LIVES_IN except Lisbon"]),
        # a hedge, a plan that ends it itself, other quitting, a move to come: nothing
        ("i think i might have lost my job", [], []),
        ("should i quit my job", [], []),
        ("what if i lost my job. scary", [], []),
        ("worried i got laid off", [], []),
        ("lost my job", [_fact("works_at", "Medly", valid_to="2026-01-01")], ["JOB_TITLE *"]),
        ("i quit smoking", [], []),
        ("we're moving out next month", [], []),
        ("my sister lost her job", [], []),
    ],
)  # fmt: skip
def test_words_that_end_a_state_become_ends(
    said: str, facts: list[PlanFact], ends: list[str]
) -> None:
    assert ends_said([said], facts) == ends
