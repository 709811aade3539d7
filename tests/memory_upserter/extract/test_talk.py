"""A life told in long, chatty turns (rules/talk, work, family, study, health, lately, fondness,
pastimes, plans): several people named after a plural role, a job got or held, where the person
grew up, school, health, an activity as its sentence's subject, one kept up lately, likes said
the long way, goals and dated plans — and the look-alikes that must write nothing (a
pleasantry, a hardship, this day's doing, a pronoun, a vague object, words said to the
assistant, someone else's thing or words, advice, the past)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a LoCoMo session's date


def plan_of(text: str):
    return extract([Utterance(text)], now=NOW)


def facts_of(text: str) -> set[tuple]:
    return {(f.predicate, f.object or f.value) for f in plan_of(text).facts}


def todos_of(text: str) -> set[tuple]:
    return {(t.kind, t.text) for t in plan_of(text).todos}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("My kids, Sara and Ben, love the beach.", {("HAS_CHILD", "Sara"), ("HAS_CHILD", "Ben")}),
        ("My dogs Pepper and Precious love the park.",
         {("HAS_PET", "Pepper"), ("HAS_PET", "Precious")}),
        ("I have two dogs, Max and Bella.",
         {("HAS_PET", "dog"), ("HAS_PET", "Max"), ("HAS_PET", "Bella")}),
        ("I got a temp job to help cover expenses while I look for investors.",
         {("JOB_STATUS", "temp job")}),
        ("Hey! I just got a new job as a nurse at the city hospital.",
         {("JOB_TITLE", "nurse"), ("WORKS_AT", "city hospital")}),
        ("I've been working at the hospital for three years now.", {("WORKS_AT", "hospital")}),
        ("I grew up in a small town in Ohio, so city life is new to me.", {("FROM", "Ohio")}),
        ("I've been a teacher for 15 years.", {("JOB_TITLE", "teacher")}),
        ("Searching for a dance studio location has been tricky, but I'm determined.",
         {("DOES", "searching for a dance studio location")}),
        ("Started to learn all these marketing and analytics tools to push the biz forward today.",
         {("DOES", "learn all these marketing and analytics tools")}),
        ("Yeah, I've been going to the gym a lot lately, trying to get in shape.",
         {("DOES", "going to the gym")}),
        ("I've been trying out new recipes, cooking is so relaxing.",
         {("DOES", "trying out new recipes")}),
        ("I've been really into gardening lately, my tomatoes are growing like crazy.",
         {("LIKES", "gardening")}),
        ("I've loved painting ever since I was a kid.", {("LIKES", "painting")}),
        ("I've always been passionate about veterans and their rights.",
         {("LIKES", "veterans and their rights")}),
        ("Dancing has been my stress-buster since childhood!", {("LIKES", "dancing")}),
        ("Seven years now, and I've finally found my real muses: painting and pottery.",
         {("LIKES", "painting"), ("LIKES", "pottery")}),
        ("I hurt my knee last week, so no running for a while.", {("INJURY", "hurt knee")}),
        ("My doctor told me I have high blood pressure, so I've been cutting back on salt.",
         {("CONDITION", "high blood pressure"), ("DOES", "cutting back on salt")}),
        ("I lost my dad, Robert, in 2019.",
         {("HAS_FATHER", "Robert"), ("DECEASED", "passed away")}),
        ("I've been married for ten years.", {("MARITAL_STATUS", "married")}),
        ("I've been friends with Sarah since college.", {("HAS_FRIEND", "Sarah")}),
        ("I live in a small apartment in Brooklyn.", {("LIVES_IN", "Brooklyn")}),
        ("I work in marketing at a small agency.", {("WORKS_IN", "marketing")}),
        ("My pup, Max, loves the beach.", {("HAS_PET", "Max")}),
        ("Our daughter Emma just started kindergarten.", {("HAS_DAUGHTER", "Emma")}),
        ("I've been at Google for 5 years.", {("WORKS_AT", "Google")}),
        ("I've been struggling with anxiety lately.", {("CONDITION", "anxiety")}),
        ("My asthma has been acting up with all this pollen.", {("CONDITION", "asthma")}),
        ("I'm on a keto diet.", {("DIET", "keto")}),
        ("I've been eating plant-based for a while.", {("DIET", "plant-based")}),
        ("I've been a vegetarian since I was 12.", {("DIET", "vegetarian")}),
        ("Store's going good, just been keeping up with fashion trends so I can offer the best.",
         {("DOES", "keeping up with fashion trends")}),
    ],
)  # fmt: skip
def test_a_lasting_thing_said_on_the_way(text: str, expected: set[tuple]) -> None:
    assert facts_of(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "My friends, Mom and Dad, were all there.",  # role words, not names
        "I got a job done today, finally!",  # no job held
        "I've been thinking about you a lot.",  # a thought, not an activity
        "I've been going through a lot lately.",  # a hardship
        "I've been working in the garden all day.",  # this day's
        "Lately I've been exploring options.",  # nothing one can name
        "I've loved every minute of it!",  # a pleasantry
        "I've loved our chats, Mel.",
        "It's been my stress-buster since childhood!",  # a pronoun: the thing is elsewhere
        "Work is my life right now.",  # a complaint, not a like
        "Writing isn't always easy.",  # a gerund subject that says no activity
        "The doctor said I was fine.",
        "I hurt my feelings lol.",
        "I lost my keys again lol.",  # no relative
        "I've been at the beach for 2 hours.",  # no workplace
        "My anxiety about the exam is killing me.",  # a feeling, not a condition
        "My dog, Yes, is weird.",  # no name
        "I lost my mind at the concert!",
        "I used to go horseback riding with my dad when I was a kid.",  # the past
        "Did you grow up in a small town in Ohio?",  # a question
    ],
)
def test_look_alikes_write_nothing(text: str) -> None:
    assert plan_of(text).facts == []


def test_a_count_other_than_one_is_plural_in_the_text() -> None:
    """ "I have two dogs" says "two dogs", never the fragment "two dog"."""
    texts = {f.text for f in plan_of("I have two dogs and a cat.").facts}
    assert "User has two dogs" in texts


def test_a_move_says_no_origin() -> None:
    """ "I moved from Lisbon to Porto": where the person lived, not where they are from."""
    facts = plan_of("Actually I moved from Lisbon to Porto.").facts
    assert {(f.predicate, f.object) for f in facts} == {("LIVES_IN", "Porto")}


def test_a_job_held_for_years_is_dated_then() -> None:
    (fact,) = plan_of("I've been working as a software engineer for about five years now.").facts
    assert (fact.predicate, fact.value) == ("JOB_TITLE", "software engineer")
    assert fact.valid_from is not None and fact.valid_from.startswith("2018")


def test_a_death_dates_the_death_not_the_relation() -> None:
    """ "I lost my mom last year": she was always their mother; last year is when she died."""
    facts = {f.predicate: f for f in plan_of("I lost my mom last year, it still hurts.").facts}
    assert facts["HAS_MOTHER"].valid_from is None
    assert str(facts["DECEASED"].valid_from).startswith("2022-05")
    (father, died) = plan_of("Yeah, my dad passed away two days ago, it's so hard.").facts
    assert father.valid_from is None and str(died.valid_from).startswith("2023-05-06")


def test_moving_in_together_names_no_place() -> None:
    assert {f.predicate for f in plan_of("My girlfriend and I just moved in together.").facts} == {
        "DATING"
    }


def test_an_injury_is_dated_when_it_happened() -> None:
    (fact,) = plan_of("I hurt my knee last week, so no running for a while.").facts
    assert fact.valid_from is not None and fact.valid_from.startswith("2023-05-01")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Now, I'm aiming to turn my dancing passion into a business.",
         {("GOAL", "Turn my dancing passion into a business")}),
        ("My dream is to open my own bakery someday.", {("GOAL", "Open my own bakery someday")}),
        ("This is a big move towards my goal of having a family.", {("GOAL", "Having a family")}),
        ("I'm hoping to finish my novel by the end of the year.",
         {("GOAL", "Finish my novel")}),  # due the year's last day (wt8/audit)
        ("I'm trying to lose weight, so I started eating healthier.", {("GOAL", "Lose weight")}),
        ("I'm studying to become a teacher.", {("GOAL", "Become a teacher")}),
        ("I want to become a published author one day.", {("GOAL", "Become a published author")}),
        ("I'm considering a career in counseling.", {("GOAL", "Consider a career in counseling")}),
        ("I'm thinking about going back to school for nursing.",
         {("GOAL", "Consider going back to school for nursing")}),
        ("I'm ready to be a mom and share my love and family.", {("GOAL", "Become a mom")}),
    ],
)  # fmt: skip
def test_goals_are_todos(text: str, expected: set[tuple]) -> None:
    assert todos_of(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I'm hoping to see you soon!",  # a pleasantry
        "I'm working hard to make everything just right.",  # nothing one can name
        "I'm determined to make it work.",
        "My dream is to be there for them.",
        "My dream is to sleep for a week lol",  # a joke, no act one pursues
        "I want to be a good mom.",  # a wish about oneself, no career
        "I'm thinking about you.",
        "I'm considering it.",
        "I'm ready to go!",
    ],
)
def test_no_goal_from_a_pleasantry(text: str) -> None:
    assert todos_of(text) == set()


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I recently started pottery and I'm hooked!", {("DOES", "pottery")}),
        ("I joined a local book club last month, it's been so fun.",
         {("MEMBER_OF", "a local book club")}),
        ("I take salsa classes every Tuesday.", {("DOES", "take salsa classes")}),
        ("My family and I go camping every summer, it's our tradition.",
         {("DOES", "go camping")}),
        ("I usually go hiking on weekends.", {("DOES", "go hiking")}),
        ("We have a tradition of baking cookies every Christmas.",
         {("DOES", "tradition: baking cookies")}),
        ("I'm learning to play the violin.", {("DOES", "learning to play the violin")}),
        ("I'm writing a screenplay about my childhood.",
         {("WORKS_ON", "screenplay about their childhood")}),
        ("I'm a volunteer at the animal shelter.", {("DOES", "volunteer at the animal shelter")}),
        ("I've been doing yoga to relax and it's been amazing.", {("DOES", "doing yoga")}),
        ("Painting helps me destress after a long day at work.", {("LIKES", "painting")}),
        ("Yeah, dancing has kept me going during stressful times.", {("LIKES", "dancing")}),
        ("Reading is my favorite way to unwind.", {("LIKES", "reading")}),
        ("Thanks, Caroline! Painting's a fun way to express my feelings and get creative.",
         {("LIKES", "painting")}),
        ("Cooking's been a great way to relax.", {("LIKES", "cooking")}),
        ("Pottery has been so calming.", {("LIKES", "pottery")}),
        ("I just think about my love for dance and how it makes me feel.", {("LIKES", "dance")}),
        ("My passion for cooking keeps me sane.", {("LIKES", "cooking")}),
        ("Seeing this pic made me appreciate my love of reading even more.",
         {("LIKES", "reading")}),
        ("I have a big collection of vinyl records.", {("DOES", "collect vinyl records")}),
        ("Running is so therapeutic for me.", {("LIKES", "running")}),
        ("My favorite thing to do is go to the beach with my family.",
         {("LIKES", "going to the beach with their family")}),
        ("I'm really passionate about environmental issues.",
         {("LIKES", "environmental issues")}),
        ("Tilly helps me stay focused and brings me so much joy.", {("LIKES", "Tilly")}),
        ("I just joined a new LGBTQ activist group last Tues.",
         {("MEMBER_OF", "a new LGBTQ activist group")}),
    ],
)  # fmt: skip
def test_pastimes_groups_and_likes_said_in_passing(text: str, expected: set[tuple]) -> None:
    assert facts_of(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I go shopping tomorrow.",  # a plan, not a habit
        "I joined the call late.",  # no group
        "I'm writing an email to my boss.",  # no work of one's own
        "I've been doing ok.",  # a pleasantry
        "It helps me relax.",  # a pronoun: the thing is elsewhere
        "That's a great way to put it.",
        "Moving is so stressful.",
        "Jazz is so relaxing.",  # a passing remark, not a pastime of the person's
        "Pottery is so calming.",  # maybe the other speaker's pastime
        "Oh man! Pottery's a great way to relax, so it must have been tough taking a break.",
        "Trying new stuff is a great way to push yourself and mix things up.",  # advice
        "Talking to you helps me relax.",  # said to the assistant
        "Chatting with you is my favorite way to unwind.",
        "I'm passionate about what I do.",
        "Just yesterday I joined the call late.",
        "My love for you is endless.",
        "Thanks for your love for my art!",
        "I'm passionate about creating a safe, inviting place for people to grow.",  # cut
    ],
)
def test_pastime_look_alikes_write_no_such_fact(text: str) -> None:
    kinds = {f.predicate for f in plan_of(text).facts}
    assert not kinds & {"DOES", "MEMBER_OF", "WORKS_ON", "LIKES"}


def test_an_event_to_come_is_never_dated_ahead() -> None:
    """ "I signed up for a pottery class next week": no DID dated next week."""
    assert plan_of("I signed up for a pottery class next week.").facts == []


def test_living_a_dream_is_no_wish() -> None:
    """ "I'm living my dream by having my own dance studio": the studio is theirs now; "my
    dream is to have my own bakery" stays a goal."""
    assert facts_of("I'm living my dream by having my own dance studio and teaching others.") == {
        ("RUNS", "dance studio")
    }
    assert facts_of("My dream is to have my own bakery.") == set()


