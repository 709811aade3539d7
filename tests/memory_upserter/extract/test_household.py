"""People and standing facts said the everyday way (rules/household.py, rules/standing.py and
the kin/casual fixes of round 10): what each writes, and what it must not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)  # a Wednesday


def facts_of(text: str) -> set[tuple]:
    plan = extract([Utterance(text)], now=NOW)
    return {(f.subject, f.predicate, f.object or f.value) for f in plan.facts}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("We've got a pup and a kitty.", {("user", "HAS_PET", "dog"), ("user", "HAS_PET", "cat")}),
        ("My little sister just started college.", {("user", "HAS_SISTER", "younger sister")}),
        ("My parents live in Ohio.", {("user", "HAS_PARENTS", "parents")}),
        ("I married my high school sweetheart, Dan, eight years ago!",
         {("user", "HAS_SPOUSE", "Dan")}),
        ("I got hired at Microsoft last week!", {("user", "WORKS_AT", "Microsoft")}),
        ("I'm diabetic.", {("user", "CONDITION", "diabetes")}),
        ("I've got a bad knee.", {("user", "CONDITION", "bad knee")}),
        ("i'm 7 months pregnant!!", {("user", "EXPECTING", "baby")}),
        ("got a kitten last week, named him pickles", {("user", "HAS_PET", "Pickles")}),
        ("our golden retriever is called sunny", {("user", "HAS_PET", "Sunny")}),
        ("I have a girlfriend, her name is Maria.", {("user", "HAS_GIRLFRIEND", "Maria")}),
        ("I just contacted my mentor for advice.", {("user", "HAS_MENTOR", "mentor")}),
    ],
)  # fmt: skip
def test_the_standing_fact_is_written(text: str, expected: set[tuple]) -> None:
    assert expected <= facts_of(text)


def test_a_late_father_is_a_father_who_passed_away() -> None:
    facts = facts_of("My late father taught me to fish.")
    assert ("user", "HAS_FATHER", "Dad") in facts
    assert any(p == "DECEASED" for _, p, _ in facts)


def test_a_place_and_a_time_in_it_are_read_whole() -> None:
    facts = extract([Utterance("I'm originally from Sweden but I've been in Denver since 2019")],
                    now=NOW).facts  # fmt: skip
    lives = [f for f in facts if f.predicate == "LIVES_IN"]
    assert [(f.object, (f.valid_from or "")[:10]) for f in lives] == [("Denver", "2019-01-01")]
    assert {(f.predicate, f.object) for f in facts} >= {("FROM", "Sweden")}
    assert facts_of("moved back home to texas after college") >= {("user", "LIVES_IN", "Texas")}


@pytest.mark.parametrize(
    "text, predicate",
    [
        ("me and my boyfriend broke up last week", "DATING"),
        ("I have a cat allergy", "HAS_PET"),
        ("i think my little sister is moving", "HAS_SISTER"),
        ("Since I moved to New York, I've been so busy.", "LIVES_IN"),
    ],
)
def test_what_is_not_the_persons_standing_fact_is_not_written(text: str, predicate: str) -> None:
    facts = facts_of(text)
    if predicate == "LIVES_IN":  # written for the person, never for a person named "Since"
        assert {s for s, p, _ in facts if p == predicate} == {"user"}
    else:
        assert not any(p == predicate for _, p, _ in facts)


def test_a_pet_said_in_passing_is_not_dated_by_the_walk() -> None:
    plan = extract([Utterance("I was walking my dog this morning and saw a deer.")], now=NOW)
    (pet,) = [f for f in plan.facts if f.predicate == "HAS_PET"]
    assert pet.value == "dog" and pet.valid_from is None
    had = extract([Utterance("I've had my dog for 5 years now.")], now=NOW).facts
    assert [(f.valid_from or "")[:4] for f in had if f.predicate == "HAS_PET"] == ["2021"]
