"""The offline judge on how a message is meant: sarcasm writes no like, a hedge said after the
statement writes nothing, an event in a past no date is said for is not dated today, an event's
object is a whole phrase, and a loved one or a chat with the assistant is no taste."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract import tone
from services.memory_upserter.extract.due import find_due
from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)  # a Wednesday


def facts_of(text: str) -> set[tuple[str, str, str | None]]:
    plan = extract([Utterance(text)], now=NOW)
    return {(f.subject, f.predicate, f.object or f.value) for f in plan.facts}


@pytest.mark.parametrize(
    "text",
    [
        "oh great, i love being stuck in traffic 🙄",
        "yeah i just love doing taxes lol",
        "sure, i love waking up at 5am. not.",
        "i love being ignored lol 🙄",
    ],
)
def test_sarcasm_writes_no_like(text: str) -> None:
    assert not {f for f in facts_of(text) if f[1] in tone.SARCASM_INVERTS}


def test_sarcasm_leaves_the_other_facts_of_the_message() -> None:
    assert ("user", "JOB_TITLE", "nurse") in facts_of("im a nurse, night shifts are killing me 🙄")


def test_a_sincere_like_is_still_written() -> None:
    assert ("user", "LIKES", "hiking") in facts_of("i love hiking")


@pytest.mark.parametrize(
    "text",
    [
        "i live in porto, i think",
        "i'm allergic to nuts i think",
        "i work at google i guess",
        "i have a dog, kinda",
        "i feel like i'm allergic to gluten",
    ],
)
def test_a_hedge_after_or_a_hunch_writes_nothing(text: str) -> None:
    assert facts_of(text) == set()


@pytest.mark.parametrize(
    "text",
    ["i went to paris with my mum last summer", "in uni i played rugby"],
)
def test_an_event_in_an_undated_past_is_never_dated_today(text: str) -> None:
    assert not {f for f in facts_of(text) if f[1] == "DID"}


def test_met_at_university_keeps_the_wife_and_dates_nothing_today() -> None:
    facts = facts_of("i met my wife at university")
    assert ("user", "HAS_SPOUSE", "wife") in facts
    assert not {f for f in facts if f[1] == "DID"}


@pytest.mark.parametrize(
    "text, value",
    [
        ("i bought air tickets to toronto", "bought air tickets to toronto"),
        ("i watched a movie with my kids", "watched a movie with their kids"),
    ],
)
def test_an_events_object_is_a_whole_phrase(text: str, value: str) -> None:
    assert ("user", "DID", value) in facts_of(text)


def test_an_event_is_never_dated_in_the_future() -> None:
    """ "a ticket to berlin for next week": the week is the ticket's, never the event's date."""
    plan = extract([Utterance("i bought a ticket to berlin for next week")], now=NOW)
    assert not [f for f in plan.facts if f.valid_from and f.valid_from > NOW.isoformat()]


@pytest.mark.parametrize("text", ["i love my wife", "i love my cat luna", "i love our talks"])
def test_a_loved_one_or_our_talks_is_no_taste(text: str) -> None:
    assert not {f for f in facts_of(text) if f[1] == "LIKES"}


@pytest.mark.parametrize(
    "text, due",
    [
        ("finish the poster by december 12", "2026-12-12T09:00:00+00:00"),
        ("the 3rd of march", "2026-03-03T09:00:00+00:00"),
        ("by dec 12 at 5pm", "2026-12-12T17:00:00+00:00"),
        ("renew my passport before march", "2026-03-01T09:00:00+00:00"),
        ("meet on jan 2", "2027-01-02T09:00:00+00:00"),  # past this year: next year's
    ],
)
def test_a_day_of_a_month_is_a_due_date(text: str, due: str) -> None:
    found = find_due(text, NOW)
    assert found is not None and found.at.isoformat() == due


@pytest.mark.parametrize("text", ["i may go", "march on", "in may we met"])
def test_a_month_word_alone_is_no_due_date(text: str) -> None:
    assert find_due(text, NOW) is None


@pytest.mark.parametrize(
    "text, todo",
    [
        ("i'm working on a poster, it's due on December 12", "The poster"),
        ("the report is due friday", "The report"),
        ("i have to finish the poster by december 12", "Finish the poster"),
    ],
)
def test_a_thing_due_on_a_day_is_a_todo_with_its_date(text: str, todo: str) -> None:
    plan = extract([Utterance(text)], now=NOW)
    assert [(t.text, t.due is not None) for t in plan.todos] == [(todo, True)]


def test_a_tag_word_is_no_part_of_a_place() -> None:
    assert ("user", "LIVES_IN", "Porto") in facts_of("u know i live in porto right")


def test_an_idiom_of_hating_is_no_dislike() -> None:
    assert facts_of("i hate to say it but you're right") == set()


@pytest.mark.parametrize(
    "text", ["hopefully i'll be living in lisbon by june", "maybe i'll call mom tomorrow"]
)
def test_a_maybe_plan_is_no_todo(text: str) -> None:
    assert extract([Utterance(text)], now=NOW).todos == []


@pytest.mark.parametrize(
    "text", ["i moved to berlin when i was 20", "i learned spanish in high school"]
)
def test_a_state_said_of_a_past_of_their_life_is_not_theirs_now(text: str) -> None:
    assert facts_of(text) == set()


def test_still_in_college_is_now() -> None:
    assert ("user", "AGE", "19") in facts_of("I'm 19, still in college.")


@pytest.mark.parametrize(
    "text",
    [
        "no vivo en madrid",
        "não moro em lisboa",
        "ich wohne nicht in berlin",
        "je ne suis pas végétarien",
    ],
)
def test_a_negation_in_another_language_writes_nothing(text: str) -> None:
    assert facts_of(text) == set()


def test_a_lowercase_im_splits_its_clauses() -> None:
    """ "i'm" is "I'm": the second clause is judged on its own."""
    facts = facts_of("i'm not a teacher anymore, i'm a nurse now")
    assert {("user", "JOB_TITLE", "teacher"), ("user", "JOB_TITLE", "nurse")} <= facts


def test_used_to_is_no_name() -> None:
    assert not {f for f in facts_of("my dad used to work at ford") if f[2] == "Used"}


@pytest.mark.parametrize(
    "text",
    [
        "so like do i live in porto or what lol",
        "ok wait do i have a dog",
        "i live in porto or lisbon, can't decide",
    ],
)
def test_a_question_behind_fillers_or_an_undecided_choice_writes_nothing(text: str) -> None:
    assert facts_of(text) == set()


@pytest.mark.parametrize(
    "text, todo",
    [
        ("i have a dentist appointment tomorrow at 3", "Dentist appointment"),
        ("tomorrow i have a dentist appointment", "Dentist appointment"),
        ("i'm flying to berlin on friday", "Flying to berlin"),
        ("dont let me forget to call mom", "Call mom"),
        ("note to self: call the bank", "Call the bank"),
    ],
)
def test_an_everyday_plan_is_a_todo(text: str, todo: str) -> None:
    assert [t.text for t in extract([Utterance(text)], now=NOW).todos] == [todo]


@pytest.mark.parametrize(
    "text", ["i'm going to be late tomorrow", "i'm going to bed", "i have a test"]
)
def test_a_state_to_come_or_an_undated_event_is_no_todo(text: str) -> None:
    assert extract([Utterance(text)], now=NOW).todos == []


@pytest.mark.parametrize("text", ["my sister finished her degree", "finished my degree last year!"])
def test_someone_elses_finishing_or_a_past_achievement_names_no_todo_done(text: str) -> None:
    plan = extract([Utterance(text)], now=NOW)
    assert plan.done == [] and not plan.complete_commitment


@pytest.mark.parametrize(
    "text, fact",
    [
        ("my name's sam", ("user", "NAME", "Sam")),
        ("call me sam", ("user", "NAME", "Sam")),
        ("hey, it's sam here", ("user", "NAME", "Sam")),
        ("27 years old btw", ("user", "AGE", "27")),
        ("i'm a 30 year old nurse", ("user", "JOB_TITLE", "nurse")),
        ("i'm dating a guy called tom", ("user", "HAS_PARTNER", "Tom")),
        ("i speak portuguese and english", ("user", "SPEAKS", "English")),
    ],
)
def test_self_statements_typed_the_telegram_way(text: str, fact: tuple[str, str, str]) -> None:
    assert fact in facts_of(text)


@pytest.mark.parametrize("text", ["hi sam", "it's raining", "stuck here", "hey bot"])
def test_a_greeting_to_the_assistant_or_the_weather_is_no_name(text: str) -> None:
    assert facts_of(text) == set()


def test_last_saturday_dates_the_event_that_saturday() -> None:
    facts = facts_of("I ran a charity race for mental health last Saturday")
    assert ("user", "DID", "ran a charity race for mental health @ 2026-01-03") in facts


@pytest.mark.parametrize(
    "text, value",
    [
        (
            "We celebrated my daughter's birthday with a concert surrounded by music, joy",
            "celebrated their daughter's birthday",
        ),
        ("I went to a fair to show off my studio, it was great", "went to a fair"),
    ],
)
def test_an_objects_tail_cut_open_is_left_off(text: str, value: str) -> None:
    assert ("user", "DID", value) in facts_of(text)


@pytest.mark.parametrize(
    "text, ended, new",
    [
        ("actually no i don't live in porto, it's lisbon", "Porto", "Lisbon"),
        ("i no longer work at acme, it's globex", "Acme", "Globex"),
    ],
)
def test_a_correction_puts_what_follows_its_in_place_of_what_it_ends(
    text: str, ended: str, new: str
) -> None:
    plan = extract([Utterance(text)], now=NOW)
    said = {(f.object, f.valid_to is not None) for f in plan.facts}
    assert (ended, True) in said and (new, False) in said


def test_its_after_a_plain_negation_is_no_correction() -> None:
    assert facts_of("i don't live in porto, it's too expensive") == set()


@pytest.mark.parametrize("text", ["my cat threw up on my bed lmao", "my dog ate my homework"])
def test_a_verb_after_a_pet_is_no_name(text: str) -> None:
    assert not {f for f in facts_of(text) if f[2] in ("Threw", "Ate")}


@pytest.mark.parametrize(
    "text, name",
    [
        ("my son lucas turns 5 on sunday", "Lucas"),
        ("my sister ana believes in ghosts", "Ana"),
        ("my dog snores all night", None),
    ],
)
def test_a_verb_after_a_name_typed_lowercase_is_no_part_of_it(text: str, name: str | None) -> None:
    named = {f[2] for f in facts_of(text) if f[1].startswith("HAS_")}
    assert named == ({name} if name else {"dog"})


@pytest.mark.parametrize(
    "text, died",
    [
        ("my son lucas passed his exam", False),
        ("my sister passed her driving test", False),
        ("my grandma passed last week", True),
        ("my grandpa passed.", True),
    ],
)
def test_passed_alone_is_a_death_passed_an_exam_is_not(text: str, died: bool) -> None:
    assert any(f[1] == "DECEASED" for f in facts_of(text)) is died


@pytest.mark.parametrize(
    "text, fact",
    [
        ("i live in porto atm", ("user", "LIVES_IN", "Porto")),
        ("i moved to lisbon actually", ("user", "LIVES_IN", "Lisbon")),
        ("i have a dog called rex lowkey", ("user", "HAS_PET", "Rex")),
        ("i work at google sadly", ("user", "WORKS_AT", "Google")),
        ("i live in mexico city", ("user", "LIVES_IN", "Mexico City")),
    ],
)
def test_a_chat_word_or_adverb_after_a_name_or_place_is_no_part_of_it(
    text: str, fact: tuple[str, str, str]
) -> None:
    assert fact in facts_of(text)


@pytest.mark.parametrize(
    "text, fact",
    [
        ("i love hiking tbh", ("user", "LIKES", "hiking")),
        ("im allergic to peanuts lowkey", ("user", "ALLERGY", "peanuts")),
        ("i'm training for a marathon for real", ("user", "TRAINING_FOR", "marathon")),
        ("im working on a novel atm", ("user", "WORKS_ON", "novel")),
        ("i live in porto you know", ("user", "LIVES_IN", "Porto")),
    ],
)
def test_a_value_never_ends_on_a_chat_word(text: str, fact: tuple[str, str, str]) -> None:
    assert fact in facts_of(text)


@pytest.mark.parametrize(
    "text",
    [
        "my partner obvs haha",
        "my partner obvs haha, hes the one who cooks",
        "my bf tbf",
        "my gf btw",
    ],
)
def test_a_chat_word_after_a_relation_word_is_never_the_relatives_name(text: str) -> None:
    """ "my partner obvs haha" names nobody: no Person "Obvs" is the user's partner."""
    assert not any(f[1].startswith("HAS_") for f in facts_of(text)), facts_of(text)


