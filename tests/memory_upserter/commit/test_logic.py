"""memory-upserter's pure decisions: keys, dedup/contradiction, plan checks, due dates, chunks."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from contracts.plan import AffectPromotion, MemoryWritePlan, PlanEntity, PlanFact
from contracts.slots import SessionState, Turn
from services.core.memory_store import FactWrite, memory_key, slug
from services.core.memory_store.fact_rows import CloseRow, LinkRow
from services.core.memory_store.facts import Existing, decide
from services.memory_upserter.commit.lenient import read_plan
from services.memory_upserter.commit.names import resolve
from services.memory_upserter.commit.read import SELF
from services.memory_upserter.commit.session import next_session
from services.memory_upserter.commit.todo_rows import source_of
from services.memory_upserter.extract.due import find_due, parse_due, without_due
from services.memory_upserter.person.chunking import MAX_CHARS, chunks
from services.memory_upserter.text import says_done, statement_in

NOW = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)  # a Wednesday
ME, MARTA, LISBON, PORTO = (uuid.uuid4() for _ in range(4))


# --- the memory key ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, key",
    [
        (
            dict(
                memory_type="PROFILE",
                category="Person",
                subject_ref="self",
                fact_type="fact",
                predicate="lives_in",
                object_ref="lisbon",
            ),
            "profile|person|self|fact|lives_in",
        ),
        (
            dict(
                memory_type="PEOPLE",
                category="Person",
                subject_ref="self",
                fact_type="relationship",
                predicate="HAS_SISTER",
                object_ref="marta",
            ),
            "people|person|self|relationship|has_sister|marta",
        ),
        (
            dict(
                memory_type="PROFILE",
                category="Person",
                subject_ref="self",
                fact_type="fact",
                predicate="ALLERGY",
                value="Peanuts",
            ),
            "profile|person|self|fact|allergy|v:peanuts",
        ),
        (
            dict(
                memory_type="PROJECT",
                category="Project",
                subject_ref="dashboard_redesign",
                fact_type="fact",
                predicate="status",
                value="beta",
            ),
            "project|project|dashboard_redesign|fact|status",
        ),
        (
            dict(
                memory_type="PEOPLE",
                category="Location",
                subject_ref="lisbon",
                fact_type="fact",
                predicate="resides_in",
                object_ref="x",
            ),
            "people|place|lisbon|fact|lives_in",
        ),
    ],
)
def test_the_memory_key_is_000s_key_plus_predicate_and_object_for_multi_valued_ones(
    args: dict, key: str
) -> None:
    assert memory_key(**args) == key


def test_slugs_follow_the_000_rule() -> None:
    assert slug("Austin, Texas") == "austin_texas"
    assert slug("John-Doe") == "john_doe"
    assert slug("Márta") == "marta"
    assert len(slug("x" * 200)) == 60 and slug("!!!").startswith("x")


# --- dedup and contradiction -------------------------------------------------------------------


def _write(
    predicate: str,
    *,
    obj: uuid.UUID | None = None,
    value: str | None = None,
    key: str,
    text: str = "t",
    **extra,
) -> FactWrite:
    return FactWrite(
        subject_entity_id=ME,
        predicate=predicate,
        text=text,
        memory_type="PROFILE",
        object_entity_id=obj,
        value=value,
        memory_key=key,
        **extra,
    )


def _row(
    predicate: str,
    *,
    obj: uuid.UUID | None = None,
    value: str | None = None,
    key: str,
    text: str = "t",
    importance: int = 1,
    pinned: bool = False,
) -> Existing:
    return Existing(
        uuid.uuid4(),
        key,
        "global",
        "",
        ME,
        predicate,
        obj,
        value,
        text,
        "PROFILE",
        "fact",
        importance,
        pinned,
        0.8,
        ("m0",),
    )


def test_a_new_key_is_created() -> None:
    ops = decide([_write("LIVES_IN", obj=LISBON, key="k")], [], count_reference=True, now=NOW)
    assert [r.outcome for r in ops.results] == ["created"] and len(ops.inserts) == 1


def test_the_same_fact_again_is_unchanged_and_counted() -> None:
    row = _row("LIVES_IN", obj=LISBON, key="k")
    ops = decide(
        [_write("LIVES_IN", obj=LISBON, key="k", message_ids=("m1",))],
        [row],
        count_reference=True,
        now=NOW,
    )
    assert ops.results[0].outcome == "unchanged" and ops.results[0].rel_id == row.rel_id
    (update,) = ops.updates
    assert update.prov == '["m0","m1"]' and update.changed is False and update.counted == 1
    assert not ops.inserts and not ops.closes


def test_a_restated_fact_with_new_words_is_updated_and_importance_only_rises() -> None:
    row = _row("LIVES_IN", obj=LISBON, key="k", importance=2)
    ops = decide(
        [_write("LIVES_IN", obj=LISBON, key="k", text="new words", importance=1)],
        [row],
        count_reference=True,
        now=NOW,
    )
    assert ops.results[0].outcome == "updated"
    assert (ops.updates[0].text, ops.updates[0].importance) == ("new words", 2)


def test_a_contradiction_closes_the_old_row_and_links_it_to_the_new_one() -> None:
    row = _row("LIVES_IN", obj=LISBON, key="k")
    ops = decide([_write("LIVES_IN", obj=PORTO, key="k")], [row], count_reference=True, now=NOW)
    (result,) = ops.results
    assert result.outcome == "superseded_previous" and result.replaced_id == row.rel_id
    assert ops.closes == [CloseRow(row.rel_id, None, None)]
    assert ops.links == [LinkRow(row.rel_id, result.rel_id)]


def test_pinning_forces_importance_three() -> None:
    ops = decide(
        [_write("NAME", value="Ana", key="k", pinned=True, importance=1)],
        [],
        count_reference=True,
        now=NOW,
    )
    assert ops.inserts[0].importance == 3


def test_duplicates_in_one_batch_become_one_fact() -> None:
    ops = decide(
        [
            _write("ALLERGY", value="nuts", key="k"),
            _write("ALLERGY", value="nuts", key="k", text="again"),
        ],
        [],
        count_reference=True,
        now=NOW,
    )
    assert len(ops.inserts) == 1 and ops.inserts[0].text == "again"
    assert ops.results[0] == ops.results[1]


def test_a_seed_restated_is_not_a_new_reference() -> None:
    row = _row("NAME", value="t", key="k", importance=3, pinned=True)
    ops = decide(
        [_write("NAME", key="k", importance=3, pinned=True)], [row], count_reference=False, now=NOW
    )
    assert ops.results[0].outcome == "unchanged" and ops.updates[0].counted == 0


# --- the plan ---------------------------------------------------------------------------------


def test_a_fact_with_both_object_and_value_keeps_the_object_and_one_about_itself_is_dropped() -> (
    None
):
    plan = {
        "facts": [
            {
                "memory_type": "PROFILE",
                "predicate": "LIVES_IN",
                "object": "Lisbon",
                "value": "Lisbon",
                "text": "x",
            },
            {
                "memory_type": "PEOPLE",
                "subject": "Marta",
                "predicate": "KNOWS",
                "object": "marta",
                "text": "x",
            },
        ]
    }
    read, notes = read_plan(plan, "$.plan", NOW)
    assert read is not None
    assert [(f.object, f.value) for f in read.facts] == [("Lisbon", None)]
    assert [n.detail.split(":")[0] for n in notes] == [
        "$.plan.facts[0].value",
        "$.plan.facts[1].object",
    ]


def test_handles_resolve_to_the_user_plan_entities_refs_and_new_names() -> None:
    plan = MemoryWritePlan(
        entities=[PlanEntity(name="Makesh", aliases=["Mukesh"])],
        facts=[
            PlanFact(
                memory_type="PEOPLE",
                subject="mukesh",
                predicate="LIVES_IN",
                object="Pune",
                text="Makesh lives in Pune",
            ),
            PlanFact(
                memory_type="PROFILE",
                predicate="WORKS_AT",
                object="org:acme",
                text="User works at Acme",
            ),
            PlanFact(memory_type="PROFILE", predicate="NAME", value="Ana", text="Ana"),
        ],
    )
    resolved = resolve(plan)
    assert [(w.name, w.category, w.ref) for w in resolved.writes] == [
        ("Makesh", "Person", None),
        ("Pune", "Location", None),
        ("Acme", "Org", "org:acme"),
    ]
    assert [(s, o) for _, s, o in resolved.facts] == [(0, 1), (SELF, 2), (SELF, None)]
    assert resolved.self_aliases == ["Ana"]


@pytest.mark.parametrize(
    "text, done",
    [
        ("I'm done with the report", True),
        ("Finished!", True),
        ("completed it today", True),
        ("I'm not done yet", False),
        ("almost finished", False),
        ("done yet? no", False),
        ("I haven't finished", False),
        ("let's get it done", False),  # an intention, not a completion
        ("well done!", False),  # praise
        ("great job on the summary, well done", False),
        ("they've done so much for us", False),  # someone else's doing
        ("I called Marta, so that's done. Well done me", True),  # sentence by sentence
        ("done for today, night!", False),  # the day is over, no todo is
        ("my sister finished her degree", False),  # someone else's
        ("finished my degree last year!", False),  # an achievement long past
        ("finished the report yesterday", True),
        ("nothing here", False),
    ],
)
def test_the_completion_signal_needs_done_finished_or_completed_unnegated(
    text: str, done: bool
) -> None:
    assert says_done(text) is done


def test_an_affect_statement_must_be_near_quoted_from_the_users_message() -> None:
    promotion = AffectPromotion(label="anxious", user_statement="I feel really anxious")
    assert statement_in(promotion.user_statement, ["Honestly I feel realy anxious today"])
    assert not statement_in(promotion.user_statement, ["The weather is nice"])
    assert not statement_in("", ["anything"])


def test_a_todo_points_at_the_users_sentence_that_asked_for_it() -> None:
    texts = [(0, "My sister Marta lives in Lisbon. I'll call her tomorrow.")]
    assert source_of("Call Marta", None, texts) == ("I'll call her tomorrow.", 0)
    assert source_of("x", "call her", texts) == ("call her", 0)
    assert source_of("x", None, []) == (None, None)


def test_the_session_gets_each_turn_once_trimmed_with_this_turns_entities_first() -> None:
    seen = SessionState(
        user_id="u",
        agent_id="a",
        chat_id="c",
        msg_count=7,
        turns=[Turn(role="user", text="old", message_id="m1")],
        active_entity_ids=["e-old"],
    )
    turns = [
        Turn(role="user", text="hi", message_id="m1"),
        Turn(role="user", text="new", message_id="m2"),
    ]
    after = next_session(
        seen,
        user_id="u",
        agent_id="a",
        chat_id="c",
        turns=turns,
        active_ids=["e-new", "e-old"],
        scratch=None,
        now=NOW,
        max_turns=1,
    )
    assert [t.message_id for t in after.turns] == ["m2"]
    assert after.active_entity_ids == ["e-new", "e-old"] and after.msg_count == 7
    assert after.updated_at == NOW


# --- due dates ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, due, rest",
    [
        ("call Mom tomorrow", NOW.replace(day=8, hour=9), "call Mom"),
        ("send it by Friday at 5pm", NOW.replace(day=9, hour=17), "send it"),
        ("on Wednesday", NOW.replace(day=14, hour=9), ""),
        ("tonight", NOW.replace(hour=21), ""),
        ("in 3 days", NOW + timedelta(days=3), ""),
        ("at 2pm", NOW.replace(day=8, hour=14), ""),
        ("at 5pm tomorrow", NOW.replace(day=8, hour=17), ""),
        ("next week", NOW.replace(day=12, hour=9), ""),
        ("I have 5 apples", None, "I have 5 apples"),
    ],
)
def test_due_words_become_a_time_and_leave_the_text(
    text: str, due: datetime | None, rest: str
) -> None:
    found = find_due(text, NOW)
    assert (found.at if found else None) == due
    assert without_due(text, found) == rest


def test_a_plans_due_may_be_iso_or_words() -> None:
    assert parse_due("2026-01-20", NOW) == datetime(2026, 1, 20, 9, tzinfo=UTC)
    assert parse_due("2026-01-20T10:30:00Z", NOW) == datetime(2026, 1, 20, 10, 30, tzinfo=UTC)
    assert parse_due("Friday", NOW) == datetime(2026, 1, 9, 9, tzinfo=UTC)
    assert parse_due("someday", NOW) is None


# --- knowledge chunks --------------------------------------------------------------------------

DOC = """# Nutrition
Intro paragraph about food.

## Protein
{protein}

```
# not a heading
```

## Fibre
Eat vegetables. They are good.
"""


def test_markdown_is_chunked_by_heading_and_size_with_the_heading_trail() -> None:
    found = list(chunks(DOC.format(protein=" ".join(["Protein helps muscles recover."] * 80))))
    assert [c.section for c in found][0] == ("Nutrition",)
    assert {c.section for c in found} == {
        ("Nutrition",),
        ("Nutrition", "Protein"),
        ("Nutrition", "Fibre"),
    }
    assert all(len(c.text) <= MAX_CHARS for c in found)
    protein = [c for c in found if c.section == ("Nutrition", "Protein")]
    assert len(protein) >= 2 and all(c.text.endswith(".") for c in protein[:-1])
    assert "# not a heading" in protein[-1].text
    assert [c.position for c in found] == list(range(len(found)))


def test_the_same_text_under_another_heading_is_another_chunk() -> None:
    a = list(chunks("# A\nSame words."))[0]
    b = list(chunks("# B\nSame words."))[0]
    assert a.text == b.text and a.content_hash != b.content_hash
