"""Before a commit's transaction, outside it: a turn's plan with the words it is grounded
in, and a turn committed already answered again.

:func:`judge_context` is one statement: a stored answer for this turn (a retry stops there),
the session's recent user messages and last assistant reply (the question a short answer
answers), the names the user goes by, and the user's people the turn names. :func:`judge_turn`
asks the shadow judge (:mod:`.judge`) for the plan of a turn that came without one;
:func:`plan_turn` reads a model's plan, whose facts the person's recent messages may ground
(:mod:`.grounding`), with the person's live facts for a fact it ends; a judged plan's ``ends``
in words are resolved against them (:mod:`.asked`). :func:`replay` answers a stored turn."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import msgspec

from contracts.memory import CommitResponse, Notice
from contracts.plan import MemoryWritePlan
from services.core.deps import Connection, Database
from services.core.errors import Conflict
from services.core.llm import LLM
from services.core.memory_store.visibility import visible
from services.core.settings import Settings
from services.memory_upserter.commit.asked import resolve_ends
from services.memory_upserter.commit.ending import CUE, ends_said, tied_titles
from services.memory_upserter.commit.judge import judge, names_in
from services.memory_upserter.commit.known import PEOPLE, known_in
from services.memory_upserter.commit.spoken import CORRECTION
from services.memory_upserter.commit.turn import (
    Judgement,
    MessageRow,
    ReadTurn,
    Rename,
    Stored,
)
from services.memory_upserter.extract.extractor import Utterance
from services.memory_upserter.extract.people import Known
from services.memory_upserter.extract.renamed import renamed, without_renamed
from services.memory_upserter.forget.audit import FORGOTTEN_ANSWER
from services.memory_upserter.text import STOP_WORDS, is_command, words

JUDGE_CONTEXT = f"""
WITH recent AS (  -- this chat's open session, its active messages of the last hour
  SELECT m.text, m.speaker, m.seq, m.role
    FROM sessions s
    JOIN messages m ON m.user_id = s.user_id AND m.session_id = s.session_id
   WHERE s.user_id = $1 AND s.agent_id = $2 AND s.chat_id = $3
     AND s.ended_at IS NULL
     AND s.last_activity_at >= $5::timestamptz - $6::interval
     AND m.active AND m.ts >= $5::timestamptz - interval '60 minutes')
SELECT k.request_hash, k.response,
       (SELECT COALESCE(jsonb_agg(jsonb_build_array(w.text, w.speaker) ORDER BY w.seq), '[]')
          FROM (SELECT text, speaker, seq FROM recent WHERE role = 'user'
                 ORDER BY seq DESC LIMIT 12) w) AS earlier,
       (SELECT text FROM recent WHERE role = 'assistant' ORDER BY seq DESC LIMIT 1) AS asked,
       ARRAY(SELECT a.alias FROM entities e
               JOIN entity_aliases a ON a.user_id = e.user_id AND a.entity_id = e.entity_id
              WHERE e.user_id = $1 AND e.entity_ref = 'self:user'
             UNION ALL
             SELECT display_name FROM users WHERE user_id = $1 AND display_name IS NOT NULL
       ) AS self_names,
       {PEOPLE} AS people,
       (SELECT COALESCE(jsonb_agg(jsonb_build_array(
                   p.name, p.entity_ref,
                   ARRAY(SELECT r.predicate FROM relations r
                          WHERE r.user_id = $1 AND r.object_id = p.entity_id
                            AND r.status = 'ACTIVE' AND left(r.predicate, 4) = 'HAS_'
                            AND r.subject_id = (SELECT s.entity_id FROM entities s
                                                 WHERE s.user_id = $1
                                                   AND s.entity_ref = 'self:user')),
                   ARRAY(SELECT a.alias FROM entity_aliases a
                          WHERE a.user_id = $1 AND a.entity_id = p.entity_id
                          ORDER BY a.created_at, a.alias),
                   p.entity_id::text = ANY($8::text[]))
                   ORDER BY p.created_at, p.entity_id), '[]')
          FROM entities p
         WHERE p.user_id = $1 AND p.active AND p.category = 'Person'
           AND {visible("p", "$2")}
           AND (p.name_normalized = ANY($7::text[])
                OR split_part(p.name_normalized, ' ', 1) = ANY($7::text[])
                OR EXISTS (SELECT 1 FROM entity_aliases a
                            WHERE a.user_id = $1 AND a.entity_id = p.entity_id
                              AND a.alias_normalized = ANY($7::text[])))) AS known
  FROM (SELECT 1) one LEFT JOIN idempotency_keys k ON k.user_id = $1 AND k.key = $4
