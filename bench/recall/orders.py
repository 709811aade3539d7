"""Twin Core's answer to one question as ranked :class:`~bench.recall.metrics.Item` lists, one
per order of :data:`ORDERS` (what a reader of the prompt meets first)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bench.common import count_tokens
from bench.recall.metrics import Item
from bench.recall.product import Answer, Provenance

# Item orders. "retrieval": the slots ranked against the message first (rag-gate's recalled
# turns, facts and episodes in its fused ``ranking``, then its entity cards), then
# graph-hydrator's slots (its relevant facts and cards, edges in its rank order, foundation),
# then todos. "envelope": the order envelope-validator renders them to the LLM, read from its
# ``memory_order`` (foundation, then RELEVANT MEMORIES best first, todos, the previous
# session's tail), then the latest session summary. "sections": the order before issue 12,
# 001's whole sections one after the other (foundation, cards, relevant facts, entities and
# relations, todos, recalled turns, episodes) — kept to show the change in one run.
ORDERS = ("retrieval", "envelope", "sections")


def _item(kind: str, text: str, turns: frozenset[str], key: str, **meta: Any) -> Item:
    return Item(kind, text, turns, count_tokens(text), {"key": key, **meta})


def _fact(kind: str, line: dict, prov: Provenance) -> Item:
    ids = line.get("provenance", {}).get("message_ids") or []
    return _item(
        kind, line["text"], prov.dias(ids), "rel:" + line["fact_id"], provenance_size=len(ids)
    )


def _card(kind: str, card: dict, prov: Provenance) -> Item:
    ids: set[str] = set()
    for text in card["facts"]:
        ids |= prov.messages_of_fact_text.get(text, set())
    text = f"[{card['entity_ref']}]: " + "; ".join(card["facts"])
    return _item(kind, text, prov.dias(ids), "card:" + text, provenance_size=len(ids))


def _edge(edge: dict, prov: Provenance) -> Item:
    if edge.get("text"):
        text = edge["text"]
    else:
        target = edge.get("object") if edge.get("object") is not None else edge.get("value")
        text = f"{edge['subject']} {edge['predicate']} {target}"
    ids = edge.get("provenance", {}).get("message_ids") or []
    return _item("edge", text, prov.dias(ids), "rel:" + edge["rel_id"], provenance_size=len(ids))


def _episode(hit: dict, prov: Provenance) -> Item:
    when = hit.get("day") or hit["ts"][:10]
    text = f"{when} {hit.get('one_liner') or ''} {hit['reflection']}"
    ids = hit.get("provenance", {}).get("message_ids") or []
    return _item(
        "episode", text, prov.dias(ids), "episode:" + hit["episode_id"], provenance_size=len(ids)
    )


def _turn(turn: dict, prov: Provenance) -> Item:
    """A recalled raw turn as the envelope renders it: its date, speaker and text."""

    def said(t: dict) -> str:
        return (f"{t['speaker']}: " if t.get("speaker") else "") + t["text"]

    text = f"{turn['ts'][:10]} {said(turn)}"
    ids = [turn["message_id"]]
    if turn.get("context"):
        text = f"{turn['ts'][:10]} {said(turn['context'])} {said(turn)}"
        ids.insert(0, turn["context"]["message_id"])
    return _item(
        "turn", text, prov.dias(ids), "msg:" + turn["message_id"], provenance_size=len(ids)
    )


def _tail(turn: dict, prov: Provenance) -> Item:
    ids = [turn["message_id"]] if turn.get("message_id") else []
    return _item(
        "tail",
        turn["text"],
        prov.dias(ids),
        "msg:" + (turn.get("message_id") or ""),
        provenance_size=len(ids),
    )


def _todo(todo: dict) -> Item:
    return _item("todo", todo["text"], frozenset(), "todo:" + todo["todo_id"], provenance_size=0)


def items(answer: Answer, prov: Provenance) -> dict[str, list[Item]]:
    """The answer as item lists, one per order in :data:`ORDERS`, duplicates removed (the same
    row or the same text twice counts once, where it first appears)."""
    graph = answer.hydrate["GRAPH"]
    facts = answer.retrieve["FACTS"]
    episode = answer.retrieve["EPISODE"]
    gate_facts = [_fact("fact", f, prov) for f in facts.get("relevant_facts", [])]
    gate_cards = [_card("card", c, prov) for c in facts.get("entity_cards", [])]
    hits = [_episode(h, prov) for h in episode.get("hits", [])]
    turns = [_turn(t, prov) for t in episode.get("turns", [])]
    # rag-gate's fused order of its turns, facts and episodes (``ranking``, contract 1.2);
    # without it (an older rag-gate) its slots in a fixed order
    by_key = {
        **{
            ("turn", t["message_id"]): i
            for t, i in zip(episode.get("turns", []), turns, strict=True)
        },
        **{
            ("fact", f["fact_id"]): i
            for f, i in zip(facts.get("relevant_facts", []), gate_facts, strict=True)
        },
        **{
            ("episode", h["episode_id"]): i
            for h, i in zip(episode.get("hits", []), hits, strict=True)
        },
    }
    ranked = [
        by_key[key]
        for r in answer.retrieve.get("ranking", [])
        if (key := (r["kind"], r["id"])) in by_key
    ]
    gate_ranked = ranked or (turns + gate_facts + hits)
    tail = [_tail(t, prov) for t in episode.get("previous_session_tail", [])]
    graph_facts = [_fact("graph_fact", f, prov) for f in graph.get("relevant_facts", [])]
    graph_cards = [_card("graph_card", c, prov) for c in graph.get("entity_cards", [])]
    edges = [_edge(e, prov) for e in graph.get("edges", [])]
    foundation = [_fact("foundation", f, prov) for f in graph.get("foundation", [])]
    todos = [
        _todo(t)
        for name in ("commitments", "threads", "frictions", "wins")
        for t in graph.get(name, [])
    ]
    # The latest session's summary rides along every turn; its response carries no message
    # ids, so it costs tokens and credits no turn.
    latest = (
        [
            _item(
                "summary",
                episode["latest_session_summary"],
                frozenset(),
                "summary",
                provenance_size=0,
            )
        ]
        if episode.get("latest_session_summary")
        else []
    )
    orders = {
        "retrieval": gate_ranked
        + gate_cards
        + graph_facts
        + graph_cards
        + edges
        + foundation
        + tail
        + todos
        + latest,
        "sections": foundation
        + graph_cards
        + gate_cards
        + graph_facts
        + gate_facts
        + edges
        + todos
        + turns
        + hits
        + tail
        + latest,
    }
    if answer.envelope:
        by_id = {
            **{("foundation", i.meta["key"][4:]): i for i in foundation},
            **{("fact", i.meta["key"][4:]): i for i in graph_facts + gate_facts},
            **{  # each card fact is one memory_order item (1.5), found as its card
                ("card", fact_id): i
                for c, i in zip(
                    [*graph.get("entity_cards", []), *facts.get("entity_cards", [])],
                    graph_cards + gate_cards,
                    strict=True,
                )
                for fact_id in _card_fact_ids(c)
            },
            **{("edge", i.meta["key"][4:]): i for i in edges},
            **{("turn", i.meta["key"][4:]): i for i in turns},
            **{("episode", i.meta["key"][8:]): i for i in hits},
            **{("todo", i.meta["key"][5:]): i for i in todos},
            **{("tail", i.meta["key"][4:]): i for i in tail},
        }
        orders["envelope"] = [
            by_id[(m["kind"], m["id"])]
            for m in answer.envelope.get("memory_order", [])
            if (m["kind"], m["id"]) in by_id
        ] + latest
    return {name: _dedupe(found) for name, found in orders.items()}


def _card_fact_ids(card: dict) -> list[str]:
    """How the envelope's ``memory_order`` names a card's facts: their ids, else ``ref#n``."""
    ids = card.get("fact_ids") or []
    if len(ids) == len(card["facts"]):
        return list(ids)
    return [f"{card['entity_ref']}#{n}" for n in range(len(card["facts"]))]


def _dedupe(found: Sequence[Item]) -> list[Item]:
    seen: set[str] = set()
    out = []
    for item in found:
        keys = {item.meta["key"], "text:" + " ".join(item.text.lower().split())}
        if keys & seen:
            continue
        seen |= keys
        out.append(item)
    return out
