"""The offline judge's values are whole phrases of the person's own (issue 28, round 10): a
list's connective, a degree or a comparison the value ends on is cut; a value that is a clause
of its own, a pronoun, a lone intensifier or words about the listener is no value; a word with
an object after it is a verb, not a name; and "jk" takes back what was just said."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract import phrase, tone
from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)


def facts_of(text: str) -> set[tuple]:
    plan = extract([Utterance(text)], now=NOW)
    return {(f.subject, f.predicate, (f.object or f.value or "").lower()) for f in plan.facts}


@pytest.mark.parametrize(
    "value, kept",
    [
        ("also latex", "latex"),
        ("sushi that much", "sushi"),
        ("pizza more than anything", "pizza"),
        ("my dog more than my husband", "my dog"),
        ("road trips with my friends and family", "road trips with my friends and family"),
        ("an app that is for dog walkers", "an app that is for dog walkers"),
        ("dogs are fine", ""),
        ("chatting with you", ""),
        ("your memory", ""),
        ("myself", ""),
        ("huge", ""),
    ],
)
def test_whole_value(value: str, kept: str) -> None:
    assert phrase.whole(value) == kept


@pytest.mark.parametrize(
    "text, wanted, unwanted",
    [
        (
            "im allergic to peanuts and shellfish, also latex",
            ("user", "ALLERGY", "latex"),
            ("user", "ALLERGY", "also latex"),
        ),
        ("im allergic to cats, dogs are fine", ("user", "ALLERGY", "cats"), None),
        ("i love pizza more than anything", ("user", "LIKES", "pizza"), None),
    ],
)
def test_values_cut_to_the_phrase(text: str, wanted: tuple, unwanted: tuple | None) -> None:
    facts = facts_of(text)
    assert wanted in facts
    assert unwanted not in facts
    assert all(f[2] != "dogs are fine" for f in facts)


@pytest.mark.parametrize(
    "text",
    [
        "i like chatting with you",
        "i'm a huge nerd",
        "i love how my cat ignores me",
        "i'm a nurse jk",
        "i love my job lol jk i hate it",
    ],
)
def test_no_value_of_theirs(text: str) -> None:
    assert not {f for f in facts_of(text) if f[1] in ("LIKES", "HAS_PET", "JOB_TITLE")}


def test_jk_takes_back_the_sentence_before() -> None:
    facts = facts_of("i'm a doctor. jk im a student")
    assert ("user", "JOB_TITLE", "student") in facts
    assert ("user", "JOB_TITLE", "doctor") not in facts
    assert tone.retracted("i live in paris") is None
    assert tone.retracted("jk i live in lyon") == ("i live in lyon", True)


def test_a_name_is_still_a_name() -> None:
    assert ("user", "HAS_PET", "milo") in facts_of("my cat milo is sick again")
    assert ("user", "HAS_PET", "rex") in facts_of("my dog rex loves the beach")


def test_whose_like_it_is() -> None:
    facts = facts_of("my husband loves football, i dont get it")
    assert ("Husband", "LIKES", "football") in facts
    assert not {f for f in facts if f[0] == "user" and "LIKES" in f[1]}


def test_a_clause_after_before_or_because_has_its_own_time() -> None:
    plan = extract([Utterance("i was a teacher for 10 years before i became a writer")], now=NOW)
    assert all(f.valid_to is None for f in plan.facts)
    assert ("user", "LEARNING", "japanese") in facts_of(
        "i'm learning japanese because i want to move to tokyo"
    )


@pytest.mark.parametrize(
    "text",
    ["yeah i'm totally a fitness person lol", "im living on a boat in amsterdam lol"],
)
def test_not_a_taste_nor_a_project(text: str) -> None:
    assert not {f for f in facts_of(text) if f[1] in ("LIKES", "WORKS_ON")}


def test_an_aside_in_brackets_is_no_part_of_the_value() -> None:
    assert ("user", "LIVES_IN", "berlin") in facts_of("i live in berlin (for now)")
    assert ("user", "JOB_TITLE", "nurse") in facts_of("i'm a nurse (night shifts ugh)")


def test_the_workday_over_closes_no_todo() -> None:
    from services.memory_upserter.text import says_done

    assert not says_done("all done with work for today")
    assert says_done("done with the passport thing")


def test_a_pasted_exchange_keeps_only_the_persons_turns() -> None:
    from services.memory_upserter.extract import casual

    assert casual.own_turns("him: i live in paris. me: cool") == "cool"
    assert casual.own_turns("my kids: emma and leo") == "my kids: emma and leo"
    assert not facts_of("him: i live in paris. me: cool")
    assert ("user", "LIVES_IN", "porto") in facts_of("me: i live in porto")


def test_a_text_arrow_ends_the_value() -> None:
    assert ("user", "LIVES_IN", "berlin") in facts_of("moved to berlin -> loving it")
    assert ("user", "HAS_PET", "mochi") in facts_of("i have a cat named mochi<3")


def test_an_event_does_not_date_the_relation() -> None:
    plan = extract([Utterance("my daughter lost her first tooth today")], now=NOW)
    assert [f.valid_from for f in plan.facts if f.predicate == "HAS_DAUGHTER"] == [None]
    born = extract([Utterance("my son was born in 2019")], now=NOW)
    assert [f.valid_from[:4] for f in born.facts if f.predicate == "HAS_SON"] == ["2019"]
