"""Seed a realistic memory for the load benchmark: N users × (30 entities with aliases, 200
facts, 50 episodes, 20 knowledge chunks, 10 todos, one unconsolidated previous session whose
10 messages are indexed, with the entities their turn named, as memory-upserter indexes them).

How, and why this way: Postgres rows go in by ``COPY`` (the schema comes from the product's own
migrations). The vectors cannot go through the product's write routes at this size — they
embed every text with MiniLM, ~10 ms each, so 270k points would take ~45 minutes on 2 cores —
and a Qdrant Edge shard belongs to one process, so the bench cannot write into the shard of a
running ``twin up``. So the shard is written *before* ``twin up`` starts, in this process,
through the product's own adapter (:class:`services.core.vectors.edge.EdgeVectorIndex`) with
points built by the product's own builders (``memory_store.fact_point``,
``reflection_writer.episode.vector_payload``/``embedding_text``, memory-upserter's knowledge
and message points), then compacted as a deployment would after a bulk import
(``services.core.vectors.edge_compact``); then ``twin up`` opens the folder. Rows are
stamped ``indexed_at`` so no sweep redoes them. Dense vectors are MiniLM embeddings of the
exact texts: the texts come from finite pools (names × templates), so only a few thousand
distinct texts are embedded (cached on disk).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
import numpy as np

from services.core.memory_store.message_index import MessageIndexRow
from services.core.vectors import edge_compact

AGENTS = ("deanna", "anaketa")
FACTS_PER_USER, EPISODES_PER_USER, CHUNKS_PER_USER = 200, 50, 20
ENTITIES_PER_USER, TODOS_PER_USER, TAIL_MESSAGES = 30, 10, 10

# name → (category, aliases)
ENTITY_POOL: dict[str, tuple[str, tuple[str, ...]]] = {
    "Mom": ("Person", ("Mother", "Mum")),
    "Dad": ("Person", ("Father",)),
    "Grandma": ("Person", ("Nana",)),
    "Aunt Rosa": ("Person", ("Rosa",)),
    "Marta": ("Person", ("Martinha", "sis")),
    "Kowalski": ("Person", ("Professor Kowalski",)),
    "Ana": ("Person", ()),
    "Bob": ("Person", ("Bobby",)),
    "Carl": ("Person", ()),
    "Lena": ("Person", ()),
    "Kim": ("Person", ()),
    "Priya": ("Person", ("my manager",)),
    "Omar": ("Person", ()),
    "Sofia": ("Person", ("Sofi",)),
    "Yuki": ("Person", ()),
    "Leo": ("Person", ()),
    "Nina": ("Person", ()),
    "Paul": ("Person", ()),
    "Rita": ("Person", ()),
    "Sam": ("Person", ("Sammy",)),
    "Tara": ("Person", ()),
    "Victor": ("Person", ()),
    "Wendy": ("Person", ()),
    "Xavi": ("Person", ()),
    "Yara": ("Person", ()),
    "Zoe": ("Person", ()),
    "Tomás": ("Person", ("Tomas",)),
    "Jean-Luc": ("Person", ("JL",)),
    "Zofia": ("Person", ()),
    "Hugo": ("Person", ()),
    "Inês": ("Person", ("Ines",)),
    "Maya": ("Person", ()),
    "Noah": ("Person", ()),
    "Olga": ("Person", ()),
    "Pedro": ("Person", ()),
    "Raul": ("Person", ()),
    "Sara": ("Person", ()),
    "Theo": ("Person", ()),
    "Vera": ("Person", ()),
    "Aisha": ("Person", ()),
    "Porto": ("Location", ()),
    "Lisbon": ("Location", ("Lisboa",)),
    "Berlin": ("Location", ()),
    "Kyoto": ("Location", ()),
    "Luna": ("Pet", ("the dog",)),
    "Max": ("Pet", ("the cat",)),
    "Thesis": ("Project", ("dissertation",)),
    "Marathon": ("Goal", ("the race",)),
    "Garden": ("Project", ()),
    "Acme": ("Org", ("work",)),
    "Clinic": ("Org", ()),
    "Choir": ("Org", ()),
    "Bakery": ("Project", ()),
    "Guitar": ("Habit", ()),
}
FACT_TEMPLATES = (
    "{n} works night shifts at the hospital",
    "{n} lives in Porto near the river",
    "{n} likes jazz and old vinyl records",
    "{n} is allergic to nuts",
    "{n} has a birthday on March 14",
    "{n} is training for a half marathon",
    "{n} moved to Lisbon last spring",
    "{n} started a pottery studio",
    "{n} calls every Sunday evening",
    "{n} prefers tea over coffee",
    "{n} has two kids in primary school",
    "{n} is vegetarian since 2019",
    "{n} plays acoustic guitar on weekends",
    "{n} is saving for a trip to Japan",
    "{n} had knee surgery in May",
    "{n} speaks Portuguese and German",
    "{n} studies architecture at night",
    "{n} volunteers at the animal shelter",
    "{n} is afraid of flying",
    "{n} loves hiking in the mountains",
    "{n} drives an old blue Volvo",
    "{n} bakes sourdough bread every Friday",
    "{n} is learning Japanese with an app",
    "{n} runs 5k before work",
    "{n} reads crime novels before bed",
    "{n} hates crowded places",
    "{n} was promoted to team lead in June",
    "{n} is planning a wedding in autumn",
    "{n} takes medication for blood pressure",
    "{n} goes to the gym on Tuesdays",
    "{n} grew up in a small village",
    "{n} is lactose intolerant",
    "{n} collects stamps from Asia",
    "{n} wants to open a bakery",
    "{n} sings in the community choir",
    "{n} is recovering from the flu",
    "{n} writes a blog about urban gardens",
    "{n} sleeps badly before deadlines",
    "{n} owes the user fifty euros",
    "{n} teaches yoga on Saturday mornings",
)
SELF_TEMPLATES = tuple(t.replace("{n}", "The user") for t in FACT_TEMPLATES)
EDGE_PREDICATES = (
    ("FRIEND_OF", "{s} is a friend of {o}"),
    ("KNOWS", "{s} knows {o}"),
    ("WORKS_WITH", "{s} works with {o}"),
    ("LIVES_NEAR", "{s} lives near {o}"),
    ("RELATED_TO", "{s} is related to {o}"),
)
EPISODE_TOPICS = (
    (
        "Talked about {n}'s night shifts",
        "Observation: the user said {n} is exhausted after "
        "night shifts at the hospital and wants to visit next weekend. Action: the agent asked "
        "what would help. Unresolved: when to visit.",
    ),
    (
        "Running check-in with {n}",
        "Observation: the user ran 5k with {n} in 28 minutes and the "
        "knee felt fine. Action: the agent suggested an easy week. Unresolved: the long run plan.",
    ),
    (
        "Food log",
        "Observation: the user ate oatmeal for breakfast and a salad for lunch, then "
        "snacked late after talking to {n}. Action: the agent proposed a protein-rich dinner.",
    ),
    (
        "Bad sleep week",
        "Observation: the user slept five hours a night because of deadlines; "
        "{n} noticed and worried. Action: the agent suggested a fixed wake time.",
    ),
    (
        "Argument with {n}",
        "Observation: the user argued with {n} about chores and felt unheard. "
        "Evidence: the user said the argument started over the dishes. Unresolved: an apology.",
    ),
    (
        "Plan for the move",
        "Observation: the user and {n} listed flats in Alfama and Arroios and "
        "compared rents. Action: the agent made a checklist. Unresolved: the deposit.",
    ),
    (
        "Thesis progress",
        "Observation: the user sent chapter two to {n} and felt relieved. "
        "Action: the agent helped plan chapter three. Unresolved: the data analysis.",
    ),
    (
        "Weekend trip with {n}",
        "Observation: the user went hiking with {n} and took photos of "
        "the lake. Action: the agent asked about the route. Unresolved: the next trip.",
    ),
    (
        "Birthday plans for {n}",
        "Observation: the user wants to surprise {n} with a dinner and a "
        "cake. Action: the agent listed restaurants. Unresolved: the budget.",
    ),
    (
        "Work stress",
        "Observation: the user had a tense meeting with {n} about the deadline. "
        "Action: the agent helped draft a reply. Unresolved: the scope of the release.",
    ),
)
CHUNK_TEXTS = (
    "Protein needs: adults who train regularly need about 1.2 to 1.6 grams of protein per "
    "kilogram of body weight per day, spread across three or four meals.",
    "Hydration on long runs: drink 400 to 800 ml per hour on runs longer than an hour and add "
    "electrolytes in the heat.",
    "Keto flu: in the first week of a ketogenic diet many people feel tired and foggy; sodium, "
    "potassium and magnesium help and it passes within a week.",
    "Tapering: reduce weekly running volume by 30 to 50 percent in the two weeks before a half "
    "marathon while keeping some intensity.",
    "Runner's knee: pain around the kneecap after running often comes from a sudden increase in "
    "mileage; reduce volume and strengthen hips and quads.",
    "Sleep hygiene: keep a regular wake time, avoid screens for an hour before bed, keep the "
    "bedroom cool and dark.",
    "Evening snacking: a protein-rich dinner and a planned small evening snack reduce "
    "late-night cravings.",
    "Vegetarian protein sources: lentils, chickpeas, tofu, tempeh, eggs and Greek yogurt.",
    "Lactose intolerance: hard cheeses and lactose-free milk are usually well tolerated; "
    "lactase tablets help with occasional dairy.",
    "Long runs: run them at an easy conversational pace, about 60 to 90 seconds per kilometre "
    "slower than race pace.",
    "Fibre: aim for 25 to 30 grams per day from vegetables, fruit, legumes and whole grains.",
    "Caffeine: avoid coffee after 2pm if sleep is a problem; its half-life is about five hours.",
    "Strength training: two sessions a week of squats, lunges and rows support running "
    "economy and protect the knees.",
    "Meal prep: cooking grains and legumes on Sunday saves time and keeps weekday lunches on plan.",
    "Stress and appetite: cortisol raises cravings for sugar; a short walk after work lowers it.",
    "Breathing: box breathing (four seconds in, hold, out, hold) calms the nervous system "
    "before sleep.",
    "Iron: runners, especially women, should check ferritin once a year; pair iron with vitamin C.",
    "Recovery: sleep is the most effective recovery tool; aim for seven to nine hours.",
    "Alcohol: even two drinks in the evening reduce deep sleep and next-day training quality.",
    "Habit building: attach a new habit to an existing one and keep the first step under two "
    "minutes.",
    "Budgeting: the 50/30/20 rule splits income between needs, wants and savings.",
    "Journaling: three lines each evening about what went well improve mood over weeks.",
    "Walking: 8,000 steps a day is associated with most of the health benefits of more.",
    "Posture: a standing break every 45 minutes helps the lower back at a desk job.",
)
TODO_TEXTS = (
    ("COMMITMENT", "Call {n} on Sunday"),
    ("COMMITMENT", "Book the physio for the knee"),
    ("THREAD", "Deciding between the two flats"),
    ("THREAD", "{n}'s wedding plans"),
    ("FRICTION", "Snacking late after stressful days"),
    ("COMMITMENT", "Send chapter three to {n}"),
    ("THREAD", "Training for the race"),
    ("FRICTION", "Skipping breakfast on busy days"),
    ("COMMITMENT", "Buy a present for {n}"),
    ("THREAD", "Learning Japanese"),
)


@dataclass
class UserSeed:
    user_id: str
    chat_id: str
    entities: dict[str, str]  # name → entity_id
    aliases: dict[str, list[str]]  # name → aliases


@dataclass
class Manifest:
    users: list[UserSeed] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)

    def save(self, path: Path) -> None:
        path.write_text(
            json.dumps(
                {
                    "users": [vars(u) for u in self.users],
                    "counts": self.counts,
                    "seconds": self.seconds,
                    "params": self.params,
                }
            )
        )

    @classmethod
    def load(cls, path: Path) -> Manifest:
        raw = json.loads(path.read_text())
        return cls(
            [UserSeed(**u) for u in raw["users"]], raw["counts"], raw["seconds"], raw["params"]
        )


def _slug(name: str) -> str:
    import unicodedata

    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return "".join(c if c.isalnum() else "_" for c in plain).strip("_") or "x"


def _jsonb(value: Any) -> str:
    return json.dumps(value)


def _uuid(rng: random.Random) -> uuid.UUID:
    return uuid.UUID(int=rng.getrandbits(128), version=4)


@dataclass
class Rows:
    users: list[tuple] = field(default_factory=list)
    entities: list[tuple] = field(default_factory=list)
    aliases: list[tuple] = field(default_factory=list)
    relations: list[tuple] = field(default_factory=list)
    episodes: list[tuple] = field(default_factory=list)
    chunks: list[tuple] = field(default_factory=list)
    sessions: list[tuple] = field(default_factory=list)
    messages: list[tuple] = field(default_factory=list)
    todos: list[tuple] = field(default_factory=list)
    # for the vectors: (kind, point id, user, text, extra)
    facts_live: list[dict] = field(default_factory=list)
    episodes_index: list[dict] = field(default_factory=list)
    chunks_index: list[dict] = field(default_factory=list)
    messages_index: list[tuple[str, MessageIndexRow]] = field(default_factory=list)


POOL_ORDER = list(ENTITY_POOL)
_SYNTHETIC = re.compile(r"\b(" + "|".join(re.escape(n) for n in ENTITY_POOL) + r") (\d+)\b")


def canonical(text: str) -> str:
    """The text whose embedding stands for ``text``: a synthetic name ("Marta 3", made when a
    user has more entities than the pool has names) counts as its pool name, so a big user
    adds no texts to embed. (Only the growth benchmark makes such names.)"""
    return _SYNTHETIC.sub(r"\1", text)


def entity_names(count: int, rng: random.Random) -> list[str]:
    """``count`` distinct names: Mom and Marta first, then pool names in random order, then
    "<pool name> 2", "<pool name> 3", ... once the pool is used up."""
    names = list(ENTITY_POOL)
    rest = rng.sample([x for x in names if x not in ("Mom", "Marta")], len(names) - 2)
    order = ["Mom", "Marta"] + rest
    return [
        order[i % len(order)] + (f" {i // len(order) + 1}" if i >= len(order) else "")
        for i in range(count)
    ]


def build(
    users: int,
    now: datetime,
    seed: int = 7,
    *,
    first: int = 0,
    facts: int = FACTS_PER_USER,
    episodes: int = EPISODES_PER_USER,
    chunks: int = CHUNKS_PER_USER,
    entities: int | None = None,
    prefix: str = "load",
) -> tuple[Rows, list[UserSeed]]:
    """Every row of users ``first`` .. ``first + users - 1``, deterministic for a given
    ``seed`` (times relative to ``now``). ``entities`` defaults to 30, or enough subjects for
    ``facts`` (40 fact templates per subject)."""
    rows = Rows()
    seeds: list[UserSeed] = []
    entities = entities or max(ENTITIES_PER_USER, facts // len(FACT_TEMPLATES) + 2)
    for n in range(first, first + users):
        rng = random.Random(f"{seed}:{prefix}:{n}")  # str seeds are stable across runs
        user = f"{prefix}-{n:05d}"
        chat = f"tg:{n}"
        rows.users.append((user, "UTC"))
        chosen = entity_names(entities, rng)
        entity_ids: dict[str, str] = {}
        me = _uuid(rng)
        rows.entities.append((me, user, "global", None, "me", "Person", "self:user", now))
        for name in chosen:
            base = name if name in ENTITY_POOL else name.rsplit(" ", 1)[0]
            category, aliases = ENTITY_POOL[base]
            eid = _uuid(rng)
            entity_ids[name] = str(eid)
            seen = now - timedelta(hours=rng.randint(1, 2000))
            rows.entities.append(
                (
                    eid,
                    user,
                    "global",
                    None,
                    name,
                    category,
                    f"{category.lower()}:{_slug(name)}",
                    seen,
                )
            )
            for alias in aliases if name == base else ():
                rows.aliases.append((user, eid, alias, "llm_plan"))
        seeds.append(
            UserSeed(
                user,
                chat,
                entity_ids,
                {
                    k: list(ENTITY_POOL[k][1])
                    for k in chosen
                    if k in ENTITY_POOL and ENTITY_POOL[k][1]
                },
            )
        )
        subjects = [("me", me)] + [(k, uuid.UUID(v)) for k, v in entity_ids.items()]
        combos = [(s, t) for s in range(len(subjects)) for t in range(len(FACT_TEMPLATES))]
        for i, (s, t) in enumerate(rng.sample(combos, facts)):
            name, subject = subjects[s]
            rel = _uuid(rng)
            as_edge = i % 4 == 0 and s > 0
            agent = AGENTS[0] if i % 9 == 0 else (AGENTS[1] if i % 13 == 0 else None)
            updated = now - timedelta(days=rng.uniform(0, 180))
            status = "SUPERSEDED" if i % 37 == 5 else "ACTIVE"
            importance = rng.choice((0, 1, 1, 1, 2, 2, 3))
            pinned = importance == 3 and i % 5 == 0
            if as_edge:
                # the next of the user's entities in pool order: few distinct pairs overall,
                # so few distinct texts to embed
                at = POOL_ORDER.index(canonical(name))
                partner = next(
                    x
                    for k in range(1, len(POOL_ORDER) + 1)
                    if (x := POOL_ORDER[(at + k) % len(POOL_ORDER)]) in entity_ids
                )
                other = (partner, uuid.UUID(entity_ids[partner]))
                predicate, template = EDGE_PREDICATES[t % len(EDGE_PREDICATES)]
                predicate = f"{predicate}_{t}"
                text = template.format(s=name, o=other[0])
                obj, value = other[1], None
            else:
                text = SELF_TEMPLATES[t] if s == 0 else FACT_TEMPLATES[t].format(n=name)
                predicate = f"FACT_{t}"
                obj, value = None, _jsonb(text.split(" ", 2)[-1])
            memory_type = "PROFILE" if s == 0 else "PEOPLE"
            rows.relations.append(
                (
                    rel,
                    user,
                    "agent" if agent else "global",
                    agent,
                    subject,
                    predicate,
                    obj,
                    value,
                    round(rng.uniform(0.6, 1.0), 2),
                    memory_type,
                    "fact",
                    text,
                    importance,
                    pinned,
                    "llm_plan",
                    status,
                    updated - timedelta(days=1),
                    updated if status != "ACTIVE" else None,
                    "[]",
                    updated,
                    updated,
                    now,
                )
            )
            if status == "ACTIVE":
                rows.facts_live.append(
                    dict(
                        rel_id=rel,
                        user=user,
                        scope="agent" if agent else "global",
                        agent_id=agent,
                        subject_id=subject,
                        object_id=obj,
                        text=text,
                        memory_type=memory_type,
                        predicate=predicate,
                        importance=importance,
                        pinned=pinned,
                        updated_at=updated,
                    )
                )
        session_id = _uuid(rng)
        for e in range(episodes):
            name = rng.choice(chosen)
            one_liner, body = EPISODE_TOPICS[rng.randrange(len(EPISODE_TOPICS))]
            one_liner, body = one_liner.format(n=name), body.format(n=name)
            ts = now - timedelta(
                hours=24 * (episodes - e) / max(1, episodes / 50), minutes=rng.randint(0, 600)
            )
            episode_id = _uuid(rng)
            agent = AGENTS[0] if e % 5 else AGENTS[1]
            summary = {
                "one_liner": one_liner,
                "what_mattered": [one_liner],
                "open_loops": [],
                "commitments": [],
                "people": [name],
                "tone": "neutral",
            }
            first = 1_000 * (e + 1)
            rows.episodes.append(
                (
                    episode_id,
                    user,
                    agent,
                    "agent",
                    chat,
                    ts,
                    ts.date(),
                    0.5,
                    body,
                    _jsonb(summary),
                    _jsonb([entity_ids[name]]),
                    "[]",
                    first,
                    first + 19,
                    _jsonb({"message_ids": []}),
                    now,
                    ts,
                    ts,
                )
            )
            rows.episodes_index.append(
                dict(
                    episode_id=str(episode_id),
                    user=user,
                    agent_id=agent,
                    chat_id=chat,
                    ts=ts,
                    one_liner=one_liner,
                    reflection=body,
                    summary=summary,
                    entity_ids=[entity_ids[name]],
                    first=first,
                )
            )
        picked = rng.sample(range(len(CHUNK_TEXTS)), min(chunks, len(CHUNK_TEXTS)))
        for position, c in enumerate(picked):
            chunk_id = _uuid(rng)
            text = CHUNK_TEXTS[c]
            section = ["Coach notes", text.split(":", 1)[0]]
            digest = hashlib.sha256((" > ".join(section) + text).encode()).hexdigest()
            rows.chunks.append(
                (
                    chunk_id,
                    AGENTS[0],
                    user,
                    "coaching",
                    f"notes-{user}",
                    "Coach notes",
                    _jsonb(section),
                    position,
                    text,
                    digest,
                    len(text.split()),
                    now,
                )
            )
            rows.chunks_index.append(
                dict(
                    chunk_id=chunk_id,
                    agent_id=AGENTS[0],
                    user_id=user,
                    doc_id=f"notes-{user}",
                    domain="coaching",
                    section_path=section,
                    doc_title="Coach notes",
                    text=text,
                )
            )
        started = now - timedelta(hours=3)
        rows.sessions.append(
            (
                session_id,
                user,
                AGENTS[0],
                chat,
                started,
                started + timedelta(minutes=10),
                TAIL_MESSAGES // 2,
            )
        )
        previous = None
        for m in range(TAIL_MESSAGES):
            role = "user" if m % 2 == 0 else "assistant"
            name = rng.choice(chosen)
            # ids not drawn from rng, so the rest of the user's memory is as before they had one
            message_id = uuid.uuid5(uuid.NAMESPACE_URL, f"twin-bench:{user}:{session_id}:{m}")
            text, ts = f"message {m} about {name} and the day", started + timedelta(minutes=m)
            rows.messages.append(
                (
                    message_id,
                    user,
                    AGENTS[0],
                    chat,
                    session_id,
                    f"t{m // 2}",
                    m % 2,
                    role,
                    text,
                    ts,
                    [uuid.UUID(entity_ids[name])],
                    now,
                )
            )
            rows.messages_index.append(
                (
                    user,
                    MessageIndexRow(
                        message_id=message_id,
                        agent_id=AGENTS[0],
                        chat_id=chat,
                        session_id=session_id,
                        role=role,
                        speaker=None,
                        text=text,
                        ts=ts,
                        active=True,
                        previous=previous,
                        entity_ids=(uuid.UUID(entity_ids[name]),),
                    ),
                )
            )
            previous = text
        for t in range(TODOS_PER_USER):
            kind, text = TODO_TEXTS[t % len(TODO_TEXTS)]
            rows.todos.append(
                (
                    user,
                    AGENTS[0] if t % 3 else AGENTS[1],
                    kind,
                    text.format(n=rng.choice(chosen)),
                    "PENDING",
                    now + timedelta(days=rng.randint(1, 20)) if kind == "COMMITMENT" else None,
                    now - timedelta(days=rng.randint(1, 30)),
                )
            )
    return rows, seeds


async def write_postgres(dsn: str, rows: Rows) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        await conn.executemany(
            "INSERT INTO agents (agent_id) VALUES ($1) ON CONFLICT DO NOTHING",
            [(a,) for a in AGENTS],
        )
        await conn.copy_records_to_table(
            "users", records=rows.users, columns=["user_id", "timezone"]
        )
        await conn.copy_records_to_table(
            "entities",
            records=rows.entities,
            columns=[
                "entity_id",
                "user_id",
                "scope",
                "agent_id",
                "name",
                "category",
                "entity_ref",
                "last_seen",
            ],
        )
        await conn.copy_records_to_table(
            "entity_aliases",
            records=rows.aliases,
            columns=["user_id", "entity_id", "alias", "source"],
        )
        await conn.copy_records_to_table(
            "relations",
            records=rows.relations,
            columns=[
                "rel_id",
                "user_id",
                "scope",
                "agent_id",
                "subject_id",
                "predicate",
                "object_id",
                "object_value",
                "confidence",
                "memory_type",
                "fact_type",
                "text",
                "importance",
                "pinned",
                "source",
                "status",
                "valid_from",
                "valid_to",
                "provenance_message_ids",
                "created_at",
                "updated_at",
                "indexed_at",
            ],
        )
        await conn.copy_records_to_table(
            "sessions",
            records=rows.sessions,
            columns=[
                "session_id",
                "user_id",
                "agent_id",
                "chat_id",
                "started_at",
                "last_activity_at",
                "turn_count",
            ],
        )
        await conn.copy_records_to_table(
            "episodes",
            records=rows.episodes,
            columns=[
                "episode_id",
                "user_id",
                "agent_id",
                "scope",
                "chat_id",
                "ts",
                "day",
                "importance",
                "reflection",
                "summary",
                "entity_ids",
                "tags",
                "first_message_seq",
                "last_message_seq",
                "provenance",
                "indexed_at",
                "created_at",
                "updated_at",
            ],
        )
        await conn.copy_records_to_table(
            "knowledge_chunks",
            records=rows.chunks,
            columns=[
                "chunk_id",
                "agent_id",
                "user_id",
                "domain",
                "doc_id",
                "doc_title",
                "section_path",
                "position",
                "text",
                "content_hash",
                "token_count",
                "indexed_at",
            ],
        )
        await conn.copy_records_to_table(
            "messages",
            records=rows.messages,
            columns=[
                "message_id",
                "user_id",
                "agent_id",
                "chat_id",
                "session_id",
                "turn_id",
                "position",
                "role",
                "text",
                "ts",
                "entity_ids",
                "indexed_at",
            ],
        )
        await conn.execute("""
            UPDATE sessions s SET last_message_seq = m.last
              FROM (SELECT session_id, max(seq) AS last FROM messages GROUP BY 1) m
             WHERE s.session_id = m.session_id""")
        await conn.copy_records_to_table(
            "todos",
            records=rows.todos,
            columns=["user_id", "agent_id", "kind", "text", "status", "due_at", "created_at"],
        )
        await conn.execute("VACUUM ANALYZE")
    finally:
        await conn.close()


async def write_vectors(
    qdrant_path: str,
    rows: Rows,
    embed: Callable[[Sequence[str]], np.ndarray],
    progress: Callable[[str], None] = print,
) -> dict[str, float]:
    """Upsert every point with the product's adapter and point builders; seconds per stage."""
    from services.core.memory_store.episode_index import EpisodeRow, embedding_text, vector_payload
    from services.core.memory_store.index import FactIndexRow, fact_point
    from services.core.memory_store.message_index import message_point
    from services.core.vectors import VectorPoint
    from services.core.vectors.edge import EdgeVectorIndex
    from services.memory_upserter.person.knowledge import _point as knowledge_point

    seconds: dict[str, float] = {}
    started = time.perf_counter()
    fact_texts = sorted({canonical(f["text"]) for f in rows.facts_live})
    episode_texts = sorted(
        {canonical(embedding_text(e["one_liner"], e["reflection"])) for e in rows.episodes_index}
    )
    chunk_texts = sorted({_chunk_text(c) for c in rows.chunks_index})
    message_texts = sorted({canonical(row.text) for _, row in rows.messages_index})
    vectors: dict[str, np.ndarray] = {}
    for texts in (fact_texts, episode_texts, chunk_texts, message_texts):
        for text, vector in zip(texts, embed(texts), strict=True):
            vectors[text] = vector
    seconds["embed"] = time.perf_counter() - started
    progress(f"  embedded {len(vectors)} distinct texts in {seconds['embed']:.1f} s")

    index = EdgeVectorIndex(qdrant_path, dim=384)
    await index.ensure_collections()  # opens the shards (or creates them): adds to what is there
    batch = 2_000
    try:
        started = time.perf_counter()
        for at in range(0, len(rows.facts_live), batch):
            points = []
            for f in rows.facts_live[at : at + batch]:
                row = FactIndexRow(
                    rel_id=f["rel_id"],
                    scope=f["scope"],
                    agent_id=f["agent_id"],
                    subject_id=f["subject_id"],
                    object_id=f["object_id"],
                    active=True,
                    text=f["text"],
                    memory_type=f["memory_type"],
                    fact_type="fact",
                    predicate=f["predicate"],
                    importance=f["importance"],
                    pinned=f["pinned"],
                    source="llm_plan",
                    updated_at=f["updated_at"],
                    message_ids=(),
                )
                points.append(fact_point(f["user"], row, vectors[canonical(f["text"])]))
            await index.upsert("facts", points)
        seconds["facts"] = time.perf_counter() - started
        progress(f"  {len(rows.facts_live)} fact points in {seconds['facts']:.1f} s")
        started = time.perf_counter()
        for at in range(0, len(rows.episodes_index), batch):
            points = []
            for e in rows.episodes_index[at : at + batch]:
                text = embedding_text(e["one_liner"], e["reflection"])
                row = EpisodeRow(
                    episode_id=e["episode_id"],
                    user_id=e["user"],
                    agent_id=e["agent_id"],
                    chat_id=e["chat_id"],
                    session_id="",
                    ts=e["ts"],
                    day=e["ts"].date(),
                    importance=0.5,
                    reflection=e["reflection"],
                    reflection_json={},
                    summary=e["summary"],
                    entity_ids=e["entity_ids"],
                    tags=[],
                    first_message_seq=e["first"],
                    last_message_seq=e["first"] + 19,
                    provenance={"message_ids": []},
                    previous_episode_id=None,
                    text=text,
                )
                points.append(
                    VectorPoint(
                        id=row.episode_id,
                        dense=vectors[canonical(text)],
                        text=text,
                        payload=vector_payload(row),
                    )
                )
            await index.upsert("episodes", points)
        seconds["episodes"] = time.perf_counter() - started
        progress(f"  {len(rows.episodes_index)} episode points in {seconds['episodes']:.1f} s")
        started = time.perf_counter()
        for at in range(0, len(rows.chunks_index), batch):
            await index.upsert(
                "knowledge",
                [
                    knowledge_point(c, vectors[_chunk_text(c)])
                    for c in rows.chunks_index[at : at + batch]
                ],
            )
        seconds["knowledge"] = time.perf_counter() - started
        progress(f"  {len(rows.chunks_index)} knowledge points in {seconds['knowledge']:.1f} s")
        started = time.perf_counter()
        for at in range(0, len(rows.messages_index), batch):
            await index.upsert(
                "messages",
                [
                    message_point(user, row, vectors[canonical(row.text)])
                    for user, row in rows.messages_index[at : at + batch]
                ],
            )
        seconds["messages"] = time.perf_counter() - started
        progress(f"  {len(rows.messages_index)} message points in {seconds['messages']:.1f} s")
    finally:
        started = time.perf_counter()
        await index.close()
        seconds["close"] = time.perf_counter() - started
    # What a deployment runs after a bulk import (services.core.vectors.edge_compact): the
    # points leave the appendable segment, whose indexes live on the heap.
    started = time.perf_counter()
    edge_compact.compact(qdrant_path)
    seconds["compact"] = time.perf_counter() - started
    progress(f"  compacted the shards in {seconds['compact']:.1f} s")
    return seconds


