"""Relations said in passing (rules/kin.py), plans against reminiscences, and a done-word that is
not the person's: what LoCoMo's speakers say indirectly, written without garbling."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.core.memory_store.keys import EXCLUSIVE_PREDICATES
from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)  # a Wednesday


def plan_of(text: str):
    return extract([Utterance(text)], now=NOW)


def facts_of(text: str) -> set[tuple]:
    return {(f.subject, f.predicate, f.object or f.value) for f in plan_of(text).facts}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("a picnic with the wife and kids", {("HAS_SPOUSE", "wife"), ("HAS_CHILDREN", "kids")}),
        ("my husband and I are so tired", {("HAS_SPOUSE", "husband")}),
        ("me, the missus, and the kids", {("HAS_SPOUSE", "wife"), ("HAS_CHILDREN", "kids")}),
        ("My kids have so much and others don't.", {("HAS_CHILDREN", "kids")}),
        ("our dog loves the park", {("HAS_PET", "dog")}),
        ("Our one-year-old is so cute, his name is Kyle!", {("HAS_SON", "Kyle")}),
        ("from my grandma in my home country, Sweden.", {("HAS_GRANDMOTHER", "Grandma"),
                                                         ("FROM", "Sweden")}),
        ("back home in Sweden we had snow", {("FROM", "Sweden")}),
        ("I got promoted at work!", {("JOB_STATUS", "promoted")}),
        ("I'm really enjoying my new job.", {("JOB_STATUS", "employed")}),
        ("I work at the shelter", {("WORKS_AT", "shelter")}),
        ("Losing my job was hard, but I'm living my dream now.", {("JOB_STATUS", "lost job")}),
        ("I'm happily married", {("MARITAL_STATUS", "married")}),
    ],
)  # fmt: skip
def test_relations_said_in_passing(text: str, expected: set[tuple]) -> None:
    assert {(p, v) for _, p, v in facts_of(text)} == expected


def test_a_job_lost_as_or_at_ends_it() -> None:
    plan = plan_of("Lost my job as a banker yesterday, so I'm gonna start my own business.")
    titles = [f for f in plan.facts if f.predicate == "JOB_TITLE"]
    assert [(f.value, (f.valid_to or "")[:10]) for f in titles] == [("banker", "2026-01-06")]
    plan = plan_of("I lost my job at the mechanical engineering company. They tanked.")
    (work,) = [f for f in plan.facts if f.predicate == "WORKS_AT"]
    assert work.value == "mechanical engineering company" and work.valid_to is not None


@pytest.mark.parametrize(
    "text",
    [
        "Max is my mother's cat",
        "I'm scared of losing my job",
        "I used to go riding with my dad when I was a kid",
        "our kids deserve better schools",
        "the kids had fun on the playground",
        "I met the wife of my boss",
        "my ex-husband called",
        "If my husband gets the job we move",
        "me and my bf tom went hiking",  # a name typed in lowercase: not a role without one
    ],
)
def test_what_is_not_a_relation_of_the_persons_writes_none(text: str) -> None:
    assert facts_of(text) == set()


@pytest.mark.parametrize(
    "text, predicate, name",
    [
        ("my wife Sofia and I", "HAS_WIFE", "Sofia"),
        ("My partner is Sam", "HAS_PARTNER", "Sam"),
        ("Rex is my dog", "HAS_PET", "Rex"),
        ("a trip for my daughter Sara's birthday", "HAS_DAUGHTER", "Sara"),
    ],
)
def test_a_named_relation_is_written_once_by_its_name(text: str, predicate: str, name: str) -> None:
    assert facts_of(text) == {("user", predicate, name)}


def test_an_unnamed_role_never_replaces_a_known_one() -> None:
    """A single-valued predicate ("HAS_WIFE") would end the known wife's fact: an unnamed role
    uses a predicate that holds several."""
    for text in ("my wife and I", "my partner is pregnant", "my boyfriend and I", "my dog"):
        assert all(f.predicate not in EXCLUSIVE_PREDICATES for f in plan_of(text).facts), text


@pytest.mark.parametrize(
    "text",
    [
        "Moments like these remind me to appreciate the ones I love.",
        "It's moments like these that remind me of how important it is to be kind.",
        "I'm gonna keep pushing and never give up!",
        "I'll do my best to make you proud!",
        "I'll definitely add it to my list; thanks!",
        "maybe I'll go back to acting someday",
        "I'll let you know how it turns out",
    ],
)
def test_reminiscence_and_pep_talk_are_no_todo(text: str) -> None:
    assert plan_of(text).todos == []


@pytest.mark.parametrize(
    "text, task",
    [
        ("I'm going to make it for my family this weekend - can't wait!", "Make it for my family"),
        ("Now I'm gonna submit it to some film festivals", "Submit it to some film festivals"),
        ("please remind me to call Marta", "Call Marta"),
        ("I plan to apply to adoption agencies", "Apply to adoption agencies"),
    ],
)
def test_a_real_plan_is_a_todo_without_its_tail(text: str, task: str) -> None:
    assert [t.text for t in plan_of(text).todos] == [task]


@pytest.mark.parametrize(
    "text",
    [
        "Last week I realized again how much they've done for us.",
        "I've done weight training so far too.",
    ],
)
def test_a_done_word_that_is_not_the_persons_completes_nothing(text: str) -> None:
    assert not plan_of(text).complete_commitment


def test_the_persons_own_done_still_completes() -> None:
    assert plan_of("I finally finished my first full screenplay").complete_commitment
