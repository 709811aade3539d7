"""The pure decision of a batch of fact writes (``services.core.memory_store.fact_ops.decide``):
what each fact does to the live rows it meets, without a database."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

from services.core.memory_store.fact_ops import Existing, FactWrite, decide

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
ME = uuid.uuid4()
LISBON, PORTO = uuid.uuid4(), uuid.uuid4()
KEY = "profile|person|self|fact|lives_in"


def lives_in(place: uuid.UUID, **kw: object) -> FactWrite:
    return FactWrite(
        ME, "LIVES_IN", "User lives there", "PROFILE", object_entity_id=place, memory_key=KEY, **kw
    )  # type: ignore[arg-type]


def row(place: uuid.UUID, **kw: object) -> Existing:
    values: dict[str, object] = dict(
        rel_id=uuid.uuid4(),
        memory_key=KEY,
        scope="global",
        agent="",
        subject_id=ME,
        predicate="LIVES_IN",
        object_id=place,
        value=None,
        text="User lives there",
        memory_type="PROFILE",
        fact_type="fact",
        importance=1,
        pinned=False,
        confidence=0.8,
        provenance=("m1",),
    )
    return Existing(**{**values, **kw})  # type: ignore[arg-type]


def test_a_new_fact_is_inserted_holding_its_key() -> None:
    ops = decide([lives_in(LISBON)], [], count_reference=True, now=NOW)
    assert [r.outcome for r in ops.results] == ["created"]
    assert [i.key for i in ops.inserts] == [KEY]
    assert ops.closes == [] and ops.updates == [] and ops.links == []


def test_the_same_fact_said_again_is_unchanged_but_counted_and_its_provenance_merged() -> None:
    live = row(LISBON)
    ops = decide([lives_in(LISBON, message_ids=["m2"])], [live], count_reference=True, now=NOW)
    assert [(r.rel_id, r.outcome) for r in ops.results] == [(live.rel_id, "unchanged")]
    (update,) = ops.updates
    assert update.changed is False and update.counted == 1
    assert update.prov == '["m1","m2"]'
    assert ops.inserts == []


def test_a_restatement_only_raises_scores() -> None:
    live = row(LISBON, importance=3, confidence=0.9)
    said = lives_in(LISBON, importance=1, confidence=0.95, pinned=True)
    ops = decide([said], [live], count_reference=False, now=NOW)
    (update,) = ops.updates
    assert (update.importance, update.confidence, update.pinned) == (3, 0.95, True)
    assert update.changed and update.counted == 0
    assert [r.outcome for r in ops.results] == ["updated"]


def test_a_contradiction_closes_the_key_holder_and_links_it_to_the_new_row() -> None:
    old = row(LISBON)
    ops = decide([lives_in(PORTO)], [old], count_reference=True, now=NOW)
    (result,) = ops.results
    assert result.outcome == "superseded_previous" and result.replaced_id == old.rel_id
    assert [(c.id, c.keep) for c in ops.closes] == [(old.rel_id, False)]
    assert [(link.old_id, link.new_id) for link in ops.links] == [(old.rel_id, result.rel_id)]


def test_a_fact_starting_later_keeps_the_holder_current_until_then() -> None:
    old = row(LISBON)
    later = NOW + timedelta(days=7)
    ops = decide([lives_in(PORTO, valid_from=later)], [old], count_reference=True, now=NOW)
    (close,) = ops.closes
    assert (close.id, close.at, close.keep) == (old.rel_id, later, True)
    assert [r.outcome for r in ops.results] == ["created"]


def test_a_fact_that_ended_is_written_without_the_key() -> None:
    ended = lives_in(LISBON, valid_to=NOW - timedelta(days=1))
    ops = decide([ended], [], count_reference=True, now=NOW)
    assert [r.outcome for r in ops.results] == ["ended"]
    assert [i.key for i in ops.inserts] == [None]


def test_restating_an_expired_fact_opens_a_new_row_and_leaves_the_old_as_history() -> None:
    gone = row(LISBON, valid_to=NOW - timedelta(days=1))
    ops = decide([lives_in(LISBON)], [gone], count_reference=True, now=NOW)
    (result,) = ops.results
    assert result.outcome == "created" and result.rel_id != gone.rel_id
    assert ops.updates == [] and result.replaced_id is None
    # the expired row leaves the live rows (their identity is unique), ending where it ended
    assert [(c.id, c.at, c.keep) for c in ops.closes] == [(gone.rel_id, gone.valid_to, False)]


def test_replaces_closes_the_named_row_even_under_another_key() -> None:
    named = row(LISBON, memory_key="people|person|marta|fact|lives_in")
    said = lives_in(PORTO, replaces=named.rel_id)
    ops = decide([said], [named], count_reference=True, now=NOW)
    assert [c.id for c in ops.closes] == [named.rel_id]
    assert ops.results[0].replaced_id == named.rel_id


def test_the_same_fact_twice_in_a_batch_is_one_row_with_one_result_each() -> None:
    ops = decide([lives_in(LISBON), lives_in(LISBON)], [], count_reference=True, now=NOW)
    assert len(ops.inserts) == 1
    assert ops.results[0] == ops.results[1]


def test_a_succession_in_one_batch_ends_the_first_where_the_second_begins() -> None:
    move = NOW + timedelta(days=3)
    batch = [lives_in(LISBON), lives_in(PORTO, valid_from=move)]
    ops = decide(batch, [], count_reference=True, now=NOW)
    first, second = ops.inserts
    assert (first.vto, first.key) == (move, None)
    assert (second.vfrom, second.key) == (move, KEY)
