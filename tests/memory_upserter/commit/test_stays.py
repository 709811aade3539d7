"""A stay written with a location predicate is not a home (issue 27, found by the blind v4 set:
"in lisbon for work till sunday" as ``currentLocation`` ended "lives in Malmö")."""

from __future__ import annotations

from datetime import UTC, datetime

from services.memory_upserter.commit.lenient import read_plan
from services.memory_upserter.commit.stays import stays

NOW = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


def _predicates(*facts: dict) -> list[str]:
    plan, _ = read_plan({"facts": list(facts)}, "$.plan", NOW)
    assert plan is not None
    kept, _ = stays(plan, "$.plan", NOW)
    return [f.predicate for f in kept.facts]


def _fact(predicate: str, text: str, **more: str) -> dict:
    return {"memory_type": "PROFILE", "predicate": predicate, "text": text, **more}


def test_a_stay_is_read_as_one() -> None:
    assert _predicates(
        _fact("currentLocation", "User is in Berlin", valid_to="friday"),
        _fact("location", "User is in Oslo for a wedding"),
        _fact("current_city", "User is at a conference in Austin"),
    ) == ["staying_in", "staying_in", "staying_in"]


def test_a_home_stays_a_home() -> None:
    assert _predicates(
        _fact("lives_in", "User lives in Porto", valid_to="2026-09-01"),
        _fact("location", "User moved to Ghent"),
        _fact("currentCity", "User is based in Leeds"),
        _fact("city", "User's city is Turin"),
        _fact("location", "User was in Rome until May", valid_to="2026-05-31"),
    ) == ["lives_in", "location", "currentCity", "city", "location"]
