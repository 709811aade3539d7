"""The pure side of supersession: how a batch of fact writes follows a key (two facts of one
key are two rows, the first ending where the second begins), a later start that leaves the
current fact current until then, a named fact replaced whatever its key, and handles picked
among the candidates the transaction found."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from services.core.memory_store.fact_ops import Existing, FactWrite, decide
from services.core.memory_store.fact_rows import CloseRow, LinkRow
from services.memory_upserter.commit.supersede import HandleRef, pick

NOW = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)
ME, ACME, SPOTIFY = (uuid.uuid4() for _ in range(3))
KEY = "profile|person|self|fact|works_at"


def _job(obj: uuid.UUID, **extra) -> FactWrite:
    return FactWrite(
        subject_entity_id=ME,
        predicate="WORKS_AT",
        text=f"works at {obj}",
        memory_type="PROFILE",
        object_entity_id=obj,
        memory_key=KEY,
        **extra,
    )


def _row(obj: uuid.UUID, key: str | None = KEY) -> Existing:
    return Existing(
        uuid.uuid4(), key, "global", "", ME, "WORKS_AT", obj, None, "t", "PROFILE", "fact",
        1, False, 0.8, ("m0",), NOW - timedelta(days=100),
    )  # fmt: skip


def test_two_new_facts_of_one_key_are_two_rows_the_first_ending_where_the_second_begins() -> None:
    monday = NOW - timedelta(days=2)
    ops = decide([_job(ACME), _job(SPOTIFY, valid_from=monday)], [], count_reference=True, now=NOW)
    acme, spotify = ops.results
    assert acme.rel_id != spotify.rel_id
    assert (acme.outcome, spotify.outcome) == ("ended", "created")
    first, second = ops.inserts
    assert (first.key, first.vto) == (None, monday)  # undated acme first, then spotify
    assert (second.key, second.vfrom, second.vto) == (KEY, monday, None)


def test_an_ended_fact_and_its_successor_in_one_plan_leave_the_key_to_the_successor() -> None:
    acme = _row(ACME)
    friday, monday = NOW - timedelta(days=5), NOW - timedelta(days=2)
    ops = decide(
        [_job(ACME, valid_to=friday), _job(SPOTIFY, valid_from=monday)],
        [acme],
        count_reference=True,
        now=NOW,
    )
    ended, started = ops.results
    assert (ended.rel_id, ended.outcome) == (acme.rel_id, "ended")
    assert started.outcome == "created" and started.rel_id != acme.rel_id
    assert ops.closes == [CloseRow(acme.rel_id, None, friday, True)]  # gives up the key
    (update,) = ops.updates
    assert (update.key, update.vto) == (None, friday)
    assert ops.inserts[0].key == KEY


def test_a_later_start_leaves_the_current_fact_current_until_then() -> None:
    acme = _row(ACME)
    start = NOW + timedelta(days=20)
    ops = decide([_job(SPOTIFY, valid_from=start)], [acme], count_reference=True, now=NOW)
    (result,) = ops.results
    assert (result.outcome, result.replaced_id) == ("created", acme.rel_id)
    assert ops.closes == [CloseRow(acme.rel_id, None, start, True)]
    assert ops.links == [LinkRow(acme.rel_id, result.rel_id)]
    assert ops.inserts[0].key == KEY


def test_a_named_fact_is_replaced_whatever_its_key() -> None:
    old = _row(ACME, key="profile|person|self|fact|employer_of_old_spelling")
    ops = decide([_job(SPOTIFY, replaces=old.rel_id)], [old], count_reference=True, now=NOW)
    (result,) = ops.results
    assert (result.outcome, result.replaced_id) == ("superseded_previous", old.rel_id)
    assert ops.closes == [CloseRow(old.rel_id, None, None, False)]


def test_handles_are_picked_one_fact_each_or_named_in_a_warning() -> None:
    one, two, three = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    refs = [
        HandleRef("$.plan.facts[0].replaces", "[F3a9c1b]"),
        HandleRef("$.plan.ends[0]", "Fabcdef"),
        HandleRef("$.plan.ends[1]", "F000001"),
        HandleRef("$.plan.ends[2]", "the old job"),
    ]
    found = [("3a9c1b", one), ("abcdef", two), ("abcdef", three)]
    picked, notes = pick(refs, found)
    assert picked == {"[F3a9c1b]": one}
    assert [(n.code, n.detail.split(":")[0]) for n in notes] == [
        ("handle_ambiguous", "$.plan.ends[0]"),
        ("handle_not_found", "$.plan.ends[1]"),
        ("handle_not_found", "$.plan.ends[2]"),
    ]
