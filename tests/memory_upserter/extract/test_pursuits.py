"""Plain shapes in LoCoMo's register the rule table missed (issue 28, round 9): pastimes done a
lot or in spare time, taken up by a gerund, named hobbies, a likes said by a pastime's place in
the person's life, an origin said by the move, a baby on the way, a named pet of any kind — and
the look-alikes that must write nothing."""

from __future__ import annotations

import pytest

from services.memory_upserter.extract.extractor import Utterance, extract
from tests.memory_upserter.extract.locomo_said import NOW, facts_of


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I do a lot of baking these days.", ("DOES", "baking")),
        ("I do martial arts.", ("DOES", "martial arts")),
        ("I make jewelry in my spare time.", ("DOES", "make jewelry")),
        ("In my free time I restore old bikes.", ("DOES", "restore old bikes")),
        ("I've gotten really into baking sourdough.", ("DOES", "baking sourdough")),
        ("I've taken up rock climbing.", ("DOES", "rock climbing")),
        ("Photography is my new hobby.", ("DOES", "photography")),
        ("My new hobby is birdwatching.", ("DOES", "birdwatching")),
        ("Cooking is one of my hobbies.", ("DOES", "cooking")),
        ("Hiking is how I recharge.", ("LIKES", "hiking")),
        ("Writing has always been my way of coping.", ("LIKES", "writing")),
        ("Reading is something I've always loved.", ("LIKES", "reading")),
        ("Yoga has been a game changer for me.", ("LIKES", "yoga")),
        ("I find cooking really relaxing.", ("LIKES", "cooking")),
        ("I get so much joy out of gardening.", ("LIKES", "gardening")),
        ("Painting never gets old for me.", ("LIKES", "painting")),
        ("Music means everything to me.", ("LIKES", "music")),
        (
            "My favorite thing is spending time with my family.",
            ("LIKES", "spending time with their family"),
        ),
        ("I moved here from Sweden a few years ago.", ("FROM", "Sweden")),
        ("We immigrated from Vietnam.", ("FROM", "Vietnam")),
        ("My partner and I are expecting our first baby!", ("EXPECTING", "baby")),
        ("I'm going to be a dad!", ("EXPECTING", "baby")),
        ("I've got a pet snake named Noodle.", ("HAS_PET", "Noodle")),
        ("My two cats keep me company.", ("HAS_PET", "cats")),
        (
            "Here's a pic of my garden, I grow tomatoes and herbs.",
            ("DOES", "grow tomatoes and herbs"),
        ),
        ("I spend a lot of time at the beach.", ("DOES", "time at the beach")),
        ("My job at the bank keeps me busy.", ("WORKS_AT", "bank")),
        (
            "I'm putting in a lot of work on my business even with the obstacles.",
            ("WORKS_ON", "their business"),
        ),
        ("I've been putting so much time into my garden.", ("WORKS_ON", "their garden")),
        ("I've been freelancing as a graphic designer.", ("JOB_TITLE", "graphic designer")),
    ],
)
def test_written(text: str, expected: tuple[str, str]) -> None:
    assert expected in facts_of(text)


@pytest.mark.parametrize(
    "text, predicate",
    [
        ("I do a lot of thinking.", "DOES"),
        ("I do my best.", "DOES"),
        ("I do the dishes in my spare time.", "DOES"),
        ("I wish I had more spare time.", "DOES"),
        ("This is how I relax.", "LIKES"),
        ("Mel is something I've always loved.", "LIKES"),
        ("My hobby is what keeps me sane.", "DOES"),
        ("I moved from Boston to Chicago last year.", "FROM"),  # a stop, not an origin
        ("My friend moved here from Spain.", "FROM"),  # the friend's
        ("I'm expecting a call.", "EXPECTING"),
        ("We are expecting guests tonight.", "EXPECTING"),
        ("I'm going to be a mentor for kids.", "EXPECTING"),
        ("Volunteering really fulfills me.", "DOES"),
        ("Your job at the bank sounds fun.", "WORKS_AT"),
        ("I'm putting a lot of time into your project.", "WORKS_ON"),
        ("I'm putting my heart into it.", "WORKS_ON"),
        ("I grow tired of it.", "DOES"),
        ("As I grow older I care less.", "DOES"),
        ("I spend a lot of time thinking about it.", "DOES"),
        ("I also lost my job at Door Dash this month.", "WORKS_AT"),
        ("I was fired from my job at the bank.", "WORKS_AT"),  # a subject, no activity underway
        ("My favorite thing is spending time with my family.", "FAVORITE"),  # cut at "with"
        ("I find it really relaxing.", "LIKES"),
        ("I find your paintings relaxing.", "LIKES"),
        ("Your support means everything to me.", "LIKES"),
        ("Seeing you happy means so much to me.", "LIKES"),
    ],
)
def test_not_written(text: str, predicate: str) -> None:
    assert not {p for p, _ in facts_of(text)} & {predicate}


@pytest.mark.parametrize(
    "text, todo",
    [
        ("We've been doing family movie nights every Friday.", False),  # a habit, not a plan
        ("I'm volunteering at the shelter every Friday.", False),
        ("I'm volunteering at the shelter on Friday.", True),  # this Friday: a plan
    ],
)
def test_a_day_that_comes_back_is_a_habit(text: str, todo: bool) -> None:
    plan = extract([Utterance(text)], now=NOW)
    assert bool(plan.todos) is todo
    assert any(f.predicate == "DOES" for f in plan.facts) is not todo


@pytest.mark.parametrize(
    "text, goal",
    [
        ("I'm hoping to run a marathon next year.", "Run a marathon"),
        ("I'm thinking of opening a second store.", "Consider opening a second store"),
        ("I'm thinking of buying a house.", "Consider buying a house"),
        ("I'm hoping to help you out.", None),  # the listener
        ("I'm hoping to get some rest.", None),  # no goal one pursues
        ("I'm thinking of going to bed.", None),
    ],
)
def test_a_goal_weighed_or_hoped(text: str, goal: str | None) -> None:
    plan = extract([Utterance(text)], now=NOW)
    assert [t.text for t in plan.todos] == ([goal] if goal else [])


@pytest.mark.parametrize(
    "asked, text, expected, wrong",
    [
        ("Where do you live now?", "Still in Boston, near the harbor.",
         ("LIVES_IN", "Boston"), ("LIVES_IN", "Still")),
        ("What inspired you to start your business?", "My love for baking, honestly.",
         ("LIKES", "baking"), ("LIKES", "their business")),
    ],
)  # fmt: skip
def test_an_answer_whole(
    asked: str, text: str, expected: tuple[str, str], wrong: tuple[str, str]
) -> None:
    plan = extract([Utterance(text)], now=NOW, asked=asked)
    said = {(f.predicate, f.object or f.value) for f in plan.facts}
    assert expected in said
    assert wrong not in said


def test_a_group_without_its_relative_clause() -> None:
    plan = extract([Utterance("I'm part of a hiking group that meets every Sunday.")], now=NOW)
    assert [f.value for f in plan.facts if f.predicate == "MEMBER_OF"] == ["a hiking group"]