def test_a_like_reads_in_the_third_person_and_whole() -> None:
    """The fact's text speaks of the user ("their own studio"); the value keeps the person's
    words; a second verb whose object was a pronoun is cut, not left dangling."""
    (like, *_) = plan_of("I love running my own studio.").facts
    assert (like.text, like.value) == (
        "User likes running their own studio",
        "running my own studio",
    )
    said = "I love helping the community and making it a better place."
    assert facts_of(said) == {("LIKES", "helping the community")}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I'm really interested in photography and want to learn more.",
         {("LIKES", "photography")}),
        ("I'm getting into birdwatching lately.", {("LIKES", "birdwatching")}),
        ("I'm a big reader, mostly fantasy.", {("LIKES", "reading")}),
        ("I'm an avid hiker.", {("LIKES", "hiking")}),
        ("I'm a huge animal lover.", {("LIKES", "animals")}),
        ("Max is my 3 year old golden retriever.", {("HAS_PET", "Max")}),
        ("I started working at the hospital last year.", {("WORKS_AT", "hospital")}),
        ("I just started a new job at a tech company.", {("WORKS_AT", "tech company")}),
        ("I've been teaching for 10 years.", {("DOES", "teaching")}),
        ("I'm a professional basketball player.",
         {("JOB_TITLE", "professional basketball player")}),
        ("I'm a content creator on YouTube.", {("JOB_TITLE", "content creator")}),
        ("I'm a real estate agent.", {("JOB_TITLE", "real estate agent")}),
        ("I'm a single dad of two boys.", {("HAS_CHILDREN", "two boys")}),
        ("I'm a mom of three.", {("HAS_CHILDREN", "three kids")}),
    ],
)  # fmt: skip
def test_interests_keen_doers_jobs_and_children(text: str, expected: set[tuple]) -> None:
    assert facts_of(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I'm interested in hearing more about your trip!",  # about the other speaker
        "I'm a big fan of yours.",
        "Maria is my best friend's dog.",  # another person's pet
        "Luna is my cat's name.",
        "I started working on my essay.",  # no job
    ],
)
def test_interest_look_alikes_write_nothing(text: str) -> None:
    assert plan_of(text).facts == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("We lost my grandpa last winter.",
         {("HAS_GRANDFATHER", "Grandpa"), ("DECEASED", "passed away")}),
        ("My 5-year-old loves dinosaurs.", {("HAS_CHILDREN", "a 5-year-old")}),
        ("My 3-year-old son just started preschool.", {("HAS_SON", "son")}),
        ("I have two brothers and a sister.", {("HAS_SIBLINGS", "two brothers and a sister")}),
        ("My buddy Jake and I went fishing.", {("HAS_FRIEND", "Jake"), ("DID", "went fishing")}),
        ("Yeah, I've been volunteering at the shelter since my divorce, it keeps me going",
         {("DOES", "volunteering at the shelter"), ("MARITAL_STATUS", "divorced")}),
        ("I have a son named Leo and a daughter named Mia.",
         {("HAS_SON", "Leo"), ("HAS_DAUGHTER", "Mia")}),
        ("We have a cat named Whiskers and a dog named Rex.",
         {("HAS_PET", "Whiskers"), ("HAS_PET", "Rex")}),
        ("My childhood friend Tom just got married.", {("HAS_FRIEND", "Tom")}),
    ],
)  # fmt: skip
def test_family_and_friends_in_passing(text: str, expected: set[tuple]) -> None:
    assert facts_of(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "My 3-year-old laptop died.",  # a thing, not a child
        "No, I don't have a sister",  # a negation
        "We lost our way.",
        "My parents' divorce was hard on me.",  # theirs
    ],
)
def test_family_look_alikes_write_no_relation(text: str) -> None:
    facts = plan_of(text).facts
    assert not [
        f for f in facts if f.fact_type == "relationship" or f.predicate == "MARITAL_STATUS"
    ]


