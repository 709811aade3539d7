"""Things said in passing in LoCoMo's register (issue 28, round 7): a relative as company ("my
brother and I", "with my cousin", "we went camping with the kids"), pets beyond dogs and cats
("my turtles"), a hobby taken up or got back into, a run as a habit, an instrument of one's own
played, a like by what it does to the person, a work of one's own being finished, a goal one is
excited to pursue — and the look-alikes that must write nothing (another person's, the other
speaker's, the past, a pronoun, an errand, an outing)."""

from __future__ import annotations

import pytest

from services.memory_upserter.extract.extractor import Utterance, extract
from tests.memory_upserter.extract.locomo_said import NOW, facts_of


@pytest.mark.parametrize(
    "text, expected",
    [
        ("My brother and I went fishing on Sunday.", ("HAS_BROTHER", "brother")),
        ("I went hiking with my cousin last week.", ("HAS_COUSIN", "cousin")),
        ("Me and my sister finally finished that puzzle lol.", ("HAS_SISTER", "sister")),
        ("Here's a pic of my turtles, they love the sun.", ("HAS_PET", "turtles")),
        ("I've had my hamster for three years now.", ("HAS_PET", "hamster")),
        ("Our guinea pig knocked over my coffee again lol.", ("HAS_PET", "guinea pig")),
        ("I've taken up surfing this summer, it's so much fun!", ("DOES", "surfing")),
        ("Hey! I got back into skateboarding recently and I'm loving it.",
         ("DOES", "skateboarding")),
        ("I got back into pottery recently.", ("DOES", "pottery")),
        ("I started painting recently and I love it.", ("DOES", "painting")),
        ("I go for a run every morning before work.", ("DOES", "go for a run")),
        ("Gaming is a great way for me to unwind.", ("LIKES", "gaming")),
        ("Cooking relaxes me after a long day.", ("LIKES", "cooking")),
        ("I've been writing a lot, trying to finish my script.", ("WORKS_ON", "script")),
        ("I'm hoping to publish my book by the end of the year.", ("WORKS_ON", "book")),
        ("So I'm carving out some me-time each day - running, reading, or playing my violin.",
         ("DOES", "play the violin")),
        ("I picked up my guitar again last night.", ("DOES", "play the guitar")),
        ("We went camping with the kids a few weeks ago, had a blast exploring the forest.",
         ("HAS_CHILDREN", "kids")),
        ("I'm off to go swimming with the kids.", ("HAS_CHILDREN", "kids")),
        ("The kids and I baked cookies.", ("HAS_CHILDREN", "kids")),
        ("Playing my guitar helps me relax.", ("LIKES", "playing their guitar")),
        ("I try to go hiking whenever I can.", ("DOES", "go hiking")),
        ("I do pottery on the side.", ("DOES", "do pottery")),
        ("I write a lot of poetry in my free time.", ("DOES", "write a lot of poetry")),
        ("Max, my golden retriever, is the best.", ("HAS_PET", "Max")),
        ("Meet Bailey, our new puppy!", ("HAS_PET", "Bailey")),
        ("My pup Luna loves the beach.", ("HAS_PET", "Luna")),
        ("Taking care of my pets keeps me busy.", ("HAS_PET", "pets")),
        ("My hometown is a tiny place in Kansas.", ("FROM", "Kansas")),
        ("I'm from a small town in the Midwest.", ("FROM", "Midwest")),
        ("Nothing makes me happier than a good book.", ("LIKES", "a good book")),
        ("There's nothing like a day at the beach.", ("LIKES", "a day at the beach")),
        ("I can't get enough of Korean food.", ("LIKES", "Korean food")),
        ("I've always been drawn to the ocean.", ("LIKES", "the ocean")),
        ("I'm a single mom.", ("HAS_CHILDREN", "children")),
        ("I'm in sales.", ("WORKS_IN", "sales")),
        ("I'm between jobs right now.", ("JOB_STATUS", "unemployed")),
        ("I'm in a band with some friends.", ("MEMBER_OF", "a band")),
        ("I've been a member of the hiking club for years.", ("MEMBER_OF", "the hiking club")),
        ("I work night shifts at the hospital.", ("WORKS_AT", "hospital")),
        ("I run a small bakery downtown.", ("RUNS", "bakery")),
        ("My new album comes out next month!", ("WORKS_ON", "album")),
    ],
)  # fmt: skip
def test_said_in_passing_is_written(text: str, expected: tuple[str, str]) -> None:
    assert expected in facts_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "My sister's dog is so cute.",
        "Did you go with your cousin?",
        "My brother-in-law and I fished.",
        "Your turtles are so cute!",
        "My neighbor's turtles are so loud.",
        "Do you have a hamster?",
        "I started crying when I saw it.",
        "I got into arguing.",
        "I got into trouble at school.",
        "I took up the offer.",
        "I go for a walk sometimes when I'm stressed.",
        "I used to go for a run every morning.",
        "It's a great way for me to unwind.",
        "Pottery is a great way for you to relax.",
        "It relaxes me.",
        "Your voice calms me.",
        "I'm trying to finish my homework.",
        "I'm hoping to read your book.",
        "I'm trying to finish my mom's book.",
        "Can you play my guitar?",
        "I went on a field trip with the kids at school.",
        "She took the kids to the park.",
        "The kids had a blast.",
        "I do my homework every day.",
        "I think about it in my free time.",
        "I go there whenever I can.",
        "Jake, my buddy, you rock!",
        "Your pup Luna is adorable!",
        "Her hometown is a tiny place in Kansas.",
        "I can't get enough of you!",
        "There's nothing like your cooking.",
        "Nothing makes me happier than seeing you happy.",
        "Are you a mom?",
        "I'm a dad joke kind of guy.",
        "I'm in law school.",
        "I'm in the club right now lol.",
        "I'm in a bad mood.",
        "Your new album comes out soon!",
        "My new phone comes out next week.",
        "I've decided to go to bed.",
    ],
)
def test_look_alikes_write_nothing(text: str) -> None:
    assert not facts_of(text)


