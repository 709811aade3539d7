"""The offline engine: extractive rules over realistic sessions (no fixtures, no I/O)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import msgspec
import pytest

from services.reflection_writer import engine_offline
from services.reflection_writer.episode import importance, render, tags
from services.reflection_writer.grounding import ground
from services.reflection_writer.model import KnownEntity, Message

from .conftest import GYM_SESSION, chat

TS = datetime(2026, 1, 3, 9, tzinfo=UTC)


def messages(turns: list[tuple[str, str]]) -> list[Message]:
    return [
        Message(f"m{i}", i + 1, role, text, TS + timedelta(minutes=i))
        for i, (role, text) in enumerate(turns)
    ]


GYM = messages(GYM_SESSION)
MARTA = [KnownEntity("e-marta", "Marta", "Person")]

CASES = [
    (
        "evidence: the user's own causal sentence, citing it",
        GYM,
        "reflection.evidence",
        [
            {
                "text": "I skipped the gym again because work ran late, so I'm pretty stressed.",
                "message_id": "m0",
            }
        ],
    ),
    (
        "observation: first-person statements only",
        GYM,
        "reflection.observation",
        [
            "I skipped the gym again because work ran late, so I'm pretty stressed.",
            "My sister Marta is visiting on Saturday and I want the flat to be clean.",
            "I'll clean the kitchen tomorrow.",
            "Remind me to call Marta on Friday.",
            "I always put things off when I'm tired.",
            "Family is really important to me.",
        ],
    ),
    (
        "action: what the assistant said it did",
        GYM,
        "reflection.action",
        [
            "That sounds like a rough week. Do you want to plan a shorter workout?",
            "Got it. Should I add cleaning to your list?",
            "Added both. Anything else on your mind?",
            "That makes sense. Rest matters too.",
        ],
    ),
    (
        "commitments: I'll / remind me",
        GYM,
        "summary.commitments",
        ["I'll clean the kitchen tomorrow.", "Remind me to call Marta on Friday."],
    ),
    ("people: known entities and names inside sentences", GYM, "summary.people", ["Marta"]),
    ("tone: the two strongest lexicon labels", GYM, "summary.tone", "stressed, tired"),
    (
        "psyche: a habit is a trait, 'important to me' a value",
        GYM,
        "psyche",
        [
            {
                "kind": "trait",
                "text": "I always put things off when I'm tired.",
                "message_ids": ["m6"],
                "confidence": 0.4,
            },
            {
                "kind": "value",
                "text": "Family is really important to me.",
                "message_ids": ["m6"],
                "confidence": 0.4,
            },
        ],
    ),
    (
        "'so' as an intensifier is not a link",
        messages(chat("I'm so tired today.", "Rest up.")),
        "reflection.evidence",
        [],
    ),
    (
        "'after' is a stated (temporal) link",
        messages(chat("I slept better after the long walk.", "Great.")),
        "reflection.evidence",
        [{"text": "I slept better after the long walk.", "message_id": "m0"}],
    ),
    (
        "questions, needs and an unanswered last message are unresolved",
        messages(
            chat(
                "I need to renew my passport. Should I go on Monday?",
                "Monday works.",
                "Also, what about the visa?",
            )
        ),
        "reflection.unresolved",
        [
            "I need to renew my passport.",
            "Should I go on Monday?",
            "Unanswered: Also, what about the visa?",
        ],
    ),
    (
        "no user statements → a neutral one-liner",
        messages([("assistant", "Hello!")]),
        "summary.one_liner",
        "A short exchange with no statements from the user.",
    ),
    (
        "a moment of feeling is affect, not psyche",
        messages(chat("I'm furious with my landlord right now.", "That's understandable.")),
        "psyche",
        [],
    ),
    (
        "beliefs",
        messages(chat("I believe people can change.", "Me too.")),
        "psyche",
        [
            {
                "kind": "belief",
                "text": "I believe people can change.",
                "message_ids": ["m0"],
                "confidence": 0.4,
            }
        ],
    ),
    (
        "calendar words and sentence-initial words are not people",
        messages(chat("On Monday Tom and I met Ana at the Christmas market.", "Fun!")),
        "summary.people",
        ["Tom", "Ana"],
    ),
]


@pytest.mark.parametrize(
    ("case", "session", "path", "expected"), CASES, ids=[c[0].split(":")[0] for c in CASES]
)
def test_offline_engine_extracts(
    case: str, session: list[Message], path: str, expected: object
) -> None:
    known = MARTA if session is GYM else []  # production passes the entities it found named
    draft = msgspec.to_builtins(engine_offline.draft(session, known))
    value = draft
    for key in path.split("."):
        value = value[key]
    assert value == expected, case


def test_the_one_liner_quotes_the_weightiest_statement_within_200_characters() -> None:
    summary = engine_offline.draft(GYM, MARTA).summary
    assert summary.one_liner == (
        'The user said: "My sister Marta is visiting on Saturday and I want the flat to be clean."'
    )
    long = messages(chat(" ".join(f"I worked on project{i} today." for i in range(80)), "Ok"))
    assert len(engine_offline.draft(long).summary.one_liner) <= 200
    asked = messages(chat("Hey! How are you?", "Fine.", "What should I cook tonight?", "Pasta."))
    assert engine_offline.draft(asked).summary.one_liner == (
        'The user asked: "What should I cook tonight?"'
    )


ISSUE_28 = messages(
    chat(
        "Hey Dave! It's been ages since we last talked.",
        "Good to hear from you!",
        "We went to Scotland and Porto and I read The Alchemist. My friend Jo came too.",
        "Sounds lovely.",
        "I believe in you, Dave. Why do I always feel tired after trips?",
        "Rest matters.",
        "I lost my job in May, so I started my own bakery. Bye!",
        "Good luck!",
    )
)


def test_issue_28_people_are_people_and_evidence_is_a_stated_link() -> None:
    """The slow brain's defects the issue lists: places, titles and "Bye" as people; a
    greeting's "since" and questions as Evidence; words to the other side as PSYCHE."""
    draft = engine_offline.draft(ISSUE_28)
    assert draft.summary.people == ["Jo"]
    assert [e.text for e in draft.reflection.evidence] == [
        "I lost my job in May, so I started my own bakery."
    ]
    assert draft.psyche == []
    assert draft.summary.one_liner == (
        'The user said: "I lost my job in May, so I started my own bakery." Also mentioned Jo.'
    )