"""


# The person's live facts a plan may end by restating them (grounded by what was stored).
LIVE_TEXTS = f"""
SELECT r.text FROM relations r
 WHERE r.user_id = $1 AND r.status = 'ACTIVE' AND {visible("r", "$2")}
   AND (r.valid_to IS NULL OR r.valid_to > $3)
 ORDER BY r.created_at DESC LIMIT 200
"""


@dataclass(frozen=True)
class JudgeContext:
    stored: Stored | None
    earlier: list[tuple[str, str | None]]
    self_names: list[str]
    known: list[Known]
    asked: str | None = None  # the session's last assistant reply: the question just asked
    people: tuple[str, ...] = ()  # "Person:Lara", "Pet:Biscuit": whom the person knows


async def judge_context(
    conn: Connection,
    user_id: str,
    agent_id: str,
    chat_id: str,
    key: str,
    now: datetime,
    idle: timedelta,
    names: Sequence[str],
    active: Sequence[str] = (),
) -> JudgeContext:
    """Before any extraction (outside the transaction): a stored answer for this turn, the
    session's recent user messages, the names the user goes by, and the user's people named
    ``names`` (normalized) with the user's relations to them, their aliases and whether the
    session has them ``active`` (the one just named or chosen)."""
    row = await conn.fetchrow(
        JUDGE_CONTEXT, user_id, agent_id, chat_id, key, now, idle, list(names), list(active)
    )
    assert row is not None  # one row, always
    stored = Stored(row["request_hash"], row["response"]) if row["request_hash"] else None
    known = [
        Known(name, ref, tuple(roles), tuple(aliases), active=active)
        for name, ref, roles, aliases, active in row["known"]
    ]
    return JudgeContext(
        stored,
        [(t, s) for t, s in row["earlier"]],
        list(row["self_names"]),
        known,
        row["asked"],
        tuple(row["people"]),
    )


async def judge_turn(
    db: Database, llm: LLM | None, settings: Settings, turn: ReadTurn, idle: timedelta
) -> Judgement | Stored:
    """The shadow judge's plan, or the answer an earlier commit of this turn stored."""
    req = turn.req
    # a slash command is logged with the turn but is never a memory (nor context for one)
    new = [Utterance(r.text, r.speaker) for r in turn.user_rows if not is_command(r.text)]
    async with db.acquire() as conn:
        context = await judge_context(
            conn, req.user_id, req.agent_id, req.chat_id, turn.key, turn.now, idle, _names(new),
            list(req.active_entity_ids),
        )  # fmt: skip
    if context.stored is not None:
        return context.stored
    if not new:  # a slash command says so; a turn with no user message (an import) says nothing
        said = (COMMAND_NOTE,) if turn.user_rows else ()
        return Judgement(MemoryWritePlan(), "offline_extractor", notes=said)
    judged = await judge(
        llm,
        new=new,
        earlier=[Utterance(t, s) for t, s in context.earlier if not is_command(t)],
        self_names=context.self_names,
        known=context.known,
        now=turn.now,
        timeout_s=settings.llm_timeout_s,
        asked=asked_before(turn.rows) or context.asked,
    )
    corrected = renamed([u.text for u in new if u.speaker is None], context.known)
    plan, ended = without_renamed(judged.plan, corrected), list[Notice]()
    if plan.ends:  # words the judge could not name a handle for (:mod:`.asked`)
        async with db.acquire() as conn:
            plan, ended = await resolve_ends(
                conn,
                req.user_id,
                req.agent_id,
                plan,
                turn.now,
                as_handles=judged.source != "offline_extractor",
            )
    notes = [Notice(code="judge_fallback", detail=judged.warning)] if judged.warning else []
    notes += ended
    notes += [
        Notice(
            code="entity_ambiguous",
            detail=f"a todo names someone several people answer to; nobody was linked. Ask: {q}",
        )
        for q in judged.questions
    ]
    return Judgement(
        plan,
        judged.source,
        self_names=tuple(context.self_names),
        context=tuple(judged.context),
        questions=tuple(judged.questions),
        notes=tuple(notes),
        known=tuple(context.known),
        renames=tuple(Rename(k.entity_ref, k.name, name) for k, name in corrected),
    )