@pytest.mark.parametrize(
    "text, task, due",
    [
        ("I'm getting married next month!", "Getting married", "2023-06-01"),
        ("I'm flying to Paris next Friday.", "Flying to Paris", "2023-05-12"),
        ("Next week I'm visiting my parents in Ohio.", "Visiting my parents in Ohio", "2023-05-15"),
        ("I have a big presentation on Thursday.", "Big presentation", "2023-05-11"),
        ("I'm moving to New York in June to start my new job.", "Moving to New York",
         "2023-06-01"),
        ("Next week I have a community meeting coming up, we'll be discussing education.",
         "Community meeting", "2023-05-15"),
        ("I've got a gaming tournament next month and I'm feeling good about it.",
         "Gaming tournament", "2023-06-01"),
    ],
)  # fmt: skip
def test_a_plan_with_a_date_to_come_is_a_dated_todo(text: str, task: str, due: str) -> None:
    todos = {(t.text, (t.due or "")[:10]) for t in plan_of(text).todos}
    assert (task, due) in todos


@pytest.mark.parametrize(
    "text",
    [
        "I'm visiting my parents.",  # now, or no date
        "I'm having a tough week.",
        "I had a presentation on Thursday.",  # the past
        "I'm seeing a therapist now.",
    ],
)
def test_no_plan_without_a_date_to_come(text: str) -> None:
    assert plan_of(text).todos == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ('I\'m currently reading "The Lean Startup" and hoping it\'ll give me tips for my biz.',
         {("DOES", "reading The Lean Startup")}),
        ('I loved "Becoming Nicole" by Amy Ellis Nutt. It\'s a real inspiring true story.',
         {("LIKES", "Becoming Nicole by Amy Ellis Nutt")}),
        ('My favorite book is "The Alchemist", I\'ve read it three times.',
         {("FAVORITE", "book: The Alchemist")}),
        ("I'm watching 'Breaking Bad' again.", {("DOES", "watching Breaking Bad")}),
    ],
)  # fmt: skip
def test_a_title_in_quotes_is_kept_whole(text: str, expected: set[tuple]) -> None:
    """A quoted title is a work, not someone's words: kept, without its quotes."""
    assert facts_of(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        'She said "I Love You" and left.',  # words said, not a title
        'He told me "you should quit" lol',
        "I loved it!",
        "I'm watching TV.",
        "I loved Sarah's cake.",
    ],
)
def test_quoted_words_and_pronouns_write_no_work(text: str) -> None:
    assert plan_of(text).facts == []


