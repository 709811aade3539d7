"""The offline judge on what a question's form or a pronoun hides: a rhetorical "did I tell you
…" tells, a subordinate "when …" asks nothing, a death said with "he"/"she" is the relative it
stands for (and nobody when none was named), and an event told with no day is not dated today."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)  # a Wednesday


def facts_of(*texts: str) -> set[tuple[str, str, str | None]]:
    said = [Utterance(t) for t in texts]
    plan = extract(said[-1:], now=NOW, context=said[:-1])
    return {(f.subject, f.predicate, f.object or f.value) for f in plan.facts}


def todos_of(text: str) -> list[str]:
    return [t.text for t in extract([Utterance(text)], now=NOW).todos]


@pytest.mark.parametrize(
    "text, fact",
    [
        ("omg did i tell u i got engaged?? 💍", ("user", "ENGAGED", "yes")),
        ("did I mention I'm allergic to shellfish", ("user", "ALLERGY", "shellfish")),
        ("have i told you my brother tomas lives in gdansk", ("Tomas", "LIVES_IN", "Gdansk")),
        ("did you know I work at Initech", ("user", "WORKS_AT", "Initech")),
    ],
)
def test_a_rhetorical_did_i_tell_you_carries_its_statement(text: str, fact: tuple) -> None:
    assert fact in facts_of(text)


def test_a_rhetorical_opener_carries_a_plan_too() -> None:
    plan = extract([Utterance("did I mention we're moving to Leeds next month")], now=NOW)
    assert [t.text for t in plan.todos] == ["Moving to Leeds"]
    assert plan.todos[0].due is not None and plan.todos[0].due.startswith("2026-02")


@pytest.mark.parametrize(
    "text", ["did i tell you where i live?", "did I mention what my sister does?", "did i?"]
)
def test_did_i_tell_you_with_a_question_after_it_still_asks(text: str) -> None:
    assert facts_of(text) == set()


@pytest.mark.parametrize(
    "text, todo",
    [
        ("when I get home I'll ring grandpa", "Ring grandpa"),
        ("when we land i'll text the landlord", "Text the landlord"),
    ],
)
def test_a_subordinate_when_is_no_question(text: str, todo: str) -> None:
    assert todos_of(text) == [todo]


def test_when_i_was_a_kid_is_the_past_not_a_question_nor_a_home() -> None:
    assert facts_of("when i was a kid i lived in naples") == set()


@pytest.mark.parametrize("text", ["when do I see the dentist", "when is my flight to Oslo"])
def test_an_interrogative_when_still_asks(text: str) -> None:
    assert facts_of(text) == set() and todos_of(text) == []


def test_when_my_sister_visits_names_no_one_visits() -> None:
    facts = facts_of("when my sister visits we always go hiking")
    assert not [f for f in facts if f[1] == "HAS_SISTER"]


@pytest.mark.parametrize(
    "texts, who, role",
    [
        (("my grandad... he passed away on sunday",), "Grandpa", "HAS_GRANDFATHER"),
        (("my uncle... he died last week",), "Uncle", "HAS_UNCLE"),
        (("lost my aunt, she was 88",), "Aunt", "HAS_AUNT"),
        (("my mum and my uncle Ray, he passed away in october",), "Ray", "HAS_UNCLE"),
        (("my father has been ill for months", "he died last night"), "Dad", "HAS_FATHER"),
    ],
)
def test_a_death_said_with_a_pronoun_is_the_relative_named(
    texts: tuple[str, ...], who: str, role: str
) -> None:
    facts = facts_of(*texts)
    assert (who, "DECEASED", "passed away") in facts
    assert ("user", role, who) in facts
    assert len([f for f in facts if f[1] == "DECEASED"]) == 1


@pytest.mark.parametrize(
    "text", ["my neighbour's dad, he passed away", "he died last year", "my sister... he died"]
)
def test_a_pronoun_with_no_relative_of_its_own_kills_no_one(text: str) -> None:
    assert not [f for f in facts_of(text) if f[1] == "DECEASED"]


def test_a_death_dates_the_death_not_the_relation() -> None:
    plan = extract([Utterance("my grandpa died in march")], now=NOW)
    by = {f.predicate: f for f in plan.facts}
    assert by["DECEASED"].valid_from is not None and by["DECEASED"].valid_from[:7] == "2025-03"
    assert by["HAS_GRANDFATHER"].valid_from is None


@pytest.mark.parametrize(
    "text, value",
    [
        ("I went to Lyon", "went to Lyon"),
        ("we adopted a rescue greyhound", "adopted a rescue greyhound"),
    ],
)
def test_an_event_told_without_a_day_is_not_dated_today(text: str, value: str) -> None:
    plan = extract([Utterance(text)], now=NOW)
    did = [f for f in plan.facts if f.predicate == "DID"]
    assert [f.value for f in did] == [value]
    assert did[0].valid_from is None and "2026-01-07" not in did[0].text


@pytest.mark.parametrize(
    "text, day",
    [("I visited Lyon yesterday", "2026-01-06"), ("i just got back from lyon", "2026-01-07")],
)
def test_an_event_with_its_day_said_keeps_it(text: str, day: str) -> None:
    plan = extract([Utterance(text)], now=NOW)
    did = [f for f in plan.facts if f.predicate == "DID"]
    assert len(did) == 1 and did[0].value is not None and did[0].value.endswith(f"@ {day}")


def test_a_greeting_said_with_a_bang_keeps_the_name_after_it() -> None:
    facts = facts_of("hiya! im joana, i work at initech as a tester")
    assert ("user", "NAME", "Joana") in facts and ("user", "WORKS_AT", "Initech") in facts


@pytest.mark.parametrize(
    "text, fact",
    [
        ("i have a colleague rui costa, he's great", ("user", "HAS_COLLEAGUE", "Rui Costa")),
        ("I've got a cousin, Inês", ("user", "HAS_COUSIN", "Inês")),
        ("i have a brother tomas", ("user", "HAS_BROTHER", "Tomas")),
    ],
)
def test_i_have_a_role_and_a_name_is_that_person(text: str, fact: tuple) -> None:
    facts = facts_of(text)
    assert fact in facts and not [f for f in facts if f[1] == "HAS_SIBLINGS"]


@pytest.mark.parametrize(
    "text, task",
    [
        ("i need to finish the grant poster, it's due on March 3", "Finish the grant poster"),
        ("I have to send the slides which are due friday", "Send the slides"),
        ("i have to hand in the essay, it has to be submitted by friday", "Hand in the essay"),
        ("remind me to get the car done tomorrow", "Get the car done"),
    ],
)
def test_a_due_date_said_after_the_task_leaves_no_its_due_behind(text: str, task: str) -> None:
    plan = extract([Utterance(text)], now=NOW)
    assert [t.text for t in plan.todos] == [task] and plan.todos[0].due is not None


@pytest.mark.parametrize(
    "text, task, day",
    [
        ("my sister's wedding is on the 20th, need to buy a suit", "Buy a suit", "2026-01-20"),
        (
            "the recital is on saturday so I have to practise the piece",
            "Practise the piece",
            "2026-01-10",
        ),
    ],
)
def test_a_need_dated_by_the_day_said_before_it_is_a_plan(text: str, task: str, day: str) -> None:
    (todo,) = extract([Utterance(text)], now=NOW).todos
    assert todo.text == task and todo.due is not None and todo.due.startswith(day)


@pytest.mark.parametrize(
    "text", ["I was wiped out yesterday, need to sleep more", "work is crazy, need to relax"]
)
def test_a_need_with_no_day_to_come_is_no_plan(text: str) -> None:
    assert extract([Utterance(text)], now=NOW).todos == []


@pytest.mark.parametrize(
    "text, fact",
    [
        ("my cousin rita just moved to galway!", ("Rita", "LIVES_IN", "Galway")),
        ("my friend Ali recently relocated to Bristol", ("Ali", "LIVES_IN", "Bristol")),
        ("got a new job at hooli 🎉 start monday", ("user", "WORKS_AT", "Hooli")),
        ("finally got a job at hooli", ("user", "WORKS_AT", "Hooli")),
    ],
)
def test_news_typed_with_just_or_without_i_is_written(text: str, fact: tuple) -> None:
    assert fact in facts_of(text)


@pytest.mark.parametrize(
    "text, task, day",
    [
        ("quit my job!! starting at hooli on the 1st 🙌", "Starting at hooli", "2026-02-01"),
        ("ugh i have a physio appt on thursday at 4", "Physio appointment", "2026-01-08T16"),
    ],
)
def test_plans_typed_the_short_way_are_plans(text: str, task: str, day: str) -> None:
    todos = extract([Utterance(text)], now=NOW).todos
    assert [(t.text, (t.due or "")[: len(day)]) for t in todos] == [(task, day)]


@pytest.mark.parametrize(
    "text, pet",
    [("we rescued a kitten!! her name is pip", "Pip"), ("got a puppy! his name's rolo 🐶", "Rolo")],
)
def test_a_pets_name_said_in_the_next_sentence_is_the_pet(text: str, pet: str) -> None:
    assert ("user", "HAS_PET", pet) in facts_of(text)


def test_a_name_after_someone_elses_news_is_no_pet() -> None:
    assert not [f for f in facts_of("my sister got a job! her name is ana") if f[1] == "HAS_PET"]


@pytest.mark.parametrize(
    "text, day",
    [("my aunt passed away on sunday", "2026-01-04"), ("we moved to york on monday", "2026-01-05")],
)
def test_a_weekday_said_in_the_past_tense_is_the_last_one(text: str, day: str) -> None:
    plan = extract([Utterance(text)], now=NOW)
    assert any((f.valid_from or "").startswith(day) for f in plan.facts), plan.facts


def test_a_weekday_to_come_dates_no_fact() -> None:
    plan = extract([Utterance("I'm flying to Oslo on sunday")], now=NOW)
    assert plan.facts == [] and [t.text for t in plan.todos] == ["Flying to Oslo"]


@pytest.mark.parametrize(
    "text, fact",
    [
        ("ive got 3 kids, any tips for a road trip?", ("user", "HAS_CHILDREN", "3 kids")),
        ("I've got two sisters", ("user", "HAS_SIBLINGS", "two sisters")),
    ],
)
def test_ive_got_reads_as_i_have(text: str, fact: tuple) -> None:
    assert fact in facts_of(text)


@pytest.mark.parametrize(
    "said, fixed, fact, ends",
    [
        (
            "i live in coimbra",
            "not coimbra, braga. typo",
            ("user", "LIVES_IN", "Braga"),
            "LIVES_IN coimbra",
        ),
        (
            "im a nurse",
            "no not a nurse, a midwife",
            ("user", "JOB_TITLE", "midwife"),
            "JOB_TITLE nurse",
        ),
    ],
)
def test_not_this_but_that_restates_what_was_said_with_the_new_value(
    said: str, fixed: str, fact: tuple, ends: str
) -> None:
    plan = extract([Utterance(fixed)], now=NOW, context=[Utterance(said)])
    assert fact in {(f.subject, f.predicate, f.object or f.value) for f in plan.facts}
    assert plan.ends == [ends]


@pytest.mark.parametrize("fixed", ["not now, maybe later", "not bad, thanks", "not today, sorry"])
def test_a_not_that_replaces_no_value_corrects_nothing(fixed: str) -> None:
    plan = extract([Utterance(fixed)], now=NOW, context=[Utterance("i live in coimbra now")])
    assert plan.facts == [] and plan.ends == []


def test_not_there_anymore_ends_the_place_said_before() -> None:
    plan = extract(
        [Utterance("i dont work there anymore")], now=NOW, context=[Utterance("I work at Hooli")]
    )
    (fact,) = plan.facts
    assert (fact.predicate, fact.object, fact.valid_to) == ("WORKS_AT", "Hooli", NOW.isoformat())


def test_not_there_anymore_with_no_place_said_writes_nothing() -> None:
    assert facts_of("i dont live there anymore") == set()


@pytest.mark.parametrize(
    "said, fixed, fact, ends",
    [
        (
            "i live in coimbra",
            "sorry i meant braga",
            ("user", "LIVES_IN", "Braga"),
            "LIVES_IN Coimbra",
        ),
        (
            "I work at Hooli",
            "oops i meant Initech",
            ("user", "WORKS_AT", "Initech"),
            "WORKS_AT Hooli",
        ),
    ],
)
def test_i_meant_a_value_restates_the_last_statement_with_it(
    said: str, fixed: str, fact: tuple, ends: str
) -> None:
    plan = extract([Utterance(fixed)], now=NOW, context=[Utterance(said)])
    assert fact in {(f.subject, f.predicate, f.object or f.value) for f in plan.facts}
    assert plan.ends == [ends]


@pytest.mark.parametrize("fixed", ["sorry i meant to say hi", "oops, i meant that", "sorry"])
def test_i_meant_no_value_corrects_nothing(fixed: str) -> None:
    plan = extract([Utterance(fixed)], now=NOW, context=[Utterance("i live in coimbra")])
    assert plan.facts == [] and plan.ends == []


def test_not_this_but_ends_only_what_held_the_old_value() -> None:
    said = [Utterance("hey! im rita, i live in coimbra btw")]
    plan = extract([Utterance("not coimbra, braga")], now=NOW, context=said)
    assert plan.ends == ["LIVES_IN coimbra"]