def test_a_time_said_after_the_activity_is_not_its_value() -> None:
    values = {v for _, v in facts_of("I got back into skateboarding recently.")}
    assert values == {"skateboarding"}


def todos_of(text: str) -> list[str]:
    return [t.text for t in extract([Utterance(text)], now=NOW).todos]


def test_being_excited_to_do_what_one_pursues_is_a_goal() -> None:
    assert todos_of("I'm also excited to guide and mentor aspiring dancers.") == [
        "Guide and mentor aspiring dancers"
    ]
    assert todos_of("I can't wait to open my own studio.") == ["Open my own studio"]
    assert todos_of("I'm saving up to buy a house.") == ["Buy a house"]
    assert todos_of("I've decided to run for mayor.") == ["Run for mayor"]


@pytest.mark.parametrize(
    "text",
    ["I can't wait to see you!", "I'm so excited to see the show tonight.",
     "I'm excited to go to the beach.", "I can't wait to help you with it!"],
)  # fmt: skip
def test_being_excited_about_an_outing_or_the_other_speaker_is_no_goal(text: str) -> None:
    assert not todos_of(text)


def test_someone_else_playing_the_persons_instrument_is_not_their_habit() -> None:
    assert ("DOES", "play the guitar") not in facts_of("My son was playing my guitar.")


def test_an_aside_after_an_allergy_is_no_allergen() -> None:
    assert facts_of("I'm allergic to cats, sadly.") == {("ALLERGY", "cats")}
    assert facts_of("I'm allergic to cats, unfortunately.") == {("ALLERGY", "cats")}


def test_a_role_said_many_times_is_case_checked_once_per_clause() -> None:
    """ "my dog my dog …" with no sentence end: whether the message is typed without capitals is
    read once per clause, not once per role in it (it was quadratic: 2 s at 20k characters)."""
    from services.memory_upserter.extract.rules import kin

    kin._typed_lower.cache_clear()
    facts_of("my dog " * 400)
    info = kin._typed_lower.cache_info()
    assert info.hits >= 100 and info.misses <= 5


def test_two_pets_named_together_are_both_the_persons() -> None:
    assert {("HAS_PET", "Tim"), ("HAS_PET", "Tom")} <= facts_of(
        "I have two turtles named Tim and Tom."
    )


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I entered a video game tournament last week and won!",
         "entered a video game tournament @ 2023-05-01"),
        ("I competed in a chess tournament last month.",
         "competed in a chess tournament @ 2023-04-08"),
        ("I had my first guitar lesson on Tuesday.", "had their first guitar lesson @ 2023-05-02"),
        ("We went hiking in the mountains last weekend.",
         "went hiking in the mountains @ 2023-05-01"),
    ],
)  # fmt: skip
def test_a_contest_a_first_lesson_an_outing_are_events(text: str, expected: str) -> None:
    assert ("DID", expected) in facts_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "I had a game tonight.",
        "I had a great time.",
        "I entered the room.",
        "I went missing.",
        "I had a quiet weekend after we went camping with my fam two weekends ago.",
    ],
)
def test_no_event_from_a_trifle_or_a_time_phrase_cut_short(text: str) -> None:
    assert not {f for f in facts_of(text) if f[0] == "DID"}
