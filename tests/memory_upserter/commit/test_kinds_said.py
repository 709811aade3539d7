"""A bare name's category from what the person or the fact's own words call it (issue 27, the
kind the blind v4 set showed: "User's sister priya wants…", "jonas lind from work" were kept as
Other, so two same-name people were never told apart)."""

from __future__ import annotations

from contracts.plan import MemoryWritePlan, PlanFact
from services.memory_upserter.commit.kinds import category_hints, said_category


def _plan(*facts: PlanFact) -> MemoryWritePlan:
    return MemoryWritePlan(facts=list(facts))


def test_someone_from_work_or_uni_is_a_person() -> None:
    assert said_category("rui", ["lunch w rui from work today"]) == "Person"
    assert said_category("Ines Sá", ["ines sá (from uni) is visiting"]) == "Person"
    assert said_category("rui", ["rui from lisbon is a great city"]) is None


def test_the_fact_s_own_words_name_a_relation() -> None:
    fact = PlanFact(
        memory_type="PEOPLE", subject="tomas", predicate="wantsHelp",
        text="User's brother tomas wants help moving", value="help moving",
    )  # fmt: skip
    assert category_hints(_plan(fact), ["can u remind me to help w the move sat"]) == {
        "tomas": "Person"
    }
    other = PlanFact(
        memory_type="PEOPLE", subject="orion", predicate="launch",
        text="orion launches in may", value="may",
    )  # fmt: skip
    assert category_hints(_plan(other), ["orion launches in may"]) == {}
