"""Rules read by the shape of the clause (rules/habits, belongs): a present-tense habit with a
word of frequency and an open verb, "been …ing" of any activity, things made oneself, service,
seats held, children, likes said by what they do to the person — and the look-alikes of each
shape that must write nothing (a feeling, a thought, words to the other speaker, a pronoun, the
past, a manner of speaking)."""

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
        ("I've been working on my car in the garage a lot.",
         {("DOES", "working on their car in the garage")}),
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
    ],
)
def test_look_alikes_write_nothing(text: str) -> None:
    assert facts_of(text) == set()
