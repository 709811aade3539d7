"""A realistic full envelope request (the shape n8n sends), built as plain JSON."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

import msgspec

from contracts.envelope_io import EnvelopeRequest

NOW = datetime(2026, 1, 3, 1, 2, 10, tzinfo=UTC)
USER, AGENT, CHAT = "tg:123", "deanna", "tg:987"


def _prov(row_id: str) -> dict[str, Any]:
    return {"row_id": row_id, "message_ids": [f"m-{row_id}"], "source": "shadow_extraction"}


def fact(fact_id: str, text: str, memory_type: str = "PROFILE", **extra: Any) -> dict[str, Any]:
    return {
        "fact_id": fact_id,
        "text": text,
        "memory_type": memory_type,
        "importance": 2,
        "provenance": _prov(fact_id),
        **extra,
    }


def todo(todo_id: str, kind: str, text: str, status: str = "PENDING") -> dict[str, Any]:
    return {"todo_id": todo_id, "kind": kind, "text": text, "status": status}


def edge(i: int) -> dict[str, Any]:
    return {
        "rel_id": f"r{i}",
        "subject_id": f"e{i % 8}",
        "subject": f"Person {i % 8}",
        "predicate": "KNOWS" if i % 3 else "LIKES",
        "object_id": f"e{(i + 1) % 8}",
        "object": f"Person {(i + 1) % 8}",
        "confidence": 0.9,
        "critical": i == 0,
        "provenance": _prov(f"r{i}"),
    }


def turn(i: int) -> dict[str, Any]:
    role = "user" if i % 2 == 0 else "assistant"
    return {"role": role, "text": f"turn {i}: " + "we talked about the garden and Marta. " * 3}


def full_body(**overrides: Any) -> dict[str, Any]:
    """12 foundation, 8 relevant, 2 cards, 8 entities, 40 edges, 5 episodes, 3 chunks, 10 turns."""
    body: dict[str, Any] = {
        "user_id": USER,
        "agent_id": AGENT,
        "chat_id": CHAT,
        "AFFECT": {
            "slot_contract_version": "1.0",
            "authority": "non-factual",
            "stability": "volatile",
            "user_id": USER,
            "agent_id": AGENT,
            "chat_id": CHAT,
            "ts": "2026-01-03T01:01:50Z",
            "affect": {
                "label": "stressed",
                "confidence": 0.85,
                "markers": ["rapid-fire messages"],
                "decay_at": "2026-01-03T01:31:50Z",
                "pulse": {"every_n_messages": 3, "still_valid": True},
            },
            "interaction_mode": "reflective",
            "topic_focus": "family",
        },
        "GRAPH": {
            "slot_contract_version": "1.0",
            "authority": "authoritative",
            "stability": "persistent",
            "user_id": USER,
            "agent_id": AGENT,
            "entities": [
                {
                    "entity_id": f"e{i}",
                    "name": f"Person {i}",
                    "category": "Person",
                    "scope": "global",
                    "entity_ref": f"person:person_{i}",
                }
                for i in range(8)
            ],
            "edges": [edge(i) for i in range(40)],
            "foundation": [
                fact(f"f{i}", f"Foundation fact number {i} about the user.") for i in range(12)
            ],
            "relevant_facts": [
                fact(f"rf{i}", f"Relevant fact number {i}.", "PEOPLE") for i in range(8)
            ],
            "entity_cards": [
                {
                    "entity_ref": "person:marta",
                    "label": "Marta",
                    "facts": ["Marta is my sister", "Marta lives in Porto"],
                },
                {
                    "entity_ref": "person:john",
                    "label": "John",
                    "facts": ["John is my cofounder", "John handles backend"],
                },
            ],
            "commitments": [todo(f"c{i}", "COMMITMENT", f"Call the bank ({i})") for i in range(3)],
            "threads": [todo("t0", "THREAD", "Moving to Porto")],
            "frictions": [todo("x0", "FRICTION", "Procrastinates on paperwork")],
            "wins": [todo("w0", "COMMITMENT", "Sent the tax form", "DONE")],
        },
        "EPISODE": {
            "hits": [
                {
                    "episode_id": f"ep{i}",
                    "ts": f"2026-01-0{i + 1}T10:00:00Z",
                    "one_liner": f"Session {i} about family.",
                    "reflection": "Observation: the user talked about Marta. " * 4,
                    "score": 0.8,
                    "provenance": _prov(f"ep{i}"),
                }
                for i in range(5)
            ],
            "latest_session_summary": "Talked about the move to Porto; open: the bank call.",
        },
        "KNOWLEDGE": {
            "hits": [
                {
                    "chunk_id": f"k{i}",
                    "doc_id": "coaching.md",
                    "section": f"Part {i}",
                    "text": "Small steps beat big plans. " * 10,
                    "score": 0.7,
                }
                for i in range(3)
            ],
        },
        "persona_prompt": "You are Deanna, a warm and direct coach.",
        "realtime_context": "Saturday 2026-01-03 01:02 UTC, Telegram.",
        "user_context": "Anna, 34, designer, lives in Lisbon.",
        "conversation_summary": "Anna is planning a move and juggling work.",
        "recent_turns": [turn(i) for i in range(10)],
        "user_message": "Did I tell you Marta called?",
        "now": NOW.isoformat(),
    }
    return {**copy.deepcopy(body), **overrides}


def request(body: dict[str, Any] | None = None) -> EnvelopeRequest:
    return msgspec.convert(full_body() if body is None else body, EnvelopeRequest)
