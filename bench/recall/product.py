"""Twin Core's side of the recall benchmark: ingest a LoCoMo conversation through the product's
write path over HTTP, then ask every question through the fast brain's retrieval.

Ingest (per conversation, session by session, the session's date as the clock):

- every turn is one ``POST /v1/commit`` to memory-upserter: one ``user`` message whose
  ``speaker`` is the LoCoMo speaker and whose ``external_id`` is the dia_id, the photo caption
  appended as ``[shares a photo: …]``, ``ts``/``now`` = the session start + 30 s per turn, no
  plan (the offline shadow judge extracts one). One user per conversation
  (``locomo:<sample_id>``), one agent (``locomo``), chat id = the sample id, turn id =
  ``<sample_id>:<dia_id>``;
- then ``POST /v1/consolidate`` to reflection-writer for that session (``session_id`` from the
  commit answers, ``now`` = the session's last turn + 11 minutes), repeated while the answer
  says ``more_pending``.

Query (per question, ``now`` = one day after the conversation's last session): graph-hydrator
``POST /v1/hydrate`` with the question, then rag-gate ``POST /v1/retrieve`` with the question,
hydrate's ``active_entity_ids`` as ``entity_ids`` and ``force: "open"``, then
envelope-validator ``POST /v1/envelope`` with the three slots and rag-gate's ``ranking`` as the
fast brain sends them (a neutral AFFECT, no recent turns): its ``memory_order`` is the order the
prompt carries the memory in.

What came back is turned into :class:`~bench.recall.metrics.Item` lists (see :func:`items`).
Message ids in provenance are mapped to LoCoMo dia_ids through the ``messages`` table.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import asyncpg
import httpx

from bench.common import count_tokens
from bench.recall.data import Conversation, Question, Session
from bench.recall.metrics import Item

AGENT = "locomo"
CONSOLIDATE_AFTER = timedelta(minutes=11)  # past reflection-writer's default 10-minute quiet
QUERY_AFTER = timedelta(days=1)

# Per-request limits: "default" is the product as shipped; "open" turns every relative cutoff
# off and fetches the most each slot allows (a diagnostic: what the index found before the
# cutoffs dropped it — never the headline).
LIMITS: dict[str, dict[str, Any] | None] = {
    "default": None,
    "open": {
        "episodes": {"top_k": 20, "floor": -1.0, "margin": 2.0},
        "knowledge": {"k": 0},
        "facts": {"max": 8, "candidates": 64, "floor": -1.0, "margin": 2.0},
        "turns": {"max": 20, "candidates": 64, "floor": -1.0, "margin": 2.0},
    },
}

# Item orders. "retrieval": the slots ranked against the message first (rag-gate's recalled
# turns, facts and episodes in its fused ``ranking``, then its entity cards), then
# graph-hydrator's slots (its relevant facts and cards, edges in its rank order, foundation),
# then todos. "envelope": the order envelope-validator renders them to the LLM, read from its
# ``memory_order`` (foundation, then RELEVANT MEMORIES best first, todos, the previous
# session's tail), then the latest session summary. "sections": the order before issue 12,
# 001's whole sections one after the other (foundation, cards, relevant facts, entities and
# relations, todos, recalled turns, episodes) — kept to show the change in one run.
ORDERS = ("retrieval", "envelope", "sections")


def user_of(conversation: Conversation) -> str:
    return f"locomo:{conversation.sample_id}"


def turn_id(conversation: Conversation, dia_id: str) -> str:
    return f"{conversation.sample_id}:{dia_id}"


@dataclass
class IngestStats:
    turns: int = 0
    sessions: int = 0
    commit_ms: list[float] = field(default_factory=list)
    consolidate_ms: list[float] = field(default_factory=list)
    session_s: list[float] = field(default_factory=list)  # commits + consolidation, per session
    facts: Counter = field(default_factory=Counter)  # outcome → count
    entities: Counter = field(default_factory=Counter)
    turns_with_facts: int = 0
    plan_sources: Counter = field(default_factory=Counter)
    warnings: Counter = field(default_factory=Counter)
    episodes: int = 0
    engines: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)
    wall_s: float = 0.0

    def merge(self, other: IngestStats) -> None:
        for name, value in vars(other).items():
            mine = getattr(self, name)
            if isinstance(value, list):
                mine.extend(value)
            elif isinstance(value, Counter):
                mine.update(value)
            else:
                setattr(self, name, mine + value)


async def ingest(client: httpx.AsyncClient, upserter: str, reflection: str,
                 conversation: Conversation) -> IngestStats:
    stats = IngestStats()
    started_all = time.perf_counter()
    for session in conversation.sessions:
        started = time.perf_counter()
        session_ids: list[str] = []
        for turn in session.turns:
            body = {
                "user_id": user_of(conversation), "agent_id": AGENT,
                "chat_id": conversation.sample_id,
                "turn_id": turn_id(conversation, turn.dia_id),
                "messages": [{"role": "user", "text": turn.content, "speaker": turn.speaker,
                              "external_id": turn.dia_id, "ts": turn.ts.isoformat()}],
                "now": turn.ts.isoformat(),
            }
            t0 = time.perf_counter()
            response = await client.post(upserter + "/v1/commit", json=body)
            stats.commit_ms.append((time.perf_counter() - t0) * 1000)
            _check(response, f"commit {body['turn_id']}")
            answer = response.json()
            stats.turns += 1
            if answer["session_id"] not in session_ids:
                session_ids.append(answer["session_id"])
            stats.plan_sources[answer["plan_source"]] += 1
            stats.facts.update(f["outcome"] for f in answer.get("facts", []))
            stats.entities.update(e["outcome"] for e in answer.get("entities", []))
            stats.turns_with_facts += bool(answer.get("facts"))
            stats.warnings.update(w["code"] for w in answer.get("warnings", []))
        await _consolidate(client, reflection, session, session_ids, stats)
        stats.sessions += 1
        stats.session_s.append(time.perf_counter() - started)
    stats.wall_s = time.perf_counter() - started_all
    return stats


async def _consolidate(client: httpx.AsyncClient, reflection: str, session: Session,
                       session_ids: Sequence[str], stats: IngestStats) -> None:
    now = (session.end + CONSOLIDATE_AFTER).isoformat()
    for session_id in session_ids:
        for _ in range(50):  # a capped range leaves more_pending: go on until it is done
            t0 = time.perf_counter()
            response = await client.post(reflection + "/v1/consolidate",
                                         json={"session_id": session_id, "now": now})
            stats.consolidate_ms.append((time.perf_counter() - t0) * 1000)
            _check(response, f"consolidate {session_id}")
            answer = response.json()
            stats.episodes += sum(1 for s in answer["sessions"] if s["status"] == "created")
            stats.engines.update(s["engine"] for s in answer["sessions"])
            stats.skipped.update(s["reason"] for s in answer["skipped"])
            if not any(s.get("more_pending") for s in answer["sessions"]):
                break


def _check(response: httpx.Response, what: str) -> None:
    if response.status_code >= 400:
        raise RuntimeError(f"{what}: HTTP {response.status_code}: {response.text[:2000]}")


# --- the fast brain's retrieval ---------------------------------------------------------------


@dataclass
class Answer:
    hydrate: dict[str, Any]
    retrieve: dict[str, Any]
    hydrate_ms: float
    retrieve_ms: float
    envelope: dict[str, Any] = field(default_factory=dict)
    envelope_ms: float = 0.0


async def ask(client: httpx.AsyncClient, hydrator: str, gate: str, conversation: Conversation,
              question: Question, *, limits: dict[str, Any] | None = None,
              envelope: str | None = None) -> Answer:
    now = (conversation.end + QUERY_AFTER).isoformat()
    ids = {"user_id": user_of(conversation), "agent_id": AGENT,
           "chat_id": conversation.sample_id}
    t0 = time.perf_counter()
    response = await client.post(hydrator + "/v1/hydrate",
                                 json={**ids, "message": question.text, "now": now})
    hydrate_ms = (time.perf_counter() - t0) * 1000
    _check(response, f"hydrate {question.qid}")
    hydrate = response.json()
    body: dict[str, Any] = {**ids, "message": question.text, "force": "open", "now": now,
                            "entity_ids": hydrate.get("active_entity_ids", [])}
    if limits:
        body["limits"] = limits
    t0 = time.perf_counter()
    response = await client.post(gate + "/v1/retrieve", json=body)
    retrieve_ms = (time.perf_counter() - t0) * 1000
    _check(response, f"retrieve {question.qid}")
    answer = Answer(hydrate, response.json(), hydrate_ms, retrieve_ms)
    if envelope is not None:
        retrieved = answer.retrieve
        t0 = time.perf_counter()
        response = await client.post(envelope + "/v1/envelope", json={
            **ids, "now": now, "user_message": question.text,
            "AFFECT": {**ids, "ts": now, "affect": {"decay_at": now}},
            "GRAPH": hydrate["GRAPH"], "EPISODE": retrieved["EPISODE"],
            "KNOWLEDGE": retrieved["KNOWLEDGE"], "FACTS": retrieved["FACTS"],
            "ranking": retrieved.get("ranking", [])})
        answer.envelope_ms = (time.perf_counter() - t0) * 1000
        _check(response, f"envelope {question.qid}")
        answer.envelope = response.json()
    return answer


# --- provenance → dia_ids ---------------------------------------------------------------------


@dataclass
class Provenance:
    """One conversation's id maps, read from Postgres after ingest."""

    dia_of_message: dict[str, str]  # message_id → dia_id
    messages_of_fact_text: dict[str, set[str]]  # relation text → message ids (entity cards)
    messages_of_fact: dict[str, set[str]]  # rel_id → message ids

    def dias(self, message_ids: Iterable[str]) -> frozenset[str]:
        return frozenset(d for m in message_ids if (d := self.dia_of_message.get(str(m))))