def test_and_stuff_is_no_allergy() -> None:
    assert facts_of("im allergic to peanuts and stuff") == {("user", "ALLERGY", "peanuts")}


@pytest.mark.parametrize(
    "text, fact",
    [
        ("guess what i got engaged", ("user", "ENGAGED", "yes")),
        ("not gonna lie im vegan", ("user", "DIET", "vegan")),
        ("big news: i got a job at google", ("user", "WORKS_AT", "Google")),
    ],
)
def test_an_opener_that_announces_news_is_no_hedge(text: str, fact: tuple[str, str, str]) -> None:
    assert fact in facts_of(text)


@pytest.mark.parametrize(
    "text, fact",
    [
        ("im alergic to cats", ("user", "ALLERGY", "cats")),
        ("i wrok at google", ("user", "WORKS_AT", "Google")),
        ("im vegeterian", ("user", "DIET", "vegetarian")),
        ("my bro tom works at ibm", ("user", "HAS_BROTHER", "Tom")),
    ],
)
def test_common_misspellings_and_shorthands_are_read(text: str, fact: tuple[str, str, str]) -> None:
    assert fact in facts_of(text)


def test_tmrw_is_a_due_date_not_part_of_the_todo() -> None:
    (todo,) = extract([Utterance("remind me to call mom tmrw")], now=NOW).todos
    assert todo.text == "Call mom" and todo.due is not None and todo.due.startswith("2026-01-08")


