"""Rules read by the shape of the clause (rules/habits, belongs, projects, changes, implied, tastes,
named, dropped): a
present-tense habit with a word of frequency and an open verb, "been …ing" of any activity,
things made oneself, service, seats held, children, likes said by what they do to the person, a
project known by its object, a subject the person dropped — and the look-alikes of each shape
that must write nothing (a feeling, a thought, this minute's doing, words to the other speaker,
a pronoun, the past, an imperative, a manner of speaking)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a LoCoMo session's date


def facts_of(text: str) -> set[tuple]:
    plan = extract([Utterance(text)], now=NOW)
    return {(f.predicate, f.object or f.value) for f in plan.facts}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I'm a big believer in giving back, so I donate blood every few months.",
         {("DOES", "donate blood")}),
        ("I try to meditate every day.", {("DOES", "meditate")}),
        ("I go to church every Sunday with my mom.", {("DOES", "go to church")}),
        ("I hit the gym every morning before work.", {("DOES", "hit the gym")}),
        ("I've been working on my car in the garage a lot.", {("WORKS_ON", "car")}),
        ("Been reading that book you recommended a while ago and painting to keep busy.",
         {("DOES", "reading that book"), ("DOES", "painting")}),
        ("I brew my own beer at home.", {("DOES", "brew their own beer")}),
        ("I play a lot of Street Fighter, it's my favorite game.",
         {("DOES", "play Street Fighter")}),
        ("Yeah, I've been in the military for about 8 years now.", {("SERVES_IN", "military")}),
        ("I serve in the Navy.", {("SERVES_IN", "navy")}),
        ("Being a veteran, I know how hard it can be.", {("MILITARY_STATUS", "veteran")}),
        ("I'm on the school board now.", {("MEMBER_OF", "school board")}),
        ("I'm running for city council this year!", {("RUNNING_FOR", "city council")}),
        ("I've got two kids and a dog, so the house is always noisy.",
         {("HAS_CHILDREN", "two kids")}),
        ("Jazz really speaks to me.", {("LIKES", "jazz")}),
        ("Music has always been a big part of my life.", {("LIKES", "music")}),
        ("Cooking is one of my favorite things to do, especially Italian food.",
         {("LIKES", "cooking")}),
        ("I'm so into photography these days, I take my camera everywhere.",
         {("LIKES", "photography")}),
        ("I write screenplays.", {("DOES", "write screenplays")}),
        ("I compete in gaming tournaments.", {("DOES", "compete in gaming tournaments")}),
        ("I fix old cars in my spare time.", {("DOES", "fix old cars")}),
        ("We usually go to the beach on weekends.", {("DOES", "go to the beach")}),
        ("I'm keen on counseling or working in mental health.",
         {("LIKES", "counseling or working in mental health")}),
        # a change of state, in the past tense (rules/changes)
        ("I became a nurse last year.", {("JOB_TITLE", "nurse")}),
        ("I had a baby girl in March!", {("HAS_CHILDREN", "a baby girl")}),
        ("I graduated from college last May.", {("GRADUATED_FROM", "college")}),
        ("I retired last year after 30 years of teaching.", {("JOB_STATUS", "retired")}),
        ("I enrolled in community college.", {("STUDIES_AT", "community college")}),
        ("I got into Harvard!", {("STUDIES_AT", "Harvard")}),
        ("I opened my own bakery downtown.", {("RUNS", "bakery")}),
        ("I switched careers to nursing.", {("WORKS_IN", "nursing")}),
        ("I've had asthma since I was a kid.", {("CONDITION", "asthma")}),
        ("I've had anxiety for years.", {("CONDITION", "anxiety")}),
        # projects, known by their object (rules/projects)
        ("I'm wrapping up the business plan and looking for investors.",
         {("WORKS_ON", "business plan")}),
        ("Taking your advice, I'm sprucing up my biz plan and tweaking my pitch.",
         {("WORKS_ON", "biz plan")}),
        ("I'm having trouble with my business project. Any advice?",
         {("WORKS_ON", "business project")}),
        ("I'm restoring an old car with my dad.", {("WORKS_ON", "old car")}),
        ("I'm working on a screenplay about my grandma.", {("WORKS_ON", "screenplay")}),
        # who the person is, said before what they say (rules/belongs)
        ("As a teacher, I see a lot of kids struggling.", {("JOB_TITLE", "teacher")}),
        ("As a veteran, I know the struggle.", {("MILITARY_STATUS", "veteran")}),
        ("Video games are my guilty pleasure.", {("LIKES", "video games")}),
        ("I live with my two roommates in Brooklyn.", {("LIVES_IN", "Brooklyn")}),
        # what the person's words take for granted (rules/implied)
        ("Seeing my students succeed motivates me.", {("DOES", "teaches students")}),
        ("I've got lots of kids' books- classics, stories from different cultures.",
         {("OWNS", "kids' books")}),
        ("I have tons of vinyl records.", {("OWNS", "vinyl records")}),
        ("I have a vegetable garden in my backyard.",
         {("OWNS", "vegetable garden in their backyard")}),
        ("I have a YouTube channel about cooking.", {("OWNS", "YouTube channel about cooking")}),
        ("I've got a new camera!", {("OWNS", "new camera")}),
        ("I have a degree in biology.", {("DEGREE", "biology")}),
        # tastes said in other shapes (rules/tastes)
        ("My fave band is Coldplay.", {("FAVORITE", "band: Coldplay")}),
        ("Pizza is my favorite food.", {("FAVORITE", "food: pizza")}),
        ("I'm a big dog person.", {("LIKES", "dogs")}),
        ("I'm addicted to coffee.", {("LIKES", "coffee")}),
        ("I'm a sucker for romantic comedies.", {("LIKES", "romantic comedies")}),
        ("Reading is something I really enjoy.", {("LIKES", "reading")}),
        ("My hobbies include hiking and photography.",
         {("LIKES", "hiking"), ("LIKES", "photography")}),
        ("I spend a lot of time gardening.", {("DOES", "gardening")}),
        ("I listen to a lot of jazz.", {("DOES", "listen to jazz")}),
        # a person named in apposition to their role (rules/named)
        ("Sarah, my best friend, came over last night.", {("HAS_FRIEND", "Sarah")}),
        ("I went to the game with a buddy of mine, Jake.", {("HAS_FRIEND", "Jake")}),
        ("A friend of mine named Tom just got married.", {("HAS_FRIEND", "Tom")}),
        ("My friend from college, Lisa, visited me.", {("HAS_FRIEND", "Lisa")}),
        ("I met up with an old friend, Mark, for coffee.", {("HAS_FRIEND", "Mark")}),
        # older rules, whole now
        ("I've started taking guitar lessons!", {("DOES", "taking guitar lessons")}),
        # a dropped subject is the person (rules/dropped)
        ("Got a new job at a marketing firm, starting next week!",
         {("WORKS_AT", "marketing firm")}),
        ("Just joined a hiking club.", {("MEMBER_OF", "a hiking club")}),
        ("Started my own bakery last year.", {("RUNS", "bakery")}),
        ("Took up knitting a few months ago.", {("DOES", "knitting")}),
    ],
)  # fmt: skip
def test_writes_the_whole_phrase(text: str, expected: set[tuple]) -> None:
    assert expected <= facts_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "I think about it every day.",
        "I see you every week.",
        "I went there every summer as a kid.",
        "I used to swim every morning.",
        "I call my mom every Sunday.",
        "I work every weekend.",
        "I've been feeling down lately.",
        "I've been meaning to call you.",
        "I've been going through a lot.",
        "I've been dealing with a lot of stress.",
        "I've been waiting for this moment.",
        "I've been reading your messages.",
        "Your story really speaks to me.",
        "It really speaks to me.",
        "You have been a big part of my life.",
        "I'm so into you.",
        "We're on the same team here.",
        "I can't imagine life without you.",
        "I'm not running for office.",
        "I'm reading the book you gave me.",
        "I'm watching the show right now.",
        "I'm making my lunch.",
        "I'm loving my new car.",
        "I'm cleaning the house.",
        "I'm having trouble with my car.",
        "I'm helping my sister with her wedding.",
        "Got it, thanks!",
        "Got to go, talk soon!",
        "Got home late last night.",
        "Left my keys at the office again.",
        "Bought a new couch yesterday.",
        "Started to rain on the way home.",
        "Got a lot on my plate right now.",
        "As a parent, you must be proud.",
        "As a result, I stayed home.",
        "You are my weakness.",
        "I've got lots of questions for you.",
        "I have so many memories of that place.",
        "I have a ton of work to do.",
        "Your students are lucky.",
        "I need answers.",
        "I see things differently.",
        "I always forget birthdays.",
        "We make mistakes.",
        "I hear voices sometimes.",
        "I had a baby shower last week.",
        "I became a little worried.",
        "I retired for the night early.",
        "I had a baby in my arms the whole time.",
        "I passed the bar exam!",
        "I have a question for you.",
        "I have a feeling it'll work out.",
        "I have a lot in common with her.",
        "I have a friend's car for the week.",
        "Your cooking is my favorite food.",
        "I'm crazy about you.",
        "I'm a people person.",
        "I'm addicted to it.",
        "You are my fave person.",
        "I spend a lot of time thinking about it.",
        "I've had anxiety about the exam all day.",
        "I've been keeping busy since we last talked!",
        "I've been working on a project lately - it's been pretty cool.",
        "I've been working on something exciting too.",
        "I just set up meetings with movie producers!",
        "Thanks, my friend!",
        "A friend of yours, Tom, called.",
        "Hey, my friend, how are you?",
        "Jake, my buddy, you rock!",
    ],
)
def test_look_alikes_write_nothing(text: str) -> None:
    assert facts_of(text) == set()


def test_no_did_cut_at_a_gerund() -> None:
    """ "I finally finished writing my first novel!": no DID "finished writing"."""
    assert not {f for f in facts_of("I finally finished writing my first novel!") if f[0] == "DID"}


def test_a_friend_named_in_passing_is_not_dated_by_the_visit() -> None:
    plan = extract([Utterance("Sarah, my best friend, came over last night.")], now=NOW)
    friend = [f for f in plan.facts if f.predicate == "HAS_FRIEND"]
    assert friend and friend[0].valid_from is None
