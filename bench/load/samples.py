"""What bench.load sends: the (user, message) samples, how workers share them, and each
route's body as the fast-brain flow builds it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from bench.load import seed as seeding

AGENT = "deanna"
# The chain before commit, and every cell after the server has gone quiet (``settle``): a
# commit cell leaves background indexing behind that the next cell would otherwise pay for.
ROUTES = ("healthz", "pulse", "hydrate", "retrieve", "envelope", "chain", "turn", "commit")
FLOORS = ("redis_get", "pg_query", "pg_write", "vector_search", "embed")
PERSONA = (
    "You are Deanna, a warm and practical nutrition and training coach. Keep answers "
    "short, ask one question at a time, and never invent facts about the user."
)
MESSAGES = (
    "How is {n} doing with the new job?",
    "remember what {n} said last time about the trip?",
    "{a} called me today, she sounds tired",
    "I ran 5k with {n} this morning and my knee is fine",
    "why do I keep snacking at night?",
    "she said it was fine, but I'm not sure",
    "what should I eat before the long run tomorrow?",
    "{n} and {m} are visiting next week, any ideas for dinner?",
)
PG_FLOOR_SQL = (
    "SELECT rel_id, predicate, text, importance, updated_at FROM relations "
    "WHERE user_id = $1 AND status = 'ACTIVE' ORDER BY updated_at DESC LIMIT 30"
)
NODE_OF = {
    "pulse": "pulse-decay",
    "hydrate": "graph-hydrator",
    "retrieve": "rag-gate",
    "envelope": "envelope-validator",
    "healthz": "rag-gate",
    "turn": "rag-gate",
    "commit": "memory-upserter",
}
PATH_OF = {
    "pulse": "/v1/pulse",
    "hydrate": "/v1/hydrate",
    "retrieve": "/v1/retrieve",
    "envelope": "/v1/envelope",
}


def unique(message: str, worker: int, n: int, run: str) -> str:
    """The message with a tag of letters no seeded text contains, different on every request,
    so no cache in the server (query embedding, gate, working memory) sees a repeat: a real
    user's messages do not repeat, the 200 samples would."""
    code, k = "", (n * 64 + worker) * 1000 + sum(map(ord, run)) % 1000
    while True:
        k, r = divmod(k, 26)
        code += chr(97 + r)
        if not k:
            break
    return f"{message} (zq{code})"


# Samples each worker cycles over at the highest concurrency. With 3 (200 samples at c=64),
# a worker whose samples all keep the gate closed (a quarter of them do) answered in ~2 ms and
# made most of the cell's requests (bench/RESULTS.md, fourth round); with 12 every worker
# holds the mix of open and closed turns.
PER_WORKER = 12


