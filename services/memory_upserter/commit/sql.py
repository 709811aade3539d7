"""The SQL of a commit's transaction; :func:`~.transaction.transaction` runs it, statement by
statement, with the named rows of :mod:`.rows`.

Order matters: the user lock first (every writer of a user's graph takes it first, so lock
order cannot deadlock), then the stored answer (a retry stops here and rolls back), the
messages and session, entities before the facts that name them, the pending todos read before
this turn's are captured (a commitment captured now never counts as the one pending), and the
answer stored last with the counters, so a committed turn always has its replayable answer.
The pure decisions come in pieces of data, so the transaction never stops to think: once the
pending todos are read, :func:`~.todos.bare_done` (the todo a bare "done" completes); once the
entities exist, :func:`~.fact_writes.fact_writes`; once all is written,
:func:`~.response.respond`.

Round trips of one commit, in one transaction (``BEGIN`` … ``COMMIT`` included; the judge's
context, read before it, is :mod:`.judge_store`'s): BEGIN · user lock · :data:`OPEN`
(users/agents rows, stale session closed, idempotency key read) · :data:`LOG` (session
get-or-create + every message, one statement) · distinct namesakes ×1–2 (only with
``distinct_from``) · entities ×2 (lookup, write; only with entities) · self entity ×1 (only
when a fact is about the user) · the pending todos ×1 (only when the user says done or the
plan names todos done or dropped; :mod:`.todos`) · the handles the plan replaces and ends ×1–2
(:mod:`.supersede`; only with handles) · the todos closed ×1 (only when one is picked) · facts
×2–3 (read live rows, close contradicted, write; only with facts) · todos ×1 (only with todos) ·
:data:`FINISH` (idempotency answer, session checkpoint, counters, last_seen, the entities the
turn named on its messages) · COMMIT. A full 10-item plan: 12–14; a bare turn: 6.
"""

OPEN = """
WITH u AS (INSERT INTO users (user_id) VALUES ($1) ON CONFLICT DO NOTHING),
     a AS (INSERT INTO agents (agent_id) VALUES ($2) ON CONFLICT DO NOTHING),
     closed AS (
        UPDATE sessions
           SET ended_at = GREATEST(started_at, LEAST($4, last_activity_at + $5::interval)),
               updated_at = $4
         WHERE user_id = $1 AND agent_id = $2 AND chat_id = $3 AND ended_at IS NULL
           AND last_activity_at < $4::timestamptz - $5::interval
        RETURNING session_id)
SELECT k.request_hash, k.response, (SELECT count(*) FROM closed) AS closed
  FROM (SELECT 1) one LEFT JOIN idempotency_keys k ON k.user_id = $1 AND k.key = $6
"""

LOG = """
WITH s AS (
    INSERT INTO sessions (session_id, user_id, agent_id, chat_id, started_at, last_activity_at,
                          turn_count, created_at, updated_at)
    VALUES ($4, $1, $2, $3, $5, $5, $6, $5, $5)
    ON CONFLICT (user_id, agent_id, chat_id) WHERE ended_at IS NULL DO UPDATE
       SET last_activity_at = GREATEST(sessions.last_activity_at, EXCLUDED.last_activity_at),
           turn_count = sessions.turn_count + EXCLUDED.turn_count,
           updated_at = EXCLUDED.updated_at
    RETURNING session_id, (xmax = 0) AS created),
m AS (
    INSERT INTO messages (message_id, user_id, agent_id, chat_id, session_id, turn_id, position,
                          role, speaker, text, external_id, ts, created_at)
    SELECT x.id, $1, $2, $3, s.session_id, $7, x.pos, x.role, x.speaker, x.text, x.ext, x.ts, $5
      FROM s, unnest($8::uuid[], $9::int2[], $10::text[], $11::text[], $12::text[], $13::text[],
                     $14::timestamptz[]) AS x(id, pos, role, speaker, text, ext, ts)
    RETURNING seq)
SELECT s.session_id, s.created, (SELECT max(seq) FROM m) AS last_seq FROM s
"""

SELF_ALIASES = """
WITH a AS (
    INSERT INTO entity_aliases (user_id, entity_id, alias, source)
    SELECT $1, $2, x, $3 FROM unnest($4::text[]) AS x
    ON CONFLICT (entity_id, alias_normalized) DO NOTHING)
UPDATE users SET display_name = COALESCE(display_name, $5), updated_at = $6 WHERE user_id = $1
"""

