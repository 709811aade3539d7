"""A short answer read with the question just asked (issue 28, round 8): what the person's
answer says about them once the other side's question is known — Telegram-style and in
LoCoMo's register — and the look-alikes that must write nothing (a no, a maybe, a question
back, the asker's things, someone else, an invitation, a mood, a one-off). The answer alone
(no question) writes nothing: that is what the question adds."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract import answered
from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2026, 1, 7, 15, 0, tzinfo=UTC)


def facts_of(answer: str, asked: str | None) -> set[tuple[str, str | None]]:
    plan = extract([Utterance(answer)], now=NOW, asked=asked)
    return {(f.predicate, f.object or f.value) for f in plan.facts}


@pytest.mark.parametrize(
    "asked, answer, expected",
    [
        ("Wow, that looks awesome! How long have you been making pottery?",
         "Since I was 15 or so. It's so calming.", ("DOES", "making pottery")),
        ("how long have you been painting?", "like 10 years now", ("DOES", "painting")),
        ("Lovely pic! How long have you been married?",
         "7 years already! Time flies", ("MARITAL_STATUS", "married")),
        ("do you have any pets?", "yeah a golden retriever", ("HAS_PET", "golden retriever")),
        ("Do you have pets?", "Yes! A cat named Pumpkin 🎃", ("HAS_PET", "Pumpkin")),
        ("Cute! Do you have a dog yourself?", "Yeah, a husky called Nova. Total diva",
         ("HAS_PET", "Nova")),
        ("where do u live?", "porto", ("LIVES_IN", "Porto")),
        ("Where are you living now?", "Madrid, since last spring", ("LIVES_IN", "Madrid")),
        ("Wow! Where did you grow up?", "Mostly in Texas. We moved around a lot though.",
         ("FROM", "Texas")),
        ("where are you from?", "brazil 🇧🇷", ("FROM", "Brazil")),
        ("How long have you lived in Denver?", "About 3 years now", ("LIVES_IN", "Denver")),
        ("So what do you do for work?", "Paramedic, night shifts mostly",
         ("JOB_TITLE", "paramedic")),
        ("where do you work?", "at zalando", ("WORKS_AT", "Zalando")),
        ("What field are you in?", "marketing", ("WORKS_IN", "marketing")),
        ("Are you a teacher?", "Yes, third grade", ("JOB_TITLE", "teacher")),
        ("Do you enjoy cooking?", "Yes, a lot", ("LIKES", "cooking")),
        ("Do you like drawing landscapes?",
         "Thanks, Mel! Glad you like it. Yeah, I love to. It calms me down",
         ("LIKES", "drawing landscapes")),
        ("do you like ramen?", "love it!!", ("LIKES", "ramen")),
        ("What's your favorite food?", "Pizza, no contest", ("FAVORITE", "food: Pizza")),
        ("What kind of music do you like?", "mostly jazz and some hip hop",
         ("LIKES", "jazz and some hip hop")),
        ("Do you play any instruments?", "Yeah, guitar and a bit of piano",
         ("DOES", "play guitar and a bit of piano")),
        ("Do you do yoga?", "Yep, twice a week", ("DOES", "do yoga")),
        ("what's your name?", "rita", ("NAME", "Rita")),
        ("whats your name btw?", "im kenji", ("NAME", "Kenji")),
        ("Hey! What should I call you?", "Jo works", ("NAME", "Jo")),
        ("What's your sister's name?", "Ana", ("HAS_SISTER", "Ana")),
        ("So cute! What are your cats' names?", "Pixel and Byte! Trouble, both of them",
         ("HAS_PET", "Pixel")),
        ("how old are you?", "32", ("AGE", "32")),
        ("How many kids do you have?", "Three!", ("HAS_CHILDREN", "3 kids")),
        ("are you vegetarian?", "yep, since 2019", ("DIET", "vegetarian")),
        ("any allergies?", "peanuts, really bad", ("ALLERGY", "peanuts")),
        ("What are you writing these days?", "a screenplay, finally", ("WORKS_ON", "screenplay")),
    ],
)  # fmt: skip
def test_a_short_answer_says_what_the_question_asked(
    asked: str, answer: str, expected: tuple[str, str]
) -> None:
    assert expected in facts_of(answer, asked)
    assert expected not in facts_of(answer, None)  # the question is what makes it a fact


@pytest.mark.parametrize(
    "asked, answer",
    [
        ("do you have pets?", "no, my landlord doesnt allow them"),
        ("do you have any pets?", "not anymore, our dog died last year"),
        ("does your sister have pets?", "yeah a hamster"),  # someone else's
        ("Do you like my new haircut?", "Yes!! Suits you"),  # the asker's
        ("do you like my song?", "yes it's great"),
        ("where do you work?", "why do you ask lol"),
        ("where does your mom live?", "porto"),
        ("Where should we go for dinner?", "Nandos"),  # a plan, not a home
        ("where would you live if you could live anywhere?", "japan for sure"),
        ("Would you ever work at a startup?", "Maybe one day"),
        ("Are you a doctor?", "haha no"),
        ("do you have kids?", "not yet haha"),
        ("do you want kids someday?", "yes definitely"),
        ("are you married?", "no, single"),
        ("Is your brother married?", "yes, to a lovely woman"),
        ("do you like jazz?", "not really"),
        ("Did you enjoy the concert?", "Yes! It was amazing"),  # a one-off
        ("Have you ever tried surfing?", "Once, years ago"),
        ("do you still play football?", "no, not since my knee injury"),
        ("How long has your son been swimming?", "Since he was 5"),
        ("Do you want to go hiking this weekend?", "Yes!!"),  # an invitation
        ("what's my name?", "you tell me lol"),
        ("How old is your daughter?", "She's 6"),
        ("are you allergic to anything?", "not that i know of"),
        ("how are you?", "good thanks, you?"),
        ("Are you alright?", "yeah just tired"),  # a mood
        ("Are you nervous about the exam?", "so nervous!!"),
        ("did you have a good weekend?", "yes it was great"),
        ("Do you remember Tom?", "yes of course"),
        ("Want me to remind you tomorrow?", "yes please"),
        ("What do you think of the new design?", "I love it"),
        ("Should I book the table?", "yes"),
        ("Is that your car?", "no, my dad's"),
        ("How long have you been waiting?", "20 minutes"),
        ("Have you been to Peru?", "no but I'd love to go"),
        ("What type of music do you play?", "Guitar's mostly my thing."),  # a clause, not a value
        ("Any advice on staying motivated?", "Yeah, just keep going!"),
        ("How's it going?", "Great, busy with work"),
    ],
)  # fmt: skip
def test_an_answer_that_is_not_about_the_person_writes_nothing_more(
    asked: str, answer: str
) -> None:
    assert answered.restated(asked, answer) is None
    assert facts_of(answer, asked) == facts_of(answer, None)


@pytest.mark.parametrize(
    "asked, answer, expected",
    [
        ("What got you into climbing?", "My cousin dragged me along once and I was hooked.",
         ("LIKES", "climbing")),
        ("How did you get into knitting?", "My grandma taught me, it's so relaxing",
         ("LIKES", "knitting")),
        ("What do you love most about baking with your kids?", "Seeing them make a mess lol",
         ("LIKES", "baking with my kids")),
    ],
)  # fmt: skip
def test_a_question_that_presumes_what_the_person_does_is_confirmed_by_an_answer(
    asked: str, answer: str, expected: tuple[str, str]
) -> None:
    """ "What got you into climbing?": any answer that does not deny it says they climb."""
    assert expected in facts_of(answer, asked)


@pytest.mark.parametrize(
    "asked, answer",
    [
        ("What got you into climbing?", "I'm not really into it, my bf is"),
        ("What do you love most about the trip?", "The food!"),  # a one-off
        ("What got you into this mess?", "Honestly no idea"),
        ("What made you try my recipe?", "It looked so good"),  # the asker's
        ("What got your sister into climbing?", "Her friends"),
    ],
)  # fmt: skip
def test_a_presumption_denied_or_not_about_the_person_writes_nothing(
    asked: str, answer: str
) -> None:
    assert answered.restated(asked, answer) is None


def test_the_question_answered_is_the_last_one_asked() -> None:
    asked = "Where do you live? Oh wait, and how old are you?"
    assert answered.restated(asked, "32") == "i'm 32 years old."  # typed as the person typed
    assert answered.restated(asked, "lisbon") is None


def test_a_full_answer_is_read_as_it_stands() -> None:
    """ "im a nurse" is a statement of its own: nothing is restated, the rules read it."""
    assert answered.restated("what do you do for work?", "im a nurse") is None
    assert ("JOB_TITLE", "nurse") in facts_of("im a nurse", "what do you do for work?")


def test_an_answer_typed_without_capitals_is_read_as_typed() -> None:
    assert answered.restated("any pets?", "two cats, milo and luna") == (
        "i have two cats, milo and luna."
    )
    assert {("HAS_PET", "Milo"), ("HAS_PET", "Luna")} <= facts_of(
        "two cats, milo and luna", "any pets?"
    )


def test_only_the_persons_own_message_is_read_with_the_question() -> None:
    """In an import, another speaker's message is theirs: the question is not read into it."""
    plan = extract([Utterance("lisbon", "Marta")], now=NOW, asked="where do you live?")
    assert plan.facts == []


@pytest.mark.parametrize(
    "asked, answer, expected",
    [
        ("Aw, your rabbits are adorable! What are their names?", "Clover and Pip!",
         {("HAS_PET", "Clover"), ("HAS_PET", "Pip")}),
        ("Your son looks so happy! What's his name?", "Theo, he just turned 4",
         {("HAS_SON", "Theo")}),
    ],
)  # fmt: skip
def test_whose_names_are_asked_is_what_the_askers_turn_names(
    asked: str, answer: str, expected: set[tuple[str, str]]
) -> None:
    assert expected <= facts_of(answer, asked)


@pytest.mark.parametrize(
    "asked, answer",
    [
        ("My dog is so cute! What's his name?", "Rex"),  # the asker's own
        ("I met your sister and her friend! What's her name?", "Ana"),  # which one?
        ("What are their names?", "Luna and Oliver"),  # nobody named
    ],
)  # fmt: skip
def test_a_name_question_whose_owner_is_unclear_writes_nothing(asked: str, answer: str) -> None:
    assert answered.restated(asked, answer) is None