async def load_provenance(dsn: str, conversation: Conversation) -> Provenance:
    conn = await asyncpg.connect(dsn)
    try:
        user = user_of(conversation)
        dia = {str(r["message_id"]): r["external_id"] for r in await conn.fetch(
            "SELECT message_id, external_id FROM messages WHERE user_id = $1 "
            "AND external_id IS NOT NULL", user)}
        by_text: dict[str, set[str]] = {}
        by_id: dict[str, set[str]] = {}
        for r in await conn.fetch(
                "SELECT rel_id, text, provenance_message_ids::text AS ids FROM relations "
                "WHERE user_id = $1", user):
            ids = set(re.findall(r"[0-9a-f-]{36}", r["ids"] or ""))
            by_text.setdefault(r["text"], set()).update(ids)
            by_id[str(r["rel_id"])] = ids
        return Provenance(dia, by_text, by_id)
    finally:
        await conn.close()


# --- the answer as ranked items -----------------------------------------------------------------


def _item(kind: str, text: str, turns: frozenset[str], key: str, **meta: Any) -> Item:
    return Item(kind, text, turns, count_tokens(text), {"key": key, **meta})


def _fact(kind: str, line: dict, prov: Provenance) -> Item:
    ids = line.get("provenance", {}).get("message_ids") or []
    return _item(kind, line["text"], prov.dias(ids), "rel:" + line["fact_id"],
                 provenance_size=len(ids))


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
    return _item("episode", text, prov.dias(ids), "episode:" + hit["episode_id"],
                 provenance_size=len(ids))