@pytest.mark.parametrize(
    "said",
    ["I believe in you, Dave.", "I believe in us!", "I feel like I can't stop writing!"],
)
def test_psyche_is_only_a_lasting_trait_of_the_person(said: str) -> None:
    assert engine_offline.draft(messages(chat(said, "Ok."))).psyche == []


@pytest.mark.parametrize(
    ("said", "quoted"),
    [
        ("It made me feel accepted.", None),
        (
            "I joined a choir. It made me feel accepted.",
            "I joined a choir. It made me feel accepted.",
        ),
        ("Don't forget to rest, since the wait can be hard.", None),
        ("I'm after Marley flooring for the studio.", None),
        ("Because it's fun!", None),
        ("Because work ran late, I skipped the gym.", "Because work ran late, I skipped the gym."),
        ("So glad you had a rest after the drive.", None),
        (
            "since i started running i sleep so much better",
            "since i started running i sleep so much better",
        ),
        ("its been ages since we last talked lol", None),
        ("I've been vegan since I was 17.", None),
    ],
)
def test_an_evidence_line_has_both_sides_of_its_link(said: str, quoted: str | None) -> None:
    draft = engine_offline.draft(messages(chat(said, "Ok.")))
    assert [e.text for e in draft.reflection.evidence] == ([quoted] if quoted else [])
    assert ground(draft.reflection, messages(chat(said, "Ok."))).dropped_evidence == []


def test_the_offline_draft_is_deterministic_and_always_grounded() -> None:
    first = engine_offline.draft(GYM, MARTA)
    assert msgspec.json.encode(first) == msgspec.json.encode(engine_offline.draft(GYM, MARTA))
    grounded = ground(first.reflection, GYM)
    assert grounded.dropped_evidence == [] and grounded.dropped_observations == []
    assert grounded.reflection.hypothesis is None  # the offline engine never guesses


def test_episode_importance_tags_and_text_follow_the_documented_rules() -> None:
    draft = engine_offline.draft(GYM, MARTA)
    # 0.2 + 2 commitments 0.3 + 1 person 0.1 + 2 emotional words 0.1 + 8/20 length 0.04
    assert importance(draft.summary, GYM) == 0.74
    small_talk = messages(chat("Hi there.", "Hello!"))
    assert importance(engine_offline.draft(small_talk).summary, small_talk) == 0.21
    assert tags(draft.summary, GYM) == ["clean", "gym", "work", "stressed", "tired", "commitment"]
    text = render(draft.reflection)
    assert text.splitlines()[2].startswith('Evidence: "I skipped the gym')


