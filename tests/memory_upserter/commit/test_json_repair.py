"""A small model's almost-JSON answer is read, not sent to the person as its reply (issue 27,
found by the blind v4 set: a trailing comma, an answer cut at the token limit)."""

from __future__ import annotations

import json

from services.memory_upserter.commit.json_repair import mend
from services.memory_upserter.commit.lenient import read_answer


def test_a_comma_before_a_closing_bracket_is_removed_but_not_inside_a_string() -> None:
    raw = (
        '{"reply": "Noted!", "plan": {"facts": '
        '[{"text": "User has a cat, Tofu]", "value": "Tofu",},],},}'
    )
    read = read_answer(raw)
    assert read.reply == "Noted!"
    assert read.plan == {"facts": [{"text": "User has a cat, Tofu]", "value": "Tofu"}]}
    assert [n.code for n in read.notes] == ["plan_repaired"]


def test_a_cut_off_answer_keeps_its_whole_parts_and_drops_the_unfinished_one() -> None:
    raw = (
        '```json\n{"reply": "So sorry 💐", "plan": {"dropped": ["book the dentist"], "facts": '
        '[{"memory_type": "PEOPLE", "text": "User\'s uncle \\"Rui\\" moved to Faro"}, '
        '{"memory_type": "PROFILE", "text": "User is in Faro", "valid_to": "03/'
    )
    read = read_answer(raw)
    assert read.reply == "So sorry 💐"
    assert read.plan == {
        "dropped": ["book the dentist"],
        "facts": [{"memory_type": "PEOPLE", "text": 'User\'s uncle "Rui" moved to Faro'}],
    }


def test_a_fact_cut_inside_a_nested_list_is_dropped_whole() -> None:
    text, how = mend('{"reply": "ok", "plan": {"forget": ["x"], "facts": [{"aliases": ["a", "b')
    assert json.loads(text) == {"reply": "ok", "plan": {"forget": ["x"]}}
    assert how.startswith("cut off")


def test_what_cannot_be_mended_stays_the_reply() -> None:
    assert mend("just words, no json") is None
    assert mend('{"reply": "cut in the repl') is None
    assert mend('{"reply": "fine"}') is None  # nothing to mend
    read = read_answer('{"reply": "cut in the repl')
    assert read.plan is None and [n.code for n in read.notes] == ["answer_not_json"]
