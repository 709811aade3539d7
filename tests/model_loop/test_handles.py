"""A recorded answer's handles, translated to the rows the replay's prompt shows; its plan facts
read as the commit reads them."""

from __future__ import annotations

import json

from bench.model_loop.handles import graph_handles, recorded, translate
from bench.model_loop.replay import plan_facts


def _prompt(*lines: dict) -> list[dict]:
    body = "\n".join(json.dumps(line) for line in lines)
    system = f'[FOUNDATION MEMORIES]\n<data source="GRAPH">\n{body}\n</data>\n[ANSWER FORMAT]'
    return [{"role": "system", "content": system}, {"role": "user", "content": '{"id": 1}'}]


RECORDING = _prompt(
    {"id": "F5d257d", "fact": "User works at Hospital São João"},
    {"entity": "Medly", "category": "Org", "ref": "org:medly"},
    {"id": "T07be2c", "todo": "Call the landlord", "due": "2026-05-05"},
)
REPLAY = _prompt(
    {"id": "Fa11a11", "fact": "User  works at hospital São João"},
    {"id": "T0ddba1", "todo": "Call the landlord"},
)


def test_the_prompt_s_fact_and_todo_lines_give_their_handles() -> None:
    assert graph_handles(RECORDING) == {
        "F5d257d": "User works at Hospital São João",
        "T07be2c": "Call the landlord",
    }


def test_a_recording_keeps_the_text_of_each_handle_its_answer_names() -> None:
    raw = '{"plan": {"facts": [{"replaces": "f5d257d"}], "done": ["T07be2c", "Tffffff"]}}'
    assert recorded(raw, graph_handles(RECORDING)) == {
        "f5d257d": "User works at Hospital São João",
        "T07be2c": "Call the landlord",
    }


def test_the_replay_names_the_row_of_the_same_text_by_its_new_handle() -> None:
    raw = '{"plan": {"facts": [{"replaces": "f5d257d"}], "done": ["T07be2c"], "ends": ["F5D257D"]}}'
    then = recorded(raw, graph_handles(RECORDING))
    assert translate(raw, then, graph_handles(REPLAY)) == (
        '{"plan": {"facts": [{"replaces": "Fa11a11"}], "done": ["T0ddba1"], "ends": ["Fa11a11"]}}'
    )


def test_a_handle_whose_row_the_replay_does_not_show_stays_as_recorded() -> None:
    raw = '{"plan": {"ends": ["F5d257d"], "done": ["Tbeef00"]}}'
    then = {"F5d257d": "User lives in Porto", "Tbeef00": "Call the landlord"}
    assert translate(raw, then, graph_handles(REPLAY)) == (
        '{"plan": {"ends": ["F5d257d"], "done": ["T0ddba1"]}}'
    )


def test_the_replay_counts_the_facts_of_an_answer_read_as_the_commit_reads_it() -> None:
    """Prose around the JSON or a fence (a sloppy model's habits) still yields its plan facts,
    so their labels are scored; an answer with no plan yields none."""
    plan = '{"reply": "hi", "plan": {"facts": [{"text": "User is vegan"}]}}'
    for raw in (plan, f"Sure! Here is the JSON:\n{plan}\nLet me know!", f"```json\n{plan}\n```"):
        assert plan_facts(raw) == [{"text": "User is vegan"}]
    assert plan_facts('{"reply": "hi"}') is None