def pick(pool: Sequence[Any], worker: int, n: int, concurrency: int) -> Any:
    """Worker ``worker``'s ``n``-th sample: workers take disjoint residues of the pool."""
    per = max(1, len(pool) // concurrency)
    return pool[(worker + concurrency * (n % per)) % len(pool)]


@dataclass
class Sample:
    user_id: str
    chat_id: str
    message: str
    entities: tuple[str, ...] = ()
    bodies: dict[str, bytes] = field(default_factory=dict)  # route → request body


def samples(manifest: seeding.Manifest, n: int, rng: random.Random) -> list[Sample]:
    """``n`` (user, message) samples, each of a different user while there are enough users
    (so concurrent workers, which take disjoint samples, never write one user's session blob
    at the same time: one person's turns do not arrive 64 at once)."""
    out = []
    users = rng.sample(manifest.users, min(n, len(manifest.users)))
    for i in range(n):
        user = users[i % len(users)]
        names = list(user.entities)
        aliased = [a for v in user.aliases.values() for a in v] or names
        # a random template, not i % 8: workers take samples at a stride of the concurrency,
        # and a stride that is a multiple of 8 would give each worker one template only
        text = rng.choice(MESSAGES).format(
            n=rng.choice(names), m=rng.choice(names), a=rng.choice(aliased)
        )
        out.append(Sample(user.user_id, user.chat_id, text, tuple(names)))
    return out


def ids(s: Sample) -> dict[str, Any]:
    return {"user_id": s.user_id, "agent_id": AGENT, "chat_id": s.chat_id}


def pulse_body(s: Sample) -> dict[str, Any]:
    return {**ids(s), "message": s.message}


def hydrate_body(s: Sample, pulse: dict[str, Any]) -> dict[str, Any]:
    session = pulse["session"]
    return {
        **ids(s),
        "message": s.message,
        "active_entity_ids": session.get("active_entity_ids", []),
        "topic_focus": session.get("scratch", {}).get("topic_focus"),
    }


def turn_body(s: Sample) -> dict[str, Any]:
    """The chain's four bodies in one: what /v1/turn needs to build them itself."""
    return {**ids(s), "message": s.message, "persona_prompt": PERSONA}


def retrieve_body(s: Sample, pulse: dict[str, Any], hydrate: dict[str, Any]) -> dict[str, Any]:
    return {
        **ids(s),
        "message": s.message,
        "entity_ids": hydrate.get("active_entity_ids", []),
        "scratch": pulse["session"].get("scratch"),
    }


def envelope_body(
    s: Sample, pulse: dict[str, Any], hydrate: dict[str, Any], retrieve: dict[str, Any]
) -> dict[str, Any]:
    return {
        **ids(s),
        "AFFECT": pulse["AFFECT"],
        "GRAPH": hydrate["GRAPH"],
        "EPISODE": retrieve["EPISODE"],
        "KNOWLEDGE": retrieve["KNOWLEDGE"],
        "FACTS": retrieve["FACTS"],
        "persona_prompt": PERSONA,
        "conversation_summary": pulse["session"].get("summary") or "",
        "recent_turns": pulse["session"].get("turns", []),
        "user_message": s.message,
    }


def commit_body(s: Sample, turn_id: str, n: int) -> dict[str, Any]:
    """A turn after the LLM with a ~10-item plan (2 entities, 6 facts, 1 todo): the names are
    the user's seeded ones (alias merge, same-key updates), the values change every turn (so
    some facts are contradicted and replaced), as a chatty user's turns would."""
    names = sorted(s.entities)
    a, b = names[n % len(names)], names[(n + 1) % len(names)]
    facts = [
        ("PEOPLE", a, "LIVES_IN", f"city {n % 7}", f"{a} lives in city {n % 7}"),
        ("PEOPLE", a, "WORKS_AS", "nurse", f"{a} works as a nurse"),
        ("PEOPLE", b, "BIRTHDAY", f"{n % 28 + 1} May", f"{b}'s birthday is {n % 28 + 1} May"),
        ("PROFILE", "user", "LIKES", f"tea {n % 5}", f"I like tea {n % 5}"),
        ("PROFILE", "user", "TRAINS_FOR", "a half marathon", "I train for a half marathon"),
        (
            "PROJECT",
            "Garden shed",
            "STATUS",
            f"step {n % 4}",
            f"The garden shed is at step {n % 4}",
        ),
    ]
    plan = {
        "entities": [
            {"name": a, "category": "Person", "aliases": [a.split()[0]]},
            {"name": "Garden shed", "category": "Project"},
        ],
        "facts": [
            {"memory_type": t, "subject": subj, "predicate": pred, "value": value, "text": text}
            for t, subj, pred, value, text in facts
        ],
        "todos": [
            {
                "kind": "COMMITMENT",
                "text": f"call {a} about step {n % 4}",
                "source_snippet": s.message[:120],
            }
        ],
    }
    return {
        **ids(s),
        "turn_id": turn_id,
        "plan": plan,
        "messages": [
            {"role": "user", "text": s.message},
            {"role": "assistant", "text": "Noted. How did it go?"},
        ],
    }


encode_body = msgspec.json.Encoder().encode
decode_body = msgspec.json.Decoder().decode