@pytest.mark.parametrize(
    "text, facts",
    [
        ("hey! im sara, 25, from brazil", {("user", "NAME", "Sara"), ("user", "AGE", "25")}),
        ("hi i'm tom and i'm a nurse", {("user", "NAME", "Tom"), ("user", "JOB_TITLE", "nurse")}),
        ("hi im bored", set()),
        ("i'm tired, 5 hours of sleep", set()),
    ],
)
def test_an_introduction_names_the_person_a_state_does_not(
    text: str, facts: set[tuple[str, str, str]]
) -> None:
    assert facts <= facts_of(text) and (facts or facts_of(text) == set())


def test_another_persons_allergy_is_theirs() -> None:
    facts = facts_of("my sister ana is allergic to peanuts and shellfish")
    assert {("Ana", "ALLERGY", "peanuts"), ("Ana", "ALLERGY", "shellfish")} <= facts
    assert not {f for f in facts if f[0] == "user" and f[1] == "ALLERGY"}


@pytest.mark.parametrize("text", ["i live w/ my gf in porto", "me and my bf live in porto"])
def test_living_with_someone_is_still_living_there(text: str) -> None:
    assert ("user", "LIVES_IN", "Porto") in facts_of(text)


@pytest.mark.parametrize(
    "text, todo",
    [
        ("set a reminder to call mom at 5pm", "Call mom"),
        ("remind me about the dentist on monday", "The dentist"),
        ("can you remind me about the dentist", "The dentist"),
        ("can u remind me 2 call mom tmrw", "Call mom"),
        ("you remind me about my sister", None),
        ("she always reminds me about my mom", None),
    ],
)
def test_a_reminder_asked_for_is_a_todo_a_likeness_is_not(text: str, todo: str | None) -> None:
    assert [t.text for t in extract([Utterance(text)], now=NOW).todos] == ([todo] if todo else [])


@pytest.mark.parametrize(
    "text, fact",
    [
        ("if i'm honest i love jazz", ("user", "LIKES", "jazz")),
        ("if you must know, i'm a nurse", ("user", "JOB_TITLE", "nurse")),
    ],
)
def test_an_if_of_candour_is_no_hypothetical(text: str, fact: tuple[str, str, str]) -> None:
    assert fact in facts_of(text)
    assert facts_of("if i lived in paris i'd eat croissants") == set()


def test_shes_a_nurse_is_the_job_of_the_one_just_named() -> None:
    facts = facts_of("my mom's name is maria and she's a nurse")
    assert ("Maria", "JOB_TITLE", "nurse") in facts
    assert not {f for f in facts if f[0] == "user" and f[1] == "JOB_TITLE"}
