"""A model's plan and answer read part by part (:mod:`.commit.lenient`), and the one time grammar
for plans, due dates and the offline judge (:mod:`services.core.when`), on what sloppy models
write."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from services.core.when import past_tense
from services.memory_upserter.commit.lenient import read_answer, read_plan
from services.memory_upserter.commit.read import zone_of
from services.memory_upserter.extract.due import find_due, parse_due
from services.memory_upserter.extract.temporal import parse_when, validity

NOW = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)  # a Tuesday in December


def _paths(notes: list) -> dict[str, str]:
    return {n.detail.split(": ", 1)[0]: n.code for n in notes}


def test_a_sloppy_plan_keeps_every_valid_part_and_names_each_drop() -> None:
    plan = {
        "facts": [
            {"memory_type": "PERSONAL", "predicate": "lives in", "object": "Porto", "text": "a"},
            {
                "memory_type": "PROFILE",
                "predicate": "HAS_DOG",
                "value": "Pixel",
                "text": "b",
                "valid_from": "2019",
                "importance": 7,
                "confidence": "0.9",
            },
            {"memory_type": "OPEN_LOOP", "predicate": "X", "value": "x", "text": "c"},
            {
                "memory_type": "PROFILE",
                "predicate": "STAYING_IN",
                "value": "Paris",
                "text": "d",
                "valid_to": "friday",
            },
            {
                "memory_type": "PROFILE",
                "predicate": "LIKES",
                "value": "jazz",
                "text": "e",
                "valid_from": "the day after the party",
                "reason": "said so",
            },
            "not a fact",
            {"memory_type": "PROFILE", "text": "no predicate"},
        ],
        "todos": [
            {"kind": "CHORE", "text": "x"},
            {"kind": "reminder", "text": "call Marta", "due": "19th at 3pm"},
            {"kind": "COMMITMENT", "text": "send it", "due": "someday"},
        ],
        "entities": [{"name": "Porto", "category": "city"}, {"name": ""}],
        "complete_commitment": "false",
        "mood": "happy",
    }
    read, notes = read_plan(plan, "$.answer.plan", NOW)
    assert read is not None
    assert [(f.predicate, f.memory_type) for f in read.facts] == [
        ("lives_in", "PROFILE"),
        ("HAS_DOG", "PROFILE"),
        ("STAYING_IN", "PROFILE"),
        ("LIKES", "PROFILE"),
    ]
    dog, stay, likes = read.facts[1:]
    assert (dog.valid_from, dog.importance, dog.confidence) == ("2019-01-01T00:00:00+00:00", 3, 0.9)
    assert stay.valid_to == "2026-12-05T00:00:00+00:00"  # through all of Friday the 4th
    assert likes.valid_from is None
    assert [(t.kind, t.due) for t in read.todos] == [
        ("REMINDER", None),  # "CHORE": a todo all the same, of the default kind
        ("REMINDER", "2026-12-19T15:00:00+00:00"),
        ("COMMITMENT", None),
    ]
    assert [(e.name, e.category) for e in read.entities] == [("Porto", "Location")]
    assert read.complete_commitment is False
    p = "$.answer.plan"
    assert _paths(notes) == {
        f"{p}.facts[0].memory_type": "plan_repaired",
        f"{p}.facts[0].predicate": "plan_repaired",
        f"{p}.facts[1].importance": "plan_repaired",
        f"{p}.facts[1].confidence": "plan_repaired",
        f"{p}.facts[1].value": "plan_repaired",  # the dog's name: HAS_DOG → Pixel (a Pet)
        f"{p}.facts[2].memory_type": "plan_part_dropped",
        f"{p}.facts[4].valid_from": "plan_field_dropped",
        f"{p}.facts[4].reason": "plan_field_dropped",
        f"{p}.facts[5]": "plan_part_dropped",
        f"{p}.facts[6]": "plan_part_dropped",
        f"{p}.todos[0].kind": "plan_repaired",
        f"{p}.todos[1].kind": "plan_repaired",
        f"{p}.todos[2].due": "due_not_understood",
        f"{p}.entities[0].category": "plan_repaired",
        f"{p}.entities[1].name": "plan_part_dropped",
        f"{p}.complete_commitment": "plan_repaired",
        f"{p}.mood": "plan_field_dropped",
    }


def test_clipping_clamping_and_the_limits_of_a_list() -> None:
    plan = {
        "facts": [
            {
                "memory_type": "people",
                "predicate": "knows-well",
                "value": "x" * 600,
                "text": "y" * 600,
                "confidence": 3,
                "importance": -1,
                "fact_type": "Preferences",
            }
        ]
        + [{"memory_type": "PROFILE", "predicate": "P", "value": "v", "text": "t"}] * 60,
        "entities": [{"name": "Marta", "aliases": "Mar", "category": "spaceship"}],
        "forget": ["ok", 5],
    }
    read, notes = read_plan(plan, "$.plan", NOW)
    assert read is not None
    first = read.facts[0]
    assert (first.memory_type, first.predicate, first.fact_type) == (
        "PEOPLE",
        "knows_well",
        "preference",
    )
    assert (len(first.value or ""), len(first.text), first.confidence, first.importance) == (
        500,
        500,
        1.0,
        0,
    )
    assert len(read.facts) == 50 and "$.plan.facts" in _paths(notes)
    assert read.entities[0].aliases == ["Mar"] and read.entities[0].category == "Other"
    assert read.forget == ["ok", "5"]


def test_end_before_start_drops_the_end_and_an_unread_plan_goes_to_the_judge() -> None:
    plan = {
        "facts": [
            {
                "memory_type": "PROFILE",
                "predicate": "LIVES_IN",
                "value": "Porto",
                "text": "t",
                "valid_from": "2026-01-05",
                "valid_to": "2026-01-01",
            }
        ]
    }
    read, notes = read_plan(plan, "$.plan", NOW)
    assert read is not None and read.facts[0].valid_to is None
    assert read.facts[0].valid_from == "2026-01-05T00:00:00+00:00"
    assert _paths(notes) == {"$.plan.facts[0].valid_to": "plan_field_dropped"}
    assert read_plan(["a list"], "$.plan", NOW)[0] is None


@pytest.mark.parametrize(
    "text, reply, plan, planned, codes",
    [
        (json.dumps({"reply": "Hi!", "plan": {}}), "Hi!", {}, True, []),
        ("```json\n" + json.dumps({"reply": "Hi!"}) + "\n```", "Hi!", None, False, []),
        (
            'Sure! {"reply": "Hi!", "plan": {"facts": []}} hope that helps',
            "Hi!",
            {"facts": []},
            True,
            [],
        ),
        ("just words, no json", "just words, no json", None, False, ["answer_not_json"]),
        ('"a json string"', '"a json string"', None, False, ["answer_not_json"]),
        (json.dumps({"plan": {"facts": []}}), None, {"facts": []}, True, ["answer_without_reply"]),
        (
            json.dumps({"reply": "", "plan": {}, "x": 1}),
            None,
            {},
            True,
            ["plan_field_dropped", "answer_without_reply"],
        ),
    ],
)
def test_the_raw_answer_is_read_whatever_the_model_wrote(
    text: str, reply: str | None, plan: dict | None, planned: bool, codes: list[str]
) -> None:
    read = read_answer(text)
    assert (read.reply, read.plan, read.planned) == (reply, plan, planned)
    assert [n.code for n in read.notes] == codes


# --- the time grammar --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "words, start, end, due",
    [
        ("2019", "2019-01-01 00:00", "2020-01-01 00:00", "2019-01-01 09:00"),
        ("friday", "2026-12-04 00:00", "2026-12-05 00:00", "2026-12-04 09:00"),
        ("January", "2027-01-01 00:00", "2027-02-01 00:00", "2027-01-01 09:00"),
        ("in January", "2027-01-01 00:00", "2027-02-01 00:00", "2027-01-01 09:00"),
        ("since January", "2026-01-01 00:00", "2026-02-01 00:00", "2026-01-01 09:00"),
        ("2026-12", "2026-12-01 00:00", "2027-01-01 00:00", "2026-12-01 18:00"),
        ("19th at 3pm", "2026-12-19 15:00", "2026-12-19 15:00", "2026-12-19 15:00"),
        ("tomorrow at 10", "2026-12-02 10:00", "2026-12-02 10:00", "2026-12-02 10:00"),
        ("2026-12-04", "2026-12-04 00:00", "2026-12-05 00:00", "2026-12-04 09:00"),
        ("2026-12-04T10:30:00Z", "2026-12-04 10:30", "2026-12-04 10:30", "2026-12-04 10:30"),
        ("Dec 24th, 2025", "2025-12-24 00:00", "2025-12-25 00:00", "2025-12-24 09:00"),
        ("until friday", "2026-12-04 00:00", "2026-12-05 00:00", "2026-12-04 09:00"),
        ("last week", "2026-11-24 00:00", "2026-11-24 00:00", None),
        ("3 days ago", "2026-11-28 00:00", "2026-11-28 00:00", None),
        ("in 2 hours", None, None, "2026-12-01 17:00"),
        ("sat", "2026-12-05 00:00", "2026-12-06 00:00", "2026-12-05 09:00"),
        ("thurs 2pm", "2026-12-03 14:00", "2026-12-03 14:00", "2026-12-03 14:00"),
        ("weds", "2026-12-02 00:00", "2026-12-03 00:00", "2026-12-02 09:00"),
        ("jan", "2027-01-01 00:00", "2027-02-01 00:00", "2027-01-01 09:00"),
        ("next week", "2026-12-07 00:00", "2026-12-14 00:00", "2026-12-07 09:00"),
        ("next month", "2027-01-01 00:00", "2027-02-01 00:00", "2027-01-01 09:00"),
        ("next year", "2027-01-01 00:00", "2028-01-01 00:00", "2027-01-01 09:00"),
        ("next January", "2027-01-01 00:00", "2027-02-01 00:00", "2027-01-01 09:00"),
        ("until next jan", "2027-01-01 00:00", "2027-02-01 00:00", "2027-01-01 09:00"),
        ("next December", "2027-12-01 00:00", "2028-01-01 00:00", "2027-12-01 09:00"),
        ("in two weeks", "2026-12-15 00:00", "2026-12-15 00:00", "2026-12-15 15:00"),
        ("end of june", "2027-06-30 00:00", "2027-07-01 00:00", "2027-06-30 09:00"),
        ("till the end of the month", "2026-12-31 00:00", "2027-01-01 00:00", "2026-12-31 09:00"),
        ("end of the week", "2026-12-06 00:00", "2026-12-07 00:00", "2026-12-06 09:00"),
        ("tmrw morning", "2026-12-02 09:00", "2026-12-02 09:00", "2026-12-02 09:00"),
        ("tonite", "2026-12-01 00:00", "2026-12-02 00:00", "2026-12-01 21:00"),
        ("this weekend", "2026-12-05 00:00", "2026-12-07 00:00", "2026-12-05 09:00"),
        ("the weekend", "2026-12-05 00:00", "2026-12-07 00:00", "2026-12-05 09:00"),
        ("next weekend", "2026-12-12 00:00", "2026-12-14 00:00", "2026-12-12 09:00"),
        ("by next wknd", "2026-12-12 00:00", "2026-12-14 00:00", "2026-12-12 09:00"),
        ("whenever", None, None, None),
        ("25pm", None, None, None),
    ],
)
def test_one_grammar_reads_a_start_an_end_and_a_due(
    words: str, start: str | None, end: str | None, due: str | None
) -> None:
    def show(at: datetime | None) -> str | None:
        return at.strftime("%Y-%m-%d %H:%M") if at else None

    assert show(parse_when(words, NOW)) == start
    assert show(parse_when(words, NOW, end=True)) == end
    assert show(parse_due(words, NOW)) == due


def test_a_month_is_the_last_one_when_the_words_are_past_tense() -> None:
    assert parse_when("January", NOW, past=True) == datetime(2026, 1, 1, tzinfo=UTC)
    assert parse_when("the 19th", NOW, past=True) == datetime(2026, 11, 19, tzinfo=UTC)
    assert past_tense("User started a new job in January")
    assert not past_tense("User is starting a new job in January")
    assert not past_tense("User will get married in June")
    started = validity("I started the new job in January", NOW)
    starting = validity("I'm starting the new job in January", NOW)
    assert (started.valid_from, starting.valid_from) == (
        datetime(2026, 1, 1, tzinfo=UTC),
        datetime(2027, 1, 1, tzinfo=UTC),
    )
    assert started.text == "I started the new job"
    moving = validity("we're moving to Rome next January", NOW)
    assert (moving.valid_from, moving.text) == (
        datetime(2027, 1, 1, tzinfo=UTC),
        "we're moving to Rome",
    )


def test_the_judge_reads_a_bare_hour_and_a_day_of_the_month_in_a_todo() -> None:
    found = find_due("call mom tomorrow at 10", NOW)
    assert found is not None and found.at == datetime(2026, 12, 2, 10, tzinfo=UTC)
    found = find_due("pay the rent on the 5th", NOW)
    assert found is not None and found.at == datetime(2026, 12, 5, 9, tzinfo=UTC)
    assert find_due("rate it at 5 stars", NOW) is None


def test_a_date_only_end_is_the_end_of_that_day_in_the_persons_zone() -> None:
    lisbon = NOW.astimezone(ZoneInfo("America/New_York"))
    end = parse_when("friday", lisbon, end=True)
    assert end == datetime(2026, 12, 5, tzinfo=ZoneInfo("America/New_York"))
    assert end is not None and end.astimezone(UTC) == datetime(2026, 12, 5, 5, tzinfo=UTC)
    late = datetime(2026, 12, 1, 23, 30, tzinfo=UTC).astimezone(timezone(timedelta(hours=2)))
    tomorrow = parse_due("tomorrow", late)  # already Wednesday there
    assert tomorrow is not None and tomorrow.date().isoformat() == "2026-12-03"


def test_the_zone_is_the_persons_then_the_requests_offset_then_utc() -> None:
    plus2 = datetime(2026, 12, 1, 17, 0, tzinfo=timezone(timedelta(hours=2)))
    assert zone_of("Europe/Lisbon", plus2) == ZoneInfo("Europe/Lisbon")
    assert zone_of("Not/AZone", plus2) == timezone(timedelta(hours=2))
    assert zone_of(None, None) == UTC


def test_a_bare_day_is_read_in_the_tense_the_person_said_it() -> None:
    monday = datetime(2026, 6, 8, 12, 14, tzinfo=UTC)
    said = ["my mum is in hospital since sunday, probably out by wednesday", "she left on the 1st"]
    raw = {
        "facts": [
            {"memory_type": "PEOPLE", "predicate": "status", "text": "User's mom is in hospital",
             "value": "in hospital", "valid_from": "sunday", "valid_to": "wednesday"},
            {"memory_type": "PEOPLE", "predicate": "lives_in", "text": "Joana lives in Lyon",
             "value": "Lyon", "valid_from": "the 1st"},
        ]
    }  # fmt: skip
    plan, notes = read_plan(raw, "$.plan", monday, said)
    assert plan is not None and notes == []
    assert [(f.valid_from, f.valid_to) for f in plan.facts] == [
        ("2026-06-07T00:00:00+00:00", "2026-06-11T00:00:00+00:00"),
        ("2026-06-01T00:00:00+00:00", None),
    ]
    ahead, _ = read_plan(raw, "$.plan", monday)  # no words of the person: the coming ones
    assert ahead is not None and ahead.facts[1].valid_from == "2026-07-01T00:00:00+00:00"


def test_a_start_said_in_the_present_or_after_from_is_the_coming_one_whatever_the_facts_tense() -> (
    None
):
    monday = datetime(2026, 10, 19, 12, 0, tzinfo=UTC)
    said = ["got the offer!! i start dec 1", "and i moved to 3 days a week from november, yay"]
    raw = {
        "facts": [
            {"memory_type": "PROJECT", "predicate": "works_at", "text": "User got a job at Acme",
             "value": "Acme", "valid_from": "dec 1"},
            {"memory_type": "PROJECT", "predicate": "schedule", "text": "User moved to 3 days",
             "value": "3 days a week", "valid_from": "november"},
        ]
    }  # fmt: skip
    plan, _ = read_plan(raw, "$.plan", monday, said)
    assert plan is not None
    assert [f.valid_from for f in plan.facts] == [
        "2026-12-01T00:00:00+00:00",
        "2026-11-01T00:00:00+00:00",
    ]
