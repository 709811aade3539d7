"""The offline shadow judge, rule by rule: what each statement writes, and what it never does."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)  # a Wednesday


def facts_of(text: str, speaker: str | None = None, **kw) -> set[tuple]:
    plan = extract([Utterance(text, speaker)], now=NOW, **kw)
    return {(f.subject, f.predicate, f.object or f.value) for f in plan.facts}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I live in Lisbon.", {("user", "LIVES_IN", "Lisbon")}),
        ("i just moved to porto", {("user", "LIVES_IN", "Porto")}),
        (
            "I work at Acme Corp as a product designer.",
            {("user", "WORKS_AT", "Acme Corp"), ("user", "JOB_TITLE", "product designer")},
        ),
        ("I work as a nurse", {("user", "JOB_TITLE", "nurse")}),
        (
            "I'm a teacher at Riverside High",
            {("user", "JOB_TITLE", "teacher"), ("user", "WORKS_AT", "Riverside High")},
        ),
        ("I'm vegetarian.", {("user", "DIET", "vegetarian")}),
        (
            "I'm allergic to peanuts and shellfish",
            {("user", "ALLERGY", "peanuts"), ("user", "ALLERGY", "shellfish")},
        ),
        ("I have a peanut allergy", {("user", "ALLERGY", "peanut")}),
        ("I'm lactose intolerant", {("user", "INTOLERANCE", "lactose")}),
        ("My name is Anna.", {("user", "NAME", "Anna")}),
        ("I love hiking in the mountains", {("user", "LIKES", "hiking in the mountains")}),
        ("I can't stand cilantro", {("user", "DISLIKES", "cilantro")}),
        (
            "My sister Marta lives in Lisbon.",
            {("user", "HAS_SISTER", "Marta"), ("Marta", "LIVES_IN", "Lisbon")},
        ),
        ("Marta is my sister", {("user", "HAS_SISTER", "Marta")}),
        ("my boss John keeps emailing me", {("user", "HAS_BOSS", "John")}),
        (
            "My mom lives in Seattle",
            {("user", "HAS_MOTHER", "Mom"), ("Mom", "LIVES_IN", "Seattle")},
        ),
        ("My dog Rex is old", {("user", "HAS_PET", "Rex")}),
        ("John works at Google", {("John", "WORKS_AT", "Google")}),
        ("I'm working on the dashboard redesign.", {("user", "WORKS_ON", "dashboard redesign")}),
        ("I love you", set()),
        ("I like it when it rains", set()),
        ("I live in a small flat", set()),
        ("I'm so stressed and anxious today", set()),
        ("She lives in Paris", set()),
    ],
)
def test_self_statements_people_and_projects(text: str, expected: set) -> None:
    assert facts_of(text) == expected


def test_what_a_rule_writes_carries_its_type_importance_and_entities() -> None:
    plan = extract(
        [Utterance("My sister Marta lives in Lisbon. I'm allergic to peanuts.")], now=NOW
    )
    by_predicate = {f.predicate: f for f in plan.facts}
    assert by_predicate["HAS_SISTER"].memory_type == "PEOPLE"
    assert by_predicate["HAS_SISTER"].fact_type == "relationship"
    assert by_predicate["HAS_SISTER"].text == "Marta is the user's sister"
    assert by_predicate["ALLERGY"].importance == 3
    assert by_predicate["ALLERGY"].memory_type == "PROFILE"
    assert {(e.name, e.category) for e in plan.entities} == {
        ("Marta", "Person"),
        ("Lisbon", "Location"),
    }


@pytest.mark.parametrize(
    "text, kind, todo, due",
    [
        ("Remind me to call Mom tomorrow.", "REMINDER", "Call Mom", "2026-01-08T09:00:00+00:00"),
        (
            "remind me on Friday to send the invoice",
            "REMINDER",
            "Send the invoice",
            "2026-01-09T09:00:00+00:00",
        ),
        ("Add buy oat milk to my list", "GOAL", "Buy oat milk", None),
        ("My goal is to run a marathon", "GOAL", "Run a marathon", None),
        (
            "I'll send the report on Friday",
            "COMMITMENT",
            "Send the report",
            "2026-01-09T09:00:00+00:00",
        ),
        ("I promise to stretch", "COMMITMENT", "Stretch", None),
        ("I need to figure out whether to move", "THREAD", "Figure out whether to move", None),
        (
            "I keep procrastinating on my thesis",
            "FRICTION",
            "Keeps procrastinating on my thesis",
            None,
        ),
        ("Every morning I go for a run", "HABIT", "Go for a run every morning", None),
    ],
)
def test_todos_with_their_kind_due_date_and_source_sentence(
    text: str, kind: str, todo: str, due: str | None
) -> None:
    plan = extract([Utterance(text)], now=NOW)
    assert [(t.kind, t.text, t.due) for t in plan.todos] == [(kind, todo, due)]
    assert plan.todos[0].source_snippet == text


@pytest.mark.parametrize("text", ["I'll think about it", "I will be fine", "I need a break"])
def test_a_vague_intention_is_not_a_todo(text: str) -> None:
    assert extract([Utterance(text)], now=NOW).todos == []


@pytest.mark.parametrize(
    "text, done",
    [
        ("I'm done with the report!", True),
        ("I finished it", True),
        ("Completed.", True),
        ("I'm not done yet", False),
        ("I'll be finished tomorrow? not yet", False),
    ],
)
def test_the_completion_signal(text: str, done: bool) -> None:
    assert extract([Utterance(text)], now=NOW).complete_commitment is done


def test_a_named_speaker_speaks_for_themselves_not_for_the_user() -> None:
    """LoCoMo: both sides are user messages with the speaker's name."""
    plan = extract(
        [
            Utterance("I live in Boston. I went to a support group yesterday.", "Caroline"),
            Utterance("My sister Anna lives in Rome. I'll call her tomorrow.", "Mel"),
        ],
        now=NOW,
    )
    facts = {(f.subject, f.predicate, f.object or f.value) for f in plan.facts}
    assert ("Caroline", "LIVES_IN", "Boston") in facts
    assert ("Caroline", "DID", "went to a support group @ 2026-01-06") in facts
    assert ("Mel", "HAS_SISTER", "Anna") in facts and ("Anna", "LIVES_IN", "Rome") in facts
    assert all(f.subject != "user" for f in plan.facts)
    assert all(f.memory_type == "PEOPLE" for f in plan.facts)
    assert plan.todos == []  # another speaker's plans are not the user's todos
    texts = {f.text for f in plan.facts}
    assert "Anna is Mel's sister" in texts and "Caroline lives in Boston" in texts


def test_a_speaker_known_as_the_user_speaks_for_the_user() -> None:
    assert facts_of("I live in Lisbon", "Anna", self_names=["anna"]) == {
        ("user", "LIVES_IN", "Lisbon")
    }


def test_earlier_messages_only_tell_who_she_is() -> None:
    plan = extract(
        [Utterance("She lives in Paris now.")],
        now=NOW,
        context=[Utterance("My friend Chloe is visiting.")],
    )
    assert {(f.subject, f.predicate, f.object) for f in plan.facts} == {
        ("Chloe", "LIVES_IN", "Paris")
    }


def test_feelings_are_never_extracted() -> None:
    plan = extract([Utterance("I feel so anxious and I'm furious with everyone")], now=NOW)
    assert plan.facts == [] and plan.promote_affect is None
