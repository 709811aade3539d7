"""A time bound the person said that a small model's fact left out, and the day words of a
plan's time fields read in the tense of the clause that names them (the blind v6 set's misses:
"last day at teatr nowy is the 27th, then from dec 1 im at studio szum", "we're in a little
house in byåsen since end of october")."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import httpx

from services.core.when import calendar
from services.memory_upserter.commit.lenient import read_plan
from services.memory_upserter.extract.coming import field_period
from services.memory_upserter.extract.temporal import parse_when, validity
from tests.memory_upserter.conftest import T0, commit, turn

NOV_9 = datetime(2026, 11, 9, 9, 5, tzinfo=UTC)  # a Monday
NOV_20 = datetime(2026, 11, 20, 10, 12, tzinfo=UTC)
JOBS = "handed in my notice yesterday. last day at teatr nowy is the 27th, then from dec 1 im at studio szum doing podcast audio"  # noqa: E501


def _fact(text: str, value: str, **times: str) -> dict:
    return {"memory_type": "WORK", "predicate": "job", "text": text, "value": value, **times}


def _read(facts: list[dict], said: str, now: datetime) -> list:
    plan, _ = read_plan({"facts": facts}, "$.plan", now, [said])
    return plan.facts


def test_a_start_the_person_said_is_the_facts_when_the_plan_left_it_out() -> None:
    (new_job,) = _read([_fact("User works at Studio Szum doing podcast audio", "Studio Szum")],
                       JOBS, NOV_9)  # fmt: skip
    assert new_job.valid_from == "2026-12-01T00:00:00+00:00"  # not current three weeks early
    (stay,) = _read([_fact("User is in Porto", "Porto")], "im in porto till friday lol", NOV_9)
    assert stay.valid_to == "2026-11-14T00:00:00+00:00"  # through all of Friday


def test_only_the_clause_naming_the_value_gives_its_bound() -> None:
    said = "im in porto now, my sister is in lisbon till friday"
    (stay,) = _read([_fact("User is in Porto", "Porto")], said, NOV_9)
    assert stay.valid_to is None
    (home,) = _read([_fact("User lives in Tampere", "Tampere")], "i live in tampere since 2019",
                    NOV_9)  # fmt: skip
    assert home.valid_from is None  # a start gone by is left alone: current either way
    (written,) = _read(
        [_fact("User works at Studio Szum", "Studio Szum", valid_from="2026-12-02")], JOBS, NOV_9
    )
    assert written.valid_from == "2026-12-02T00:00:00+00:00"  # the model's own start stands


def test_a_start_word_leads_a_time_and_a_relation_takes_no_said_start() -> None:
    """v8c: "tom from work… lloyds in january and my sister kirsty is pregnant" put 2027-01-01
    on "Tom is the user's colleague" and "Kirsty is the user's sister": the "from" of "tom from
    work" read as a start, and both relations hidden from GRAPH until January."""
    said = (
        "omg two bits of news. tom from work just told me hes leaving boots to go to lloyds in "
        "january and my sister kirsty is pregnant!!! due in june"
    )
    nov_24 = datetime(2026, 11, 24, 12, 40, tzinfo=UTC)
    colleague, sister = _read(
        [
            _fact("Tom is the user's colleague at Boots", "Boots") | {"object": "Tom"},
            {"memory_type": "PEOPLE", "predicate": "has_sister", "object": "Kirsty",
             "text": "Kirsty is the user's sister", "fact_type": "relationship"},
        ],
        said,
        nov_24,
    )  # fmt: skip
    assert colleague.valid_from is None and sister.valid_from is None
    moved = "my sister kirsty moves in with us from january, so excited"
    (relation,) = _read(
        [{"memory_type": "PEOPLE", "predicate": "has_sister", "object": "Kirsty",
          "text": "Kirsty is the user's sister", "fact_type": "relationship"}],
        moved, nov_24,
    )  # fmt: skip
    assert relation.valid_from is None  # a sister from January is her move's start, not hers