def test_thinking_about_is_no_report() -> None:
    """ "I think about my love for dance" is the person's; "I think I'm allergic to cats" is a
    hedge, and "She thinks I live in Paris" someone else's claim."""
    assert facts_of("I think about my love for dance every day.") == {("LIKES", "dance")}
    assert facts_of("I think I'm allergic to cats.") == set()
    assert facts_of("She thinks I live in Paris.") == set()


@pytest.mark.parametrize(
    "text, expected",
    [
        ("I'm getting my master's in education.", {("STUDIES", "education")}),
        ("I'm in my final year of college.", {("STUDENT", "final year, college")}),
        ("I'm a sophomore in college.", {("STUDENT", "sophomore, college")}),
        ("I graduated with a degree in nursing last year.", {("DEGREE", "nursing")}),
        ("I had knee surgery last month and I'm still recovering.",
         {("HEALTH_EVENT", "knee surgery")}),
        ("I had a heart attack two years ago.", {("HEALTH_EVENT", "heart attack")}),
        ("I got the job! I start Monday at the bakery.", {("JOB_STATUS", "employed")}),
    ],
)  # fmt: skip
def test_school_health_events_and_a_job_got(text: str, expected: set[tuple]) -> None:
    assert facts_of(text) == expected


def test_studying_names_the_field_and_the_school() -> None:
    facts = facts_of("I'm studying psychology at NYU.")
    assert {("STUDIES", "psychology"), ("STUDIES_AT", "NYU")} <= facts


@pytest.mark.parametrize(
    "text",
    [
        "I'm studying for my exams.",
        "I got the job done.",
        "i'm studying at the library rn",  # where, not what
        "i'm studying with friends tonight",
    ],
)
def test_school_and_job_look_alikes_write_nothing(text: str) -> None:
    assert plan_of(text).facts == []


@pytest.mark.parametrize(
    "text, todos",
    [
        ("i'm going to the gym tomorrow", {"Going to the gym"}),
        ("I'm going to Paris next week!", {"Going to Paris"}),
        ("I'm going to call my mom tomorrow.", {"Call my mom"}),
    ],
)
def test_going_to_a_place_is_one_todo(text: str, todos: set[str]) -> None:
    """A place after "going to" is the arrangement's ("Going to the gym"), a verb the will-rule's
    ("Call my mom"): one todo each, never "The gym" or "Paris" alone."""
    assert {t.text for t in plan_of(text).todos} == todos