def _turn(turn: dict, prov: Provenance) -> Item:
    """A recalled raw turn as the envelope renders it: its date, speaker and text."""
    def said(t: dict) -> str:
        return (f"{t['speaker']}: " if t.get("speaker") else "") + t["text"]

    text = f"{turn['ts'][:10]} {said(turn)}"
    ids = [turn["message_id"]]
    if turn.get("context"):
        text = f"{turn['ts'][:10]} {said(turn['context'])} {said(turn)}"
        ids.insert(0, turn["context"]["message_id"])
    return _item("turn", text, prov.dias(ids), "msg:" + turn["message_id"],
                 provenance_size=len(ids))


def _tail(turn: dict, prov: Provenance) -> Item:
    ids = [turn["message_id"]] if turn.get("message_id") else []
    return _item("tail", turn["text"], prov.dias(ids), "msg:" + (turn.get("message_id") or ""),
                 provenance_size=len(ids))


def _todo(todo: dict) -> Item:
    return _item("todo", todo["text"], frozenset(), "todo:" + todo["todo_id"],
                 provenance_size=0)


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
    by_key = {**{("turn", t["message_id"]): i for t, i in zip(episode.get("turns", []), turns,
                                                             strict=True)},
              **{("fact", f["fact_id"]): i for f, i in zip(facts.get("relevant_facts", []),
                                                          gate_facts, strict=True)},
              **{("episode", h["episode_id"]): i for h, i in zip(episode.get("hits", []), hits,
                                                                strict=True)}}
    ranked = [by_key[key] for r in answer.retrieve.get("ranking", [])
              if (key := (r["kind"], r["id"])) in by_key]
    gate_ranked = ranked or (turns + gate_facts + hits)
    tail = [_tail(t, prov) for t in episode.get("previous_session_tail", [])]
    graph_facts = [_fact("graph_fact", f, prov) for f in graph.get("relevant_facts", [])]
    graph_cards = [_card("graph_card", c, prov) for c in graph.get("entity_cards", [])]
    edges = [_edge(e, prov) for e in graph.get("edges", [])]
    foundation = [_fact("foundation", f, prov) for f in graph.get("foundation", [])]
    todos = [_todo(t) for name in ("commitments", "threads", "frictions", "wins")
             for t in graph.get(name, [])]
    # The latest session's summary rides along every turn; its response carries no message
    # ids, so it costs tokens and credits no turn.
    latest = [_item("summary", episode["latest_session_summary"], frozenset(), "summary",
                    provenance_size=0)] if episode.get("latest_session_summary") else []
    orders = {
        "retrieval": gate_ranked + gate_cards + graph_facts + graph_cards + edges
        + foundation + tail + todos + latest,
        "sections": foundation + graph_cards + gate_cards + graph_facts + gate_facts + edges
        + todos + turns + hits + tail + latest,
    }
    if answer.envelope:
        by_id = {
            **{("foundation", i.meta["key"][4:]): i for i in foundation},
            **{("fact", i.meta["key"][4:]): i for i in graph_facts + gate_facts},
            **{("card", c["entity_ref"]): i for c, i in zip(
                [*graph.get("entity_cards", []), *facts.get("entity_cards", [])],
                graph_cards + gate_cards, strict=True)},
            **{("edge", i.meta["key"][4:]): i for i in edges},
            **{("turn", i.meta["key"][4:]): i for i in turns},
            **{("episode", i.meta["key"][8:]): i for i in hits},
            **{("todo", i.meta["key"][5:]): i for i in todos},
            **{("tail", i.meta["key"][4:]): i for i in tail},
        }
        orders["envelope"] = [by_id[(m["kind"], m["id"])] for m in
                              answer.envelope.get("memory_order", [])
                              if (m["kind"], m["id"]) in by_id] + latest
    return {name: _dedupe(found) for name, found in orders.items()}


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


def conversation_now(conversation: Conversation) -> datetime:
    return conversation.end + QUERY_AFTER
