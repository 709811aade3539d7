"""The gate's rule table (003 §6.2), row by row: what fires, what must not, and overrides."""

from __future__ import annotations

import pytest

from contracts.slots import Scratch
from services.rag_gate.gate import RULES, decide, normalize, retrieval_query

FIRES = [
    # continuity
    ("remember what I told you about Marta?", "continuity"),
    ("like last time", "continuity"),
    ("I skipped the gym again", "continuity"),
    ("you said I should rest", "continuity"),
    ("we talked about this", "continuity"),
    ("yesterday was rough", "continuity"),
    ("any update on the flat?", "continuity"),
    # plan / progress
    ("what's my plan for the week", "plan_progress"),
    ("show me my progress", "plan_progress"),
    ("how am I doing?", "plan_progress"),
    ("I want a new goal", "plan_progress"),
    ("my streak is 12 days", "plan_progress"),
    ("am I on track", "plan_progress"),
    # counseling reflection
    ("why do I always do this", "reflection"),
    ("I keep snacking at night", "reflection"),
    ("is there a pattern here", "reflection"),
    ("I feel stuck", "reflection"),
    ("I've been procrastinating all day", "reflection"),
    # logging
    ("I ate a huge burrito", "logging"),
    ("had eggs and toast for breakfast", "logging"),
    ("had pasta for lunch", "logging"),
    ("ran 5k in 28 minutes", "logging"),
    ("I ran this morning", "logging"),
    ("slept 6 hours", "logging"),
    ("12000 steps today", "logging"),
    # questions about the person and their people
    ("Where do I live?", "about_user"),
    ("Where does my sister live?", "about_user"),
    ("what's my job again", "about_user"),
    ("What is my name?", "about_user"),
    ("who is my boss", "about_user"),
    ("Who’s my dentist?", "about_user"),
    ("when's my sister's birthday", "about_user"),
    ("what do I do for a living?", "about_user"),
    ("who am I?", "about_user"),
    ("how old am I", "about_user"),
    ("am I allergic to anything?", "about_user"),
    ("do you know where I work?", "about_user"),
    ("do you remember my wife's name", "about_user"),
    ("What do you know about me?", "about_user"),
    ("tell me about myself", "about_user"),
    # questions about the past
    ("when did I start running?", "past_question"),
    ("what did the doctor say", "past_question"),
    ("did I book the physio?", "past_question"),
    ("have I ever been to Porto", "past_question"),
]

SILENT = [
    "ok",
    "thanks!",
    "hi",
    "Good morning!",
    "How are you?",
    "how's it going",
    "What's up?",
    "who are you?",
    "What can you do?",
    "where are you from?",
    "what time is it",
    "I live in Lisbon",  # a statement, not a question: the judge writes it
    "tell me a joke",
    "What's the weather like in Lisbon?",
    "against all odds",  # not "again"
    "the planet is warming",  # not "plan"
    "that explanation helps",  # not "plan"
    "I'll update you later",  # not "ate" (nor "update on")
    "a grand old ranch",  # not "ran"
    "the goalkeeper saved it",  # not "goal"
    "feeler gauge",  # not "feel"
    "",
]


@pytest.mark.parametrize(("message", "rule"), FIRES)
def test_each_rule_fires_on_its_words(message: str, rule: str) -> None:
    gate = decide(message)
    assert gate.open and rule in gate.reasons and not gate.forced
    assert gate.matched[rule]


@pytest.mark.parametrize("message", SILENT)
def test_small_talk_and_words_inside_other_words_keep_the_gate_closed(message: str) -> None:
    gate = decide(message)
    assert gate == decide(message) and not gate.open and gate.reasons == []


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("REMÉMBER what yoú said?", "continuity"),
        ("Whý do I keep doing this", "reflection"),
        ("what’s wrong with me", "reflection"),  # curly apostrophe
        ("I   ÁTE   a crêpe", "logging"),
        ("Did  I  call  Márta?", "past_question"),
    ],
)
def test_rules_ignore_case_accents_curly_quotes_and_spacing(message: str, rule: str) -> None:
    assert rule in decide(message).reasons


def test_entity_ids_alone_open_the_gate_as_an_entity_mention() -> None:
    gate = decide("and her?", entity_ids=["e-1"])
    assert gate.open and gate.reasons == ["entity_mention"]


def test_a_reflective_session_mode_opens_the_gate_and_other_modes_do_not() -> None:
    assert decide("hmm", scratch=Scratch(mode="Reflective")).reasons == ["session_mode"]
    assert not decide("hmm", scratch=Scratch(mode="small-talk")).open


def test_reasons_follow_the_rule_table_order_and_list_every_rule_that_fired() -> None:
    gate = decide("why do I feel worse than last time? did I eat too late?", entity_ids=["e-1"])
    assert gate.reasons == ["continuity", "entity_mention", "reflection", "past_question"]


def test_force_closed_wins_over_the_rules_and_still_reports_them() -> None:
    gate = decide("remember last time?", force="closed")
    assert (gate.open, gate.forced, gate.reasons) == (False, True, ["continuity"])


def test_force_open_opens_a_gate_no_rule_opened() -> None:
    gate = decide("ok", force="open")
    assert (gate.open, gate.forced, gate.reasons) == (True, True, [])


def test_every_rule_in_the_table_has_a_row_that_fires_it() -> None:
    assert {rule.name for rule in RULES} <= {rule for _, rule in FIRES}


def test_normalize_folds_case_accents_quotes_and_spaces() -> None:
    assert normalize("  Márta’s   CRÈME ") == "marta's creme"


def test_a_short_message_borrows_the_session_topic_and_a_long_one_does_not() -> None:
    focus = Scratch(topic_focus="family")
    assert retrieval_query("and her?", focus) == "and her? (family)"
    long = "she told me the new job at the hospital is exhausting her"
    assert retrieval_query(long, focus) == long
    assert retrieval_query("how is my family?", focus) == "how is my family?"
    assert retrieval_query("  and   her? ") == "and her?"