# --- the bot's own readouts are not evidence ----------------------------------------------------

KNOWN = [
    KnownEntity("e-marta", "Marta", "Person"),
    KnownEntity("e-madrid", "Madrid", "Location"),
    KnownEntity("e-lisbon", "Lisbon", "Location"),
]


@pytest.mark.parametrize(
    "readout",
    [
        "Your sister Marta lives in Madrid.",
        "You live in Lisbon.",
        "You work at Acme as a nurse.",
        "Yes, you told me Marta moved to Madrid last year.",
        "I remember that Marta lives in Madrid.",
        "Marta, Madrid.",
    ],
)
def test_an_assistant_message_that_reads_memory_back_adds_no_action_and_no_people(
    readout: str,
) -> None:
    session = messages(chat("Where does my sister live?", readout))
    draft = engine_offline.draft(session, KNOWN)
    assert draft.reflection.action == []
    assert draft.summary.people == [] and "Madrid" not in draft.summary.one_liner
    assert not any("Unanswered" in line for line in draft.reflection.unresolved)
    assert readout not in msgspec.json.encode(draft).decode()


@pytest.mark.parametrize(
    ("reply", "action"),
    [
        (
            "Marta lives in Madrid. Want me to remind you to call her on Sunday?",
            "Want me to remind you to call her on Sunday?",
        ),
        ("You could visit Marta in Madrid in May.", "You could visit Marta in Madrid in May."),
        ("Try a short walk after lunch.", "Try a short walk after lunch."),
    ],
)
def test_what_the_assistant_did_beside_a_readout_stays_an_action(reply: str, action: str) -> None:
    draft = engine_offline.draft(messages(chat("Where does my sister live?", reply)), KNOWN)
    assert draft.reflection.action == [action]


def test_what_the_user_says_is_never_taken_for_a_readout() -> None:
    session = messages(chat("My sister Marta lives in Madrid.", "You live in Lisbon."))
    draft = engine_offline.draft(session, KNOWN)
    assert draft.reflection.observation == ["My sister Marta lives in Madrid."]
    assert draft.summary.people == ["Marta", "Madrid"][: len(draft.summary.people)]
    assert "Marta" in draft.summary.people and "Lisbon" not in draft.summary.one_liner


def test_people_typed_in_lowercase_are_found_after_a_relation_word() -> None:
    said = messages(
        [
            ("user", "omg so i went to scotland with my sister ana last week"),
            ("assistant", "How was it?"),
            ("user", "so good. my friend lives in leeds and my brother just called lol"),
        ]
    )
    draft = engine_offline.draft(said)
    assert draft.summary.people == ["Ana"]
    assert ground(draft.reflection, said).dropped_evidence == []


@pytest.mark.parametrize("bye", ["nah thats it. bye", "thanks!! ttyl", "ok cool, talk soon x"])
def test_a_goodbye_or_thanks_last_is_nothing_left_unanswered(bye: str) -> None:
    session = messages(
        chat("remind me to call the bank on monday", "Sure. Anything else?") + [("user", bye)]
    )
    unresolved = engine_offline.draft(session, []).reflection.unresolved
    assert not any(line.startswith("Unanswered") for line in unresolved), unresolved


def test_a_question_after_a_thanks_is_still_unanswered() -> None:
    session = messages(chat("hi", "Hello!") + [("user", "thanks! wait, what about the visa?")])
    unresolved = engine_offline.draft(session, []).reflection.unresolved
    assert "Unanswered: wait, what about the visa?" in unresolved


def test_a_lowercase_name_in_a_message_with_a_capital_elsewhere_is_found() -> None:
    """ "back from Lisbon!! went with my bf tiago": one capitalised place does not hide the
    lowercase name after "bf"; "my dad took us everywhere" names nobody "Took"."""
    session = messages(
        chat(
            "omg just got back from Lisbon!! 🇵🇹 went with my bf tiago and his mom",
            "Welcome back!",
            "i finally get why i love travelling, its because my dad took us everywhere",
        )
    )
    assert engine_offline.draft(session, []).summary.people == ["Tiago"]
