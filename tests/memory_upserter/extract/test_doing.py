"""What the person does and keeps, said in passing (rules/doing.py, rules/keeps.py): activities
that last, habits, a business, pets named in apposition, likes said the long way — and what
is this minute's, a pleasantry, a gerund subject or praise of a picture, which writes nothing.
Also: plans set in the future are todos, errands said done name what was done."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)  # a Wednesday


def plan_of(text: str):
    return extract([Utterance(text)], now=NOW)


def facts_of(text: str) -> set[tuple]:
    return {(f.predicate, f.object or f.value) for f in plan_of(text).facts}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I'm learning the piano, just for fun.", {("DOES", "learning the piano")}),
        ("ive been looking into counseling jobs lately",
         {("DOES", "looking into counseling jobs")}),
        ("Researching adoption agencies — it's been a dream.",
         {("DOES", "researching adoption agencies")}),
        ("Been practicing dance routines lately, it keeps me focused.",
         {("DOES", "practicing dance routines")}),
        ("I mentor a transgender teen.", {("DOES", "mentor a transgender teen")}),
        ("I'm taking a pottery class", {("DOES", "taking a pottery class")}),
        ("Oscar, my guinea pig. He's great.", {("HAS_PET", "Oscar")}),
        ("i got a kitten last week, her name is miso", {("HAS_PET", "Miso")}),
        ("we have a rescue greyhound called dash", {("HAS_PET", "Dash")}),
        ("I've always had a love for horses!", {("LIKES", "horses")}),
        ("I love all dances, but contemporary is my top pick.",
         {("LIKES", "all dances"), ("LIKES", "contemporary")}),
        ("I just launched an ad campaign for my clothing store.", {("RUNS", "clothing store")}),
        ("my twins turn 3 on sunday", {("HAS_CHILDREN", "twins")}),
        ("tengo un perro que se llama toby", {("HAS_PET", "Toby")}),
    ],
)  # fmt: skip
def test_what_the_person_does_and_keeps(text: str, expected: set[tuple]) -> None:
    assert facts_of(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "im taking the bus home",  # this minute's, not a state
        "i'm running late sorry",
        "im looking for my keys",
        "i'm reading your message now",
        "Writing isn't always easy but I love it.",  # a gerund that is its sentence's subject
        "Taking care of ourselves is key.",
        "Volunteering and making a difference- it's so heartwarming.",
        "my shop assistant was rude",  # the shop names something else
        "Everyone we love was there to celebrate us.",  # a relative clause, not a like
        "I also like holding them.",
        "What a picture! I love the dark sky and green scenery.",  # praise of a picture
        "I used to go horseback riding with my dad when I was a kid",  # the past
        "I'm working on a new project - a thriller",  # no generic "new project"
    ],
)
def test_what_is_no_activity_writes_nothing(text: str) -> None:
    assert plan_of(text).facts == []


def test_an_activity_started_is_dated_then_never_today() -> None:
    (fact,) = plan_of("I started playing acoustic guitar about five years ago").facts
    assert (fact.predicate, fact.value) == ("DOES", "playing acoustic guitar")
    assert fact.valid_from is not None and fact.valid_from[:4] == "2021"


def test_a_future_activity_is_a_plan_not_a_fact() -> None:
    plan = plan_of("I'm hosting a dance competition next month")
    assert plan.facts == []
    assert [t.text for t in plan.todos] == ["Hosting a dance competition"]
    assert plan.todos[0].due is not None


def test_a_relation_is_not_dated_by_a_future_time() -> None:
    (fact,) = plan_of("my little brother ben is starting uni in sept").facts
    assert (fact.predicate, fact.valid_from) == ("HAS_BROTHER", None)


@pytest.mark.parametrize(
    "text, done",
    [
        ("picked up the dry cleaning finally", ["picked up the dry cleaning"]),
        ("finally sent the invoice", ["sent the invoice"]),
        ("I called my mom yesterday", []),  # no word says a todo is done: nothing closes
        ("i just started at deloitte - any tips?", []),  # a beginning, not a completion
    ],
)
def test_errands_said_done_name_what_was_done(text: str, done: list[str]) -> None:
    plan = plan_of(text)
    assert plan.done == done
    assert not plan.complete_commitment


def test_a_tick_says_done() -> None:
    assert plan_of("booked the dentist ✅").complete_commitment


def test_a_tag_question_leaves_the_statement() -> None:
    plan = plan_of("I started my own online clothing store not so long ago - pretty cool, huh?")
    assert ("RUNS", "online clothing store") in {(f.predicate, f.value) for f in plan.facts}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("i love hiking, biking and swimming",
         {("LIKES", "hiking"), ("LIKES", "biking"), ("LIKES", "swimming")}),
        ("i adore my garden, spend hours there", {("LIKES", "my garden")}),  # no list: no "and"
        ("my friend jo is vegan", {("HAS_FRIEND", "Jo"), ("DIET", "vegan")}),
        ("we live in a small village outside of utrecht", {("LIVES_IN", "Utrecht")}),
        ("my kids love painting", {("FAMILY_LIKES", "painting"), ("HAS_CHILDREN", "kids")}),
        ("me and my wife enjoy hiking", {("LIKES", "hiking")}),
    ],
)  # fmt: skip
def test_lists_places_and_other_peoples_diets(text: str, expected: set[tuple]) -> None:
    assert facts_of(text) == expected


def test_a_stay_until_a_day_of_the_month_ends_the_day_after() -> None:
    (fact,) = plan_of("im in lisbon until the 20th").facts
    assert (fact.predicate, (fact.valid_to or "")[:10]) == ("STAYING_IN", "2026-01-21")
    (fact,) = plan_of("working from barcelona till end of january").facts
    assert (fact.predicate, (fact.valid_to or "")[:10]) == ("STAYING_IN", "2026-02-01")
