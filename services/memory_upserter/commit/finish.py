"""The transaction's last steps, once the answer is built (:mod:`.sql`'s order): a
which-question's answer linked (the alias stored on the one chosen, the messages that waited
linked to them, 003 §10), then the answer stored under the turn's key with the checkpoint and
the counters, so a committed turn always has its replayable answer; and what the work after the
commit needs (:class:`~.turn.Written`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from uuid import UUID

import msgspec

from contracts.memory import CommitResponse, Notice
from services.core.deps import Connection
from services.core.memory_store.fact_ops import FactResult
from services.core.text import fold
from services.memory_upserter.commit import sql
from services.memory_upserter.commit.entities import Named
from services.memory_upserter.commit.facts import Facts
from services.memory_upserter.commit.rows import FinishRow, SessionRow
from services.memory_upserter.commit.turn import Answered, TurnPlan, Written
from services.memory_upserter.forget.types import Forgotten

LINK = """
WITH e AS (SELECT entity_id FROM entities
            WHERE user_id = $1 AND entity_ref = $2 AND active LIMIT 1),
alias AS (
    INSERT INTO entity_aliases (user_id, entity_id, alias, source)
    SELECT $1, e.entity_id, $3, $4 FROM e WHERE $3::text IS NOT NULL
    ON CONFLICT (entity_id, alias_normalized) DO NOTHING),
waited AS (
    UPDATE messages m SET entity_ids = array_append(m.entity_ids, e.entity_id)
      FROM e
     WHERE m.user_id = $1 AND m.message_id = ANY($5::uuid[])
       AND NOT (e.entity_id = ANY(m.entity_ids)))
SELECT entity_id FROM e
"""


async def link(conn: Connection, user_id: str, answered: Answered, source: str) -> UUID | None:
    """Store the alias and link the waiting messages; the chosen entity's id (None: gone)."""
    entity_id: UUID | None = await conn.fetchval(
        LINK,
        user_id,
        answered.chosen.entity_ref,
        answered.alias,
        source,
        list(answered.waiting),
    )
    return entity_id


async def finish(
    conn: Connection,
    plan: TurnPlan,
    response: CommitResponse,
    session: SessionRow,
    named: Named,
    facts: Facts,
    forgotten: Forgotten | None,
) -> Written:
    """The answer completed (the todos closed, the question answered) and stored; what the
    work after the commit needs."""
    chosen, answered = await _link(conn, plan)
    response = msgspec.structs.replace(
        response,
        completions=facts.todos.completions,
        warnings=[*response.warnings, *answered],
    )
    touched = list(
        dict.fromkeys(
            [*([str(chosen)] if chosen else []), *(str(e.entity_id) for e in named.entities)]
        )
    )
    live = await _store(conn, plan, response, session, facts.results, touched, chosen)
    return _written(plan, response, facts, touched, live, forgotten, chosen)


async def _link(conn: Connection, plan: TurnPlan) -> tuple[UUID | None, list[Notice]]:
    """The entity a which-question's answer chose, linked to the messages that raised it, and
    the notice saying so."""
    if not plan.answered:
        return None, []
    chosen = await link(conn, plan.turn.req.user_id, plan.answered, plan.fact_source)
    return chosen, answered_notice(plan.answered, chosen)


def answered_notice(answered: Answered | None, entity_id: UUID | None) -> list[Notice]:
    """``question_answered``: whom the answer chose, and the alias stored."""
    if answered is None or entity_id is None:
        return []
    alias = f"; alias {answered.alias!r} stored" if answered.alias else ""
    detail = f"{answered.question!r} answered: {answered.chosen.name} ({entity_id}){alias}"
    return [Notice(code="question_answered", detail=detail)]


async def _store(
    conn: Connection,
    plan: TurnPlan,
    response: CommitResponse,
    session: SessionRow,
    results: list[FactResult],
    touched: list[str],
    chosen: UUID | None,
) -> set[str]:
    """The answer under the turn's key, the checkpoint, counters, last_seen, named entities;
    the request's active entities that are still live."""
    t, req = plan.turn, plan.turn.req
    others = plan.answered.others if chosen and plan.answered else ()
    active = [i for i in req.active_entity_ids if i not in others]
    row = FinishRow(
        user_id=req.user_id,
        agent_id=req.agent_id,
        key=t.key,
        request_hash=t.digest,
        response=response,
        now=t.now,
        session_id=session.session_id,
        last_seq=session.last_seq,
        message_count=len(t.rows),
        facts_new=sum(r.outcome in ("created", "superseded_previous") for r in results),
        seen_ids=[*_uuids(active), *map(UUID, touched)],
        named_ids=list(map(UUID, touched)),
        message_ids=[r.message_id for r in t.rows],
        said=said_names(r.text for r in t.rows if r.role == "user"),
    )
    return {str(r["entity_id"]) for r in await conn.fetch(sql.FINISH, *row)}


def _written(
    plan: TurnPlan,
    response: CommitResponse,
    facts: Facts,
    touched: list[str],
    live: set[str],
    forgotten: Forgotten | None,
    chosen: UUID | None,
) -> Written:
    """The committed answer, and what the work after the commit needs."""
    changed = {r.rel_id for r in facts.results if r.outcome != "unchanged"}
    changed |= {r.replaced_id for r in facts.results if r.replaced_id}
    changed |= {UUID(f.fact_id) for f in facts.superseding.ended}
    return Written(
        response,
        sorted(changed, key=str),
        touched,
        live,
        forgotten,
        (*plan.questions, *facts.todos.done.questions, *facts.todos.named.questions),
        (*(plan.answered.closes if chosen and plan.answered else ()), *plan.closes_asked),
        tuple(plan.answered.others) if chosen and plan.answered else (),
    )


def said_names(texts: Iterable[str]) -> list[str]:
    """Every word of the person's messages and every run of two or three, folded as names
    are: an active entity moves its ``last_seen`` only when one of them is its name, its
    first name or an alias ("luca", "work luca"). A carried focus is not a mention, so two
    namesakes both in focus stay told apart by which was last said (003 §10 "most recent");
    the namesakes an answer set aside are not in focus at all."""
    out: set[str] = set()
    for text in texts:
        words = re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", fold(text))
        for size in (1, 2, 3):
            out.update(" ".join(words[i : i + size]) for i in range(len(words) - size + 1))
    return sorted(out)


def _uuids(values: list[str]) -> list[UUID]:
    out = []
    for value in values:
        try:
            out.append(UUID(value))
        except ValueError:
            continue
    return out
