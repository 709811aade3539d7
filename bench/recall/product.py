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

What came back is turned into :class:`~bench.recall.metrics.Item` lists by
:mod:`bench.recall.orders`; message ids in provenance are mapped to LoCoMo dia_ids through the
``messages`` table (:func:`load_provenance`).
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

from bench.recall.data import Conversation, Question, Session, Turn

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
    # the shipped limits but no relative cutoff on raw turns (issue 33: should 003 §6.3 apply
    # to raw turns at all?)
    "uncut": {"turns": {"floor": -1.0, "margin": 2.0}},
}


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


async def ingest(
    client: httpx.AsyncClient, upserter: str, reflection: str, conversation: Conversation
) -> IngestStats:
    stats = IngestStats()
    started_all = time.perf_counter()
    for session in conversation.sessions:
        started = time.perf_counter()
        session_ids: list[str] = []
        for turn in session.turns:
            body = {
                "user_id": user_of(conversation),
                "agent_id": AGENT,
                "chat_id": conversation.sample_id,
                "turn_id": turn_id(conversation, turn.dia_id),
                "messages": [
                    {
                        "role": turn.role,
                        "text": turn.content,
                        **_speaker(turn),
                        "external_id": turn.dia_id,
                        "ts": turn.ts.isoformat(),
                    }
                ],
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


def _speaker(turn: Turn) -> dict[str, str]:
    """LoCoMo names who said a turn; a BEAM message is the user's or the assistant's own, so it
    goes without a ``speaker`` (its speaker is its role)."""
    return {} if turn.speaker == turn.role else {"speaker": turn.speaker}


async def _consolidate(
    client: httpx.AsyncClient,
    reflection: str,
    session: Session,
    session_ids: Sequence[str],
    stats: IngestStats,
) -> None:
    now = (session.end + CONSOLIDATE_AFTER).isoformat()
    for session_id in session_ids:
        for _ in range(50):  # a capped range leaves more_pending: go on until it is done
            t0 = time.perf_counter()
            response = await client.post(
                reflection + "/v1/consolidate", json={"session_id": session_id, "now": now}
            )
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


async def ask(
    client: httpx.AsyncClient,
    hydrator: str,
    gate: str,
    conversation: Conversation,
    question: Question,
    *,
    limits: dict[str, Any] | None = None,
    envelope: str | None = None,
) -> Answer:
    now = (conversation.end + QUERY_AFTER).isoformat()
    ids = {"user_id": user_of(conversation), "agent_id": AGENT, "chat_id": conversation.sample_id}
    t0 = time.perf_counter()
    response = await client.post(
        hydrator + "/v1/hydrate", json={**ids, "message": question.text, "now": now}
    )
    hydrate_ms = (time.perf_counter() - t0) * 1000
    _check(response, f"hydrate {question.qid}")
    hydrate = response.json()
    body: dict[str, Any] = {
        **ids,
        "message": question.text,
        "force": "open",
        "now": now,
        "entity_ids": hydrate.get("active_entity_ids", []),
    }
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
        response = await client.post(
            envelope + "/v1/envelope",
            json={
                **ids,
                "now": now,
                "user_message": question.text,
                "AFFECT": {**ids, "ts": now, "affect": {"decay_at": now}},
                "GRAPH": hydrate["GRAPH"],
                "EPISODE": retrieved["EPISODE"],
                "KNOWLEDGE": retrieved["KNOWLEDGE"],
                "FACTS": retrieved["FACTS"],
                "ranking": retrieved.get("ranking", []),
            },
        )
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
        dia = {
            str(r["message_id"]): r["external_id"]
            for r in await conn.fetch(
                "SELECT message_id, external_id FROM messages WHERE user_id = $1 "
                "AND external_id IS NOT NULL",
                user,
            )
        }
        by_text: dict[str, set[str]] = {}
        by_id: dict[str, set[str]] = {}
        for r in await conn.fetch(
            "SELECT rel_id, text, provenance_message_ids::text AS ids FROM relations "
            "WHERE user_id = $1",
            user,
        ):
            ids = set(re.findall(r"[0-9a-f-]{36}", r["ids"] or ""))
            by_text.setdefault(r["text"], set()).update(ids)
            by_id[str(r["rel_id"])] = ids
        return Provenance(dia, by_text, by_id)
    finally:
        await conn.close()


def conversation_now(conversation: Conversation) -> datetime:
    return conversation.end + QUERY_AFTER