def _chunk_text(c: dict) -> str:
    section = " > ".join(c["section_path"])
    return f"{section}\n\n{c['text']}" if section else c["text"]


async def seed(
    dsn: str,
    qdrant_path: str,
    users: int,
    embed,
    progress: Callable[[str], None] = print,
    **shape: Any,
) -> Manifest:
    """Migrate ``dsn`` (creating it if missing), then add every row and point of ``users``
    users (``shape``: :func:`build`'s keywords). Returns the manifest."""
    from services.core.migrate import apply_migrations, ensure_database

    manifest = Manifest(params={"users": users, **shape})
    started = time.perf_counter()
    await ensure_database(dsn)
    await apply_migrations(dsn)
    manifest.seconds["migrate"] = time.perf_counter() - started
    started = time.perf_counter()
    rows, manifest.users = build(users, datetime.now(UTC), **shape)
    manifest.seconds["build"] = time.perf_counter() - started
    started = time.perf_counter()
    await write_postgres(dsn, rows)
    manifest.seconds["postgres"] = time.perf_counter() - started
    progress(f"  Postgres rows in {manifest.seconds['postgres']:.1f} s")
    manifest.seconds.update(
        {
            f"vectors_{k}": v
            for k, v in (await write_vectors(qdrant_path, rows, embed, progress)).items()
        }
    )
    manifest.counts = {
        "users": len(rows.users),
        "entities": len(rows.entities),
        "aliases": len(rows.aliases),
        "facts": len(rows.relations),
        "fact_points": len(rows.facts_live),
        "episodes": len(rows.episodes),
        "knowledge_chunks": len(rows.chunks),
        "todos": len(rows.todos),
        "messages": len(rows.messages),
        "message_points": len(rows.messages_index),
    }
    return manifest


def run(dsn: str, qdrant_path: str, users: int, embed, **shape: Any) -> Manifest:
    return asyncio.run(seed(dsn, qdrant_path, users, embed, **shape))
