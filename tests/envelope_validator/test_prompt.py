"""What the model reads (issue 27, point 7): GRAPH lines of one shape, each fact and todo with a
handle the plan can name; every old turn once; nothing unverified labelled authoritative."""

from __future__ import annotations

import json
import uuid
from typing import Any

from contracts.plan import LLMAnswer
from services.core.handles import matches, parse_handle
from services.envelope_validator.answer_format import response_format, strict_schema
from services.envelope_validator.logic import build
from services.envelope_validator.render import ANSWER_FORMAT

from .samples import NOW, fact, full_body, request

FACT_KEYS = ["id", "fact", "since", "critical", "scope"]
TODO_KEYS = ["id", "todo", "due", "overdue"]


def _uid(name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, name))


def _with_row_ids(body: dict[str, Any]) -> dict[str, Any]:
    """The sample body with stored rows' ids as the database writes them (uuids)."""
    graph = body["GRAPH"]
    for name in ("foundation", "relevant_facts"):
        for f in graph[name]:
            f["fact_id"] = f["provenance"]["row_id"] = _uid(f["fact_id"])
    for e in graph["edges"]:
        e["rel_id"] = e["provenance"]["row_id"] = _uid(e["rel_id"])
    for card in graph["entity_cards"]:
        card["fact_ids"] = [_uid(f"{card['entity_ref']}/{n}") for n in range(len(card["facts"]))]
    for name in ("commitments", "threads", "frictions", "wins"):
        for t in graph[name]:
            t["todo_id"] = _uid(t["todo_id"])
    return body


def _blocks(system: str) -> list[tuple[str, list[Any]]]:
    """Each ``<data>`` block's opening line and its lines, decoded."""
    out: list[tuple[str, list[Any]]] = []
    for line in system.splitlines():
        if line.startswith("<data "):
            out.append((line, []))
        elif line == "</data>":
            continue
        elif out and line.startswith(('"', "{")):
            out[-1][1].append(json.loads(line))
    return out


def _graph_lines(system: str, authority: str = "authoritative") -> list[Any]:
    return [
        item
        for opening, items in _blocks(system)
        if f'authority="{authority}"' in opening
        for item in items
    ]


def _system(body: dict[str, Any]) -> str:
    return build(request(body), NOW).messages[0].content


def test_graph_fact_and_todo_lines_have_one_shape_whatever_their_source() -> None:
    body = _with_row_ids(full_body(memory_budget_words=None))
    me = {"entity_id": "e9", "name": "me", "category": "Person", "scope": "global"}
    body["GRAPH"]["entities"].append({**me, "entity_ref": "self:user"})
    lines = _graph_lines(_system(body))
    facts = [line for line in lines if "fact" in line]
    todos = [line for line in lines if "todo" in line]
    others = [line for line in lines if "fact" not in line and "todo" not in line]
    assert all(isinstance(line, dict) for line in lines)
    assert {tuple(line)[:2] for line in facts} == {("id", "fact")}
    assert all(list(line) == [k for k in FACT_KEYS if k in line] for line in facts)
    assert all(list(line) == [k for k in TODO_KEYS if k in line] for line in todos)
    assert all("entity" in line for line in others)  # the entities, and nothing else
    assert len(others) == 8  # not the person's own entity: the plan names them "user"
    texts = {line["fact"] for line in facts}
    assert {"Foundation fact number 0 about the user.", "Marta lives in Porto"} <= texts
    assert {"Relevant fact number 7.", "Person 3 KNOWS Person 4"} <= texts
    assert len(todos) == 6 and not [line for line in lines if isinstance(line, str)]


def test_every_fact_and_todo_handle_resolves_to_its_own_row() -> None:
    body = _with_row_ids(full_body(memory_budget_words=None))
    graph = body["GRAPH"]
    facts = [f["fact_id"] for name in ("foundation", "relevant_facts") for f in graph[name]]
    facts += [e["rel_id"] for e in graph["edges"]]
    facts += [i for card in graph["entity_cards"] for i in card["fact_ids"]]
    lists = ("commitments", "threads", "frictions", "wins")
    todos = [t["todo_id"] for name in lists for t in graph[name]]
    lines = _graph_lines(_system(body))
    shown = [(line["id"], "fact" if "fact" in line else "todo") for line in lines if "id" in line]
    assert len(shown) == len(facts) + len(todos)
    for text, kind in shown:
        handle = parse_handle(text)
        assert handle is not None and handle.kind == kind and text[0] == kind[0].upper()
        rows = facts if kind == "fact" else todos
        assert [row for row in rows if matches(handle, row)] != []
        assert len([row for row in rows if matches(handle, row)]) == 1


