"""How the recall benchmark turns Twin Core's answers into ranked items (bench/recall/orders.py),
and the load generator's pure helpers (bench/load)."""

from __future__ import annotations

from bench.load.client import encode_request
from bench.load.samples import PER_WORKER, pick
from bench.recall.orders import items
from bench.recall.product import Answer, Provenance


def prov() -> Provenance:
    return Provenance(
        dia_of_message={"m1": "D1:1", "m2": "D1:2", "m3": "D2:5", "m4": "D3:1"},
        messages_of_fact_text={"Marta likes jazz": {"m4"}},
        messages_of_fact={},
    )


def fact(fact_id: str, text: str, *ids: str) -> dict:
    return {
        "fact_id": fact_id,
        "text": text,
        "provenance": {"row_id": fact_id, "message_ids": list(ids)},
    }


def answer() -> Answer:
    hydrate = {
        "GRAPH": {
            "edges": [
                {
                    "rel_id": "e1",
                    "subject": "Marta",
                    "predicate": "SISTER_OF",
                    "object": "me",
                    "text": None,
                    "provenance": {"message_ids": ["m2"]},
                },
                {
                    "rel_id": "f1",
                    "subject": "Marta",
                    "predicate": "JOB",
                    "value": "nurse",
                    "text": "Marta is a nurse",
                    "provenance": {"message_ids": ["m1"]},
                },
            ],
            "foundation": [fact("f9", "The user is vegetarian", "m3")],
            "relevant_facts": [],
            "entity_cards": [],
            "commitments": [{"todo_id": "t1", "text": "Call Marta"}],
        }
    }
    retrieve = {
        "FACTS": {
            "relevant_facts": [fact("f1", "Marta is a nurse", "m1")],
            "entity_cards": [
                {"entity_ref": "person:marta", "label": "Marta", "facts": ["Marta likes jazz"]}
            ],
        },
        "EPISODE": {
            "hits": [
                {
                    "episode_id": "ep1",
                    "ts": "2023-05-08T13:00:00Z",
                    "day": "2023-05-08",
                    "one_liner": "Talked about Marta",
                    "reflection": "Observation: Marta is a nurse.",
                    "provenance": {"message_ids": ["m1", "m2", "unknown"]},
                }
            ],
            "previous_session_tail": [],
            "latest_session_summary": "Talked about work",
        },
    }
    return Answer(hydrate, retrieve, 1.0, 2.0)


def test_retrieval_order_puts_ranked_slots_first_and_drops_repeats() -> None:
    found = items(answer(), prov())["retrieval"]
    assert [i.kind for i in found] == [
        "fact",
        "episode",
        "card",
        "edge",
        "foundation",
        "todo",
        "summary",
    ]
    fact_item, episode, card, edge, foundation, todo, summary = found
    assert fact_item.turns == {"D1:1"} and fact_item.tokens == 4
    assert episode.turns == {"D1:1", "D1:2"}  # unknown message ids credit nothing
    assert episode.text.startswith("2023-05-08 Talked about Marta Observation")
    assert card.text == "[person:marta]: Marta likes jazz" and card.turns == {"D3:1"}
    assert edge.text == "Marta SISTER_OF me" and edge.turns == {"D1:2"}  # f1 came already
    assert todo.turns == frozenset() and summary.turns == frozenset()


def test_the_001_section_order_is_whole_sections_one_after_the_other() -> None:
    found = items(answer(), prov())["sections"]
    assert [i.kind for i in found] == [
        "foundation",
        "card",
        "fact",
        "edge",
        "todo",
        "episode",
        "summary",
    ]


def test_envelope_order_is_envelope_validators_memory_order() -> None:
    rendered = answer()
    rendered.envelope = {
        "memory_order": [
            {"section": "foundation", "kind": "foundation", "id": "f9", "words": 4},
            {"section": "relevant", "kind": "episode", "id": "ep1", "words": 9},
            {"section": "relevant", "kind": "fact", "id": "f1", "words": 4},
            {"section": "relevant", "kind": "edge", "id": "f1", "words": 4},
            {"section": "relevant", "kind": "card", "id": "person:marta#0", "words": 4},
            {"section": "relevant", "kind": "edge", "id": "e1", "words": 4},
            {"section": "todos", "kind": "todo", "id": "t1", "words": 2},
        ]
    }
    found = items(rendered, prov())["envelope"]
    assert [i.kind for i in found] == [
        "foundation",
        "episode",
        "fact",
        "card",
        "edge",
        "todo",
        "summary",
    ]  # the f1 edge repeats the f1 fact
    assert "envelope" not in items(answer(), prov())  # no envelope asked: no envelope order


def test_encode_request() -> None:
    assert encode_request("GET", "/healthz", 8101) == (
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:8101\r\n\r\n"
    )
    raw = encode_request("POST", "/v1/pulse", 8101, b'{"a":1}')
    assert raw.endswith(b'Content-Length: 7\r\n\r\n{"a":1}')


def test_pick_gives_concurrent_workers_disjoint_samples() -> None:
    pool = list(range(200))
    seen = [{pick(pool, w, n, 64) for n in range(50)} for w in range(64)]
    assert all(not (seen[a] & seen[b]) for a in range(64) for b in range(a + 1, 64))
    assert seen[0] == {0, 64, 128}
    assert {pick(pool, 0, n, 1) for n in range(400)} == set(pool)


def test_at_the_highest_concurrency_every_worker_cycles_over_the_mix() -> None:
    """The default pool holds PER_WORKER samples a worker at the highest level (768 at c=64),
    so no worker's few samples decide a cell (a worker on 3 gate-closed turns did)."""
    pool = list(range(PER_WORKER * 64))
    assert all(len({pick(pool, w, n, 64) for n in range(100)}) == PER_WORKER for w in range(64))