def test_an_end_is_read_in_the_tense_of_its_own_clause() -> None:
    (old_job,) = _read(
        [_fact("User handed in notice at Teatr Nowy, last day is the 27th", "Teatr Nowy",
               valid_to="27th")],
        JOBS, NOV_9,
    )  # fmt: skip
    assert old_job.valid_to == "2026-11-28T00:00:00+00:00"  # the coming 27th, not October's
    worked = _fact("User worked at Teatr Nowy until the 27th", "Teatr Nowy", valid_to="the 27th")
    (gone,) = _read([worked], "i worked there till the 27th", NOV_9)
    assert gone.valid_to == "2026-10-28T00:00:00+00:00"


def test_end_of_a_month_gone_by_is_a_start_in_the_past() -> None:
    said = "oh did i say? we moved out of the bakklandet flat, we're in a little house in byåsen since end of october"  # noqa: E501
    (home,) = _read([{"memory_type": "PROFILE", "predicate": "lives_in", "value": "Byåsen",
                      "text": "User lives in a house in Byåsen", "valid_from": "end of october"}],
                    said, NOV_20)  # fmt: skip
    assert home.valid_from == "2026-10-31T00:00:00+00:00"
    assert field_period("end of october", NOV_20.date()) == (
        datetime(2027, 10, 31).date(),
        datetime(2027, 11, 1).date(),
    )  # "till end of october": the coming one
    assert parse_when("end of october", NOV_20, end=True).date().isoformat() == "2027-11-01"


def test_from_says_a_start_not_its_tense() -> None:
    assert calendar("from dec 1", NOV_9, "start").date().isoformat() == "2026-12-01"
    assert calendar("since dec 1", NOV_9, "start").date().isoformat() == "2025-12-01"
    assert calendar("from march", NOV_9, "start", past=True).date().isoformat() == "2026-03-01"
    when = validity("then from dec 1 im at studio szum doing podcast audio", NOV_9)
    assert when.valid_from == datetime(2026, 12, 1, tzinfo=UTC)
    assert when.text == "then im at studio szum doing podcast audio"
    assert validity("since march 3rd im vegan", NOV_9).valid_from == datetime(
        2026, 3, 3, tzinfo=UTC
    )


def test_a_time_phrase_is_a_whole_word() -> None:
    said = "last day at teatr nowy is the 27th"
    assert validity(said, NOV_9).text == said  # "now" is not in "Nowy"
    assert validity("nowhere near done, currently at home", NOV_9).text.startswith("nowhere")


async def test_a_small_models_new_job_waits_for_the_day_the_person_said(
    client: httpx.AsyncClient, user_id: str
) -> None:
    """Through the commit as the flow sends it: the new job starts on the 1st (not at once), the
    old one ends after the 27th (January's, said on the 7th)."""
    said = "handed in my notice. last day at teatr nowy is the 27th, then from feb 1 im at studio szum 🎧"  # noqa: E501
    plan = {"facts": [
        _fact("User works at Studio Szum doing podcast audio", "Studio Szum"),
        _fact("User handed in notice at Teatr Nowy, last day is the 27th", "Teatr Nowy",
              valid_to="27th"),
    ]}  # fmt: skip
    raw = json.dumps({"reply": "congrats!!", "plan": plan})
    answer = await commit(client, turn(user_id, said, reply=None, answer=raw))
    by_value = {f["text"]: f for f in answer["facts"]}
    new_job = next(f for t, f in by_value.items() if "Studio Szum" in t)
    old_job = next(f for t, f in by_value.items() if "Teatr Nowy" in t)
    assert new_job["valid_from"].startswith("2026-02-01"), answer
    assert old_job["valid_to"].startswith("2026-01-28"), answer
    assert T0.date().isoformat() == "2026-01-07"
    assert any(w["detail"].endswith("from the person's words") for w in answer["warnings"])


def test_a_date_that_is_not_a_bound_is_left_alone() -> None:
    (training,) = _read([_fact("User is training for a 10k in May", "10k")],
                        "training for a 10k in may!", datetime(2026, 4, 7, tzinfo=UTC))  # fmt: skip
    assert (training.valid_from, training.valid_to) == (None, None)