def test_an_old_turn_appears_once_across_history_recalled_turns_and_the_tail() -> None:
    body = full_body(memory_budget_words=None)
    said = {
        "m1": ("user", "I adopted a beagle called Pixel"),
        "m2": ("assistant", "Congratulations on Pixel!"),
        "m3": ("user", "We walked by the river this morning"),
        "m4": ("user", "Pixel chewed my shoes"),
    }

    def turn(mid: str) -> dict[str, Any]:
        role, text = said[mid]
        return {"role": role, "text": text, "message_id": mid, "ts": "2026-01-02T10:00:00Z"}

    body["recent_turns"] = [turn("m1"), turn("m2")]
    body["EPISODE"]["turns"] = [
        {**turn("m3"), "score": 0.9, "provenance": {"row_id": "m3"}, "context": turn("m2")},
        {**turn("m1"), "score": 0.8, "provenance": {"row_id": "m1"}},
        {**turn("m4"), "message_id": "m4", "score": 0.7, "provenance": {"row_id": "m4"}},
    ]
    # the tail repeats a replayed turn, a recalled one, and one only it holds (by text: no id)
    body["EPISODE"]["previous_session_tail"] = [
        turn("m1"),
        turn("m4"),
        {"role": "user", "text": "see you tomorrow"},
    ]
    answer = build(request(body), NOW)
    everything = "\n".join(m.content for m in answer.messages)
    for _, text in said.values():
        assert everything.count(text) == 1, text
    assert everything.count("see you tomorrow") == 1
    assert [m.content for m in answer.messages[1:3]] == [said["m1"][1], said["m2"][1]]
    sections = {w.section for w in answer.warnings if w.code == "deduplicated"}
    assert {"EPISODE.turns", "EPISODE.previous_session_tail"} <= sections
    tail = answer.envelope.EPISODE.previous_session_tail
    assert [t.text for t in tail] == ["see you tomorrow"]


def test_a_low_confidence_fact_is_never_in_an_authoritative_block() -> None:
    """A raw sentence a reflection stored as a psyche guess (confidence 0.4) and an edge of
    low confidence render as unverified; a foundation fact that low is no foundation."""
    body = full_body(memory_budget_words=None)
    guess = "i think that my boss hates me"
    graph = body["GRAPH"]
    graph["foundation"][0] = fact("fg", "User works at Spotify", confidence=0.4)
    graph["relevant_facts"][0] = fact("rg", guess, confidence=0.4)
    graph["edges"][2].update(text="Person 2 dislikes Person 3", confidence=0.5)
    answer = build(request(body), NOW)
    system = answer.messages[0].content
    authoritative = [line.get("fact") for line in _graph_lines(system)]
    unverified = [line.get("fact") for line in _graph_lines(system, "unverified")]
    for text in ("User works at Spotify", guess, "Person 2 dislikes Person 3"):
        assert text not in authoritative and text in unverified
    foundation = system.split("[FOUNDATION MEMORIES]\n", 1)[1].split("\n\n", 1)[0]
    assert "Spotify" not in foundation
    assert [f.fact_id for f in answer.envelope.GRAPH.foundation if f.fact_id == "fg"] == []
    assert 'authority="unverified"' in system.split("[AUTHORITY RULES]", 1)[1]
    assert any(w.code == "filtered" and w.section == "GRAPH.foundation" for w in answer.warnings)


def test_the_answer_format_documents_entities_time_handles_and_grounding() -> None:
    for words in (
        '"entities"',
        '"distinct_from"',
        '"valid_from"',
        '"valid_to"',
        "since 2019",
        "until friday",
        "next January",
        "whole day",
        '"replaces"',
        '"ends"',
        '"done"',
        '"dropped"',
        "own words",
        "as GRAPH shows it",
    ):
        assert words in ANSWER_FORMAT, words
    assert len(ANSWER_FORMAT) < 1_600


def _without_descriptions(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _without_descriptions(v) for k, v in node.items() if k != "description"}
    if isinstance(node, list):
        return [_without_descriptions(v) for v in node]
    return node


def test_the_lean_schema_admits_the_same_answers_with_fewer_words() -> None:
    full = strict_schema(LLMAnswer)
    sent = response_format().json_schema.schema
    assert _without_descriptions(sent) == _without_descriptions(full)
    assert len(json.dumps(sent)) < len(json.dumps(full)) - 800
    text = json.dumps(sent)
    assert "Non-empty." not in text and "At most 8000 characters." not in text
    assert "At most 120 characters." in text and "At most 50 items." in text
    assert "Usually 0.8." in text and "§" not in text


def test_session_state_is_left_out_when_the_affect_says_nothing() -> None:
    body = full_body()
    body["AFFECT"]["affect"].update(label="neutral", confidence=0.0, markers=[])
    body["AFFECT"].update(interaction_mode="default", topic_focus=None)
    assert "[SESSION STATE]\n" not in _system(body)
    body["AFFECT"]["topic_focus"] = "family"
    assert '"topic_focus":"family"' in _system(body).split("[SESSION STATE]\n", 1)[1]