def asked_before(rows: Sequence[MessageRow]) -> str | None:
    """The assistant message a request sends before its first user message (an import of both
    sides): the question that message answers, ahead of the session's last reply."""
    before = []
    for r in rows:
        if r.role == "user":
            break
        before.append(r.text)
    return before[-1] if before else None


def _names(new: Sequence[Utterance]) -> list[str]:
    """The names the turn may use: its capitalized words and pairs, and every other word —
    a person typing "call marta" means Marta (Silva) too."""
    lower = {w for u in new for w in words(u.text) if len(w) > 2 and w not in STOP_WORDS}
    return sorted({*names_in(new), *lower})[:400]


async def plan_turn(db: Database, turn: ReadTurn, idle: timedelta) -> Judgement | Stored:
    """A model's plan (the request's or its answer's), with the person's recent messages of the
    session as the words its facts may rest on and the user's entities its names may mean; or
    the answer an earlier commit stored."""
    assert turn.plan is not None and turn.plan_source is not None
    req = turn.req
    texts = [r.text for r in turn.user_rows]
    # the person's live facts: what an ending, a successor or a correction may restate, and
    # what a plan held to the conversation may rest on (:mod:`.shape`)
    ending = any(f.valid_to or f.replaces for f in turn.plan.facts) or any(
        CORRECTION.search(t) for t in texts
    )
    ending = ending or (turn.trust == "session" and bool(turn.plan.facts))
    said = ends_said(texts, turn.plan.facts) if any(CUE.search(t) for t in texts) else []
    if any(f.valid_to for f in turn.plan.facts):  # a job the plan ends ends its title
        said += tied_titles(turn.plan.facts)
    async with db.acquire() as conn:
        context = await judge_context(
            conn, req.user_id, req.agent_id, req.chat_id, turn.key, turn.now, idle, []
        )
        if context.stored is not None:
            return context.stored
        live = await conn.fetch(LIVE_TEXTS, req.user_id, req.agent_id, turn.now) if ending else []
        plan, ended = await _ended_by_words(conn, turn, said)
        # whom the plan's names mean (003 §10)
        known = await known_in(conn, req.user_id, req.agent_id, turn.plan)
    return Judgement(
        plan,
        turn.plan_source,
        self_names=tuple(context.self_names),
        context=tuple(text for text, _ in context.earlier),
        notes=tuple(ended),
        known=tuple(known),
        stored_facts=tuple(r["text"] for r in live),
        people=context.people,
    )


async def _ended_by_words(
    conn: Connection, turn: ReadTurn, said: Sequence[str]
) -> tuple[MemoryWritePlan, list[Notice]]:
    """The model's plan with the facts the person's words end (:mod:`.ending`) among its
    ``ends`` as handles, and a notice for each fact so ended."""
    assert turn.plan is not None
    if not said:
        return turn.plan, []
    asked = msgspec.structs.replace(turn.plan, ends=list(said))
    found, notes = await resolve_ends(
        conn, turn.req.user_id, turn.req.agent_id, asked, turn.now, as_handles=True
    )
    ends = list(dict.fromkeys([*turn.plan.ends, *found.ends]))[:20]
    hits = [n for n in notes if n.detail.startswith("ended as the person said")]
    return msgspec.structs.replace(turn.plan, ends=ends, facts=found.facts), hits


COMMAND_NOTE = Notice(
    code="slash_command", detail="the message is a slash command: nothing was extracted from it"
)


def replay(stored: Stored, turn: ReadTurn) -> CommitResponse:
    """The stored answer, when the turn is the one stored (same body) and was not forgotten."""
    if stored.request_hash != turn.digest:
        raise Conflict(
            f"turn {turn.req.turn_id!r} of chat {turn.req.chat_id!r} was committed "
            "with a different body; a new turn needs a new turn_id"
        )
    if stored.response == FORGOTTEN_ANSWER:
        raise Conflict(
            f"turn {turn.req.turn_id!r} of chat {turn.req.chat_id!r} was committed, "
            "then forgotten on request; it is not written again"
        )
    return msgspec.json.decode(msgspec.json.encode(stored.response), type=CommitResponse)
