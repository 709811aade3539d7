-- 0001 foundation: name normalization, the people and personas everything hangs off,
-- per-user bookkeeping, request idempotency and the forget audit log.
--
-- Conventions for every later file:
--   * user_id / agent_id are the caller's TEXT ids ("tg:12345", "deanna"), never surrogates;
--   * rows holding a user's data carry user_id (FK users ON DELETE CASCADE) and their indexes
--     lead with it, so every query is per user and a hard "forget me" is one DELETE;
--   * uuid primary keys default to gen_random_uuid(), but writers usually supply the id
--     (so a retried write can use the same one);
--   * every time is timestamptz; writers set updated_at themselves (no triggers);
--   * enumerations are TEXT + CHECK, so adding a value is a one-line migration.

CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;

-- unaccent() is only STABLE (it reads a dictionary), so it cannot appear in a generated column
-- or an index. With the dictionary named explicitly the result cannot change under us, which
-- makes the IMMUTABLE promise true. Every *_normalized column is this function of its source.
CREATE FUNCTION twin_normalize(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN lower(public.unaccent('public.unaccent'::regdictionary, value));

COMMENT ON FUNCTION twin_normalize(text) IS
    'lower(unaccent(text)): the one normalization for names, aliases and todo texts (Márta -> marta).';


CREATE TABLE users (
    user_id      text PRIMARY KEY CHECK (char_length(user_id) BETWEEN 1 AND 128),
    display_name text,
    timezone     text NOT NULL DEFAULT 'UTC',  -- IANA name; episodes.day is computed in it
    created_at   timestamptz NOT NULL DEFAULT now(),
    updated_at   timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE users IS
    'The people whose memory this is, by their external id. Deleting a row hard-deletes all of '
    'their data (every user table cascades from here); forget_log keeps only a content-free audit.';


CREATE TABLE agents (
    agent_id     text PRIMARY KEY CHECK (agent_id ~ '^[A-Za-z0-9_.:-]{1,64}$'),
    display_name text,
    created_at   timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE agents IS
    'The personas (e.g. deanna, anaketa). Writers ensure the row (INSERT ... ON CONFLICT DO '
    'NOTHING) before writing agent-scoped data; agent-scoped rows cascade from here.';


CREATE TABLE user_seeds (
    user_id    text PRIMARY KEY REFERENCES users ON DELETE CASCADE,
    content    text NOT NULL CHECK (char_length(content) <= 800),
    source     text NOT NULL DEFAULT 'manual',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE user_seeds IS
    'UserSeed (000): the raw profile text (<= 800 chars) rendered as "User context". One per '
    'user, global across agents; replaced in place.';


CREATE TABLE user_state (
    user_id              text NOT NULL REFERENCES users ON DELETE CASCADE,
    agent_id             text NOT NULL DEFAULT '',  -- '' = the user-wide row
    message_count        bigint NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    last_interaction_at  timestamptz,
    spine_messages_since integer NOT NULL DEFAULT 0 CHECK (spine_messages_since >= 0),
    facts_since_curator  integer NOT NULL DEFAULT 0 CHECK (facts_since_curator >= 0),
    curator_last_run_at  timestamptz,
    state                jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(state) = 'object'),
    created_at           timestamptz NOT NULL DEFAULT now(),
    updated_at           timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, agent_id)
);
COMMENT ON TABLE user_state IS
    'Durable counters and bookkeeping (000 SessionState minus the rolling summary, which lives '
    'in Redis). agent_id = '''' is the user-wide row: spine_messages_since (new spine version at '
    '>= 20), facts_since_curator and curator_last_run_at (curator runs at 24 h or >= 25 facts). '
    'Per-agent rows count messages across sessions. Counters are bumped with '
    'INSERT ... ON CONFLICT (user_id, agent_id) DO UPDATE SET x = user_state.x + 1.';


CREATE TABLE idempotency_keys (
    user_id      text NOT NULL REFERENCES users ON DELETE CASCADE,
    key          text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 512),
    request_hash text NOT NULL,
    response     jsonb,     -- NULL while the first attempt is still in flight
    status_code  smallint,
    created_at   timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz,
    PRIMARY KEY (user_id, key),
    CHECK ((response IS NULL) = (completed_at IS NULL))
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
COMMENT ON TABLE idempotency_keys IS
    'Replay store for writes n8n may retry: key such as "commit:<agent>:<chat>:<turn_id>". The '
    'same key with the same request_hash returns the stored response; with a different hash it '
    'is a conflict (422/409). Rows older than the retry horizon may be pruned by created_at.';


CREATE TABLE forget_log (
    forget_id   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id     text NOT NULL,  -- deliberately no FK: the audit outlives the user's rows
    agent_id    text,
    chat_id     text,
    scope       text NOT NULL CHECK (scope IN ('session', 'agent', 'global')),
    target_kind text NOT NULL CHECK (target_kind IN (
                    'all', 'session', 'entity', 'fact', 'episode', 'todo', 'message',
                    'knowledge')),
    target_ids  jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(target_ids) = 'array'),
    reason      text,
    hard        boolean NOT NULL DEFAULT false,
    counts      jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(counts) = 'object'),
    request_id  text,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX forget_log_user_created_idx ON forget_log (user_id, created_at DESC);
COMMENT ON TABLE forget_log IS
    'Audit of every forget (003 §9): who, which scope, which ids, soft or hard, how many rows of '
    'each kind. Never stores the forgotten content, so it can survive a hard delete.';