DISTINCT = """
SELECT e.entity_id, e.name,
       ARRAY(SELECT r.predicate FROM relations r
              WHERE r.user_id = $1 AND r.object_id = e.entity_id AND r.status = 'ACTIVE'
                AND left(r.predicate, 4) = 'HAS_'
                AND r.subject_id = (SELECT s.entity_id FROM entities s
                                     WHERE s.user_id = $1 AND s.entity_ref = 'self:user'))
       AS roles,
       EXISTS (SELECT 1 FROM entity_aliases a WHERE a.user_id = $1
                  AND a.entity_id = e.entity_id AND a.alias_normalized <> e.name_normalized)
       AS has_alias
  FROM entities e
 WHERE e.user_id = $1 AND e.active AND (e.entity_id::text = $2 OR e.entity_ref = $2
                                        OR e.name_normalized = twin_normalize($2))
 ORDER BY e.entity_id::text = $2 DESC, e.entity_ref = $2 DESC, e.last_seen DESC NULLS LAST
 LIMIT 1
"""
# A person's name corrected: the new name, the old kept as an alias, and the words of their
# live facts ($6: the old spelling's word, $7: the new one; whole words, any case).
RENAME = """
WITH e AS (
    UPDATE entities SET name = $3, updated_at = $5
     WHERE user_id = $1 AND entity_ref = $2 AND active RETURNING entity_id),
a AS (
    INSERT INTO entity_aliases (user_id, entity_id, alias, source)
    SELECT $1, e.entity_id, $4, 'correction' FROM e
    ON CONFLICT (entity_id, alias_normalized) DO NOTHING)
UPDATE relations r
   SET text = regexp_replace(r.text, '\\m' || $6 || '\\M', $7, 'gi'), updated_at = $5
  FROM e
 WHERE r.user_id = $1 AND r.status = 'ACTIVE' AND (r.subject_id = e.entity_id
                                                  OR r.object_id = e.entity_id)
"""
ALIAS = """
INSERT INTO entity_aliases (user_id, entity_id, alias, source) VALUES ($1, $2, $3, $4)
ON CONFLICT (entity_id, alias_normalized) DO NOTHING
"""

FINISH = """
WITH idem AS (
    INSERT INTO idempotency_keys (user_id, key, request_hash, response, status_code,
                                  created_at, completed_at)
    VALUES ($1, $3, $4, $5, 200, $6, $6)),
sess AS (
    UPDATE sessions SET last_message_seq = GREATEST(COALESCE(last_message_seq, 0), $8),
                        updated_at = $6
     WHERE user_id = $1 AND session_id = $7),
counters AS (
    INSERT INTO user_state (user_id, agent_id, message_count, last_interaction_at,
                            spine_messages_since, facts_since_curator, updated_at)
    VALUES ($1, $2, $9, $6, 0, 0, $6), ($1, '', $9, $6, $9, $10, $6)
    ON CONFLICT (user_id, agent_id) DO UPDATE
       SET message_count = user_state.message_count + EXCLUDED.message_count,
           last_interaction_at = GREATEST(user_state.last_interaction_at,
                                          EXCLUDED.last_interaction_at),
           spine_messages_since = user_state.spine_messages_since
                                  + EXCLUDED.spine_messages_since,
           facts_since_curator = user_state.facts_since_curator + EXCLUDED.facts_since_curator,
           updated_at = EXCLUDED.updated_at),
named AS (
    UPDATE messages SET entity_ids = $12::uuid[]
     WHERE cardinality($12::uuid[]) > 0 AND user_id = $1 AND message_id = ANY($13::uuid[])),
seen AS (
    UPDATE entities e SET last_seen = GREATEST(COALESCE(e.last_seen, $6), $6)
     WHERE e.user_id = $1 AND e.entity_id = ANY($11::uuid[]) AND e.active
       AND (e.entity_id = ANY($12::uuid[]) OR e.name_normalized = ANY($14::text[])
            OR EXISTS (SELECT 1 FROM entity_aliases a
                        WHERE a.user_id = $1 AND a.entity_id = e.entity_id
                          AND a.alias_normalized = ANY($14::text[]))
            OR split_part(e.name_normalized, ' ', 1) = ANY($14::text[])))
SELECT entity_id FROM entities WHERE user_id = $1 AND entity_id = ANY($11::uuid[]) AND active
"""

CAPTURE = """
WITH input AS (
    SELECT * FROM unnest($6::uuid[], $7::text[], $8::text[], $9::timestamptz[], $10::text[],
                         $11::uuid[]) WITH ORDINALITY AS t(id, kind, text, due, snippet, msg, i)),
ins AS (
    INSERT INTO todos (todo_id, user_id, agent_id, kind, text, due_at, source_snippet,
                       source_message_id, chat_id, session_id, created_at, updated_at)
    SELECT id, $1, $2, kind, text, due, snippet, msg, $3, $4, $5, $5 FROM input
    ON CONFLICT (user_id, agent_id, kind, text_normalized) WHERE status = 'PENDING' AND active
    DO NOTHING
    RETURNING todo_id)
SELECT COALESCE(old.todo_id, input.id) AS todo_id, input.kind,
       COALESCE(old.text, input.text) AS text, COALESCE(old.due_at, input.due) AS due_at,
       COALESCE(old.source_snippet, input.snippet) AS source_snippet,
       input.id IN (SELECT todo_id FROM ins) AS created
  FROM input
  LEFT JOIN LATERAL (
      SELECT t.todo_id, t.text, t.due_at, t.source_snippet FROM todos t
       WHERE t.user_id = $1 AND t.agent_id = $2 AND t.kind = input.kind
         AND t.text_normalized = twin_normalize(input.text) AND t.status = 'PENDING'
         AND t.active) old ON true
 ORDER BY input.i
"""
