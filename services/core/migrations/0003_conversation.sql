-- 0003 conversations and what is made of them: sessions, the durable message log, episodes
-- (reflection + session summary), todos/goals and the summary spine (000, 002, 003 §4.3).

CREATE TABLE sessions (
    session_id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id                   text NOT NULL REFERENCES users ON DELETE CASCADE,
    agent_id                  text NOT NULL REFERENCES agents ON DELETE CASCADE,
    chat_id                   text NOT NULL CHECK (char_length(chat_id) BETWEEN 1 AND 128),
    started_at                timestamptz NOT NULL DEFAULT now(),
    last_activity_at          timestamptz NOT NULL DEFAULT now(),
    ended_at                  timestamptz,
    turn_count                integer NOT NULL DEFAULT 0 CHECK (turn_count >= 0),
    -- Consolidation checkpoint, in messages.seq: the newest message logged in this session and
    -- the newest one already consolidated into an episode. Unconsolidated turns = the gap.
    last_message_seq          bigint,
    checkpoint_message_seq    bigint,
    consolidated_at           timestamptz,
    flagged_for_consolidation boolean NOT NULL DEFAULT false,
    needs_consolidation       boolean NOT NULL GENERATED ALWAYS AS (
                                  last_message_seq IS NOT NULL
                                  AND last_message_seq > COALESCE(checkpoint_message_seq, 0)
                              ) STORED,
    -- Lease of the reflection-writer working on this session (not an advisory lock: the work
    -- spans LLM calls, and pooled connections must not carry session-level locks).
    locked_until              timestamptz,
    locked_by                 text,
    created_at                timestamptz NOT NULL DEFAULT now(),
    updated_at                timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT sessions_user_session_key UNIQUE (user_id, session_id),
    CONSTRAINT sessions_ended_after_start CHECK (ended_at IS NULL OR ended_at >= started_at),
    CONSTRAINT sessions_checkpoint_in_range CHECK (
        checkpoint_message_seq IS NULL OR checkpoint_message_seq <= last_message_seq)
);
-- At most one open session per (user, agent, chat): get-or-create is a single
-- INSERT ... ON CONFLICT (user_id, agent_id, chat_id) WHERE ended_at IS NULL DO UPDATE.
CREATE UNIQUE INDEX sessions_one_open_key ON sessions (user_id, agent_id, chat_id)
    WHERE ended_at IS NULL;
CREATE INDEX sessions_user_chat_activity_idx
    ON sessions (user_id, agent_id, chat_id, last_activity_at DESC);
-- The slow brain's sweep, across users: sessions with unconsolidated turns, oldest first.
CREATE INDEX sessions_consolidation_due_idx ON sessions (last_activity_at)
    WHERE needs_consolidation;
COMMENT ON TABLE sessions IS
    'A contiguous stretch of one (user, agent, chat) conversation, closed after the idle gap. '
    'memory-upserter opens/extends it and advances last_message_seq on every commit; '
    'reflection-writer claims quiet or flagged ones (lease: locked_until/locked_by), writes an '
    'episode for the turns after checkpoint_message_seq and advances the checkpoint.';


CREATE TABLE messages (
    message_id    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    seq           bigint GENERATED ALWAYS AS IDENTITY,  -- global append order
    user_id       text NOT NULL REFERENCES users ON DELETE CASCADE,
    agent_id      text NOT NULL REFERENCES agents ON DELETE CASCADE,
    chat_id       text NOT NULL CHECK (char_length(chat_id) BETWEEN 1 AND 128),
    session_id    uuid NOT NULL,
    turn_id       text NOT NULL CHECK (char_length(turn_id) BETWEEN 1 AND 128),
    position      smallint NOT NULL DEFAULT 0 CHECK (position >= 0),  -- order within the turn
    role          text NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
    speaker       text,
    text          text NOT NULL CHECK (char_length(text) <= 20000),
    external_id   text,  -- Telegram message id, LoCoMo turn id "D1:3", ...
    ts            timestamptz NOT NULL,
    metadata      jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
    active        boolean NOT NULL DEFAULT true,
    forgotten_at  timestamptz,
    forget_reason text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (user_id, session_id) REFERENCES sessions (user_id, session_id)
        ON DELETE CASCADE,
    -- A retried commit of the same turn can never log a message twice.
    CONSTRAINT messages_turn_position_key UNIQUE (user_id, agent_id, chat_id, turn_id, position)
);
CREATE INDEX messages_user_session_seq_idx ON messages (user_id, session_id, seq);
CREATE INDEX messages_user_external_idx ON messages (user_id, external_id)
    WHERE external_id IS NOT NULL;
COMMENT ON TABLE messages IS
    'The durable message log: both sides of every turn, keyed by the commit''s turn_id and '
    'position (0 = user, 1 = assistant by convention). Written by memory-upserter; read by '
    'reflection-writer (turns since the checkpoint) and for provenance. Working memory in Redis '
    'is a cache of its tail.';


CREATE TABLE episodes (
    episode_id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id             text NOT NULL REFERENCES users ON DELETE CASCADE,
    agent_id            text NOT NULL REFERENCES agents ON DELETE CASCADE,
    scope               text NOT NULL DEFAULT 'agent' CHECK (scope IN ('global', 'agent')),
    chat_id             text,
    session_id          uuid,
    ts                  timestamptz NOT NULL,  -- time of the last consolidated message
    day                 date NOT NULL,         -- ts's date in the user's time zone (day log)
    importance          numeric(3,2) NOT NULL DEFAULT 0.5 CHECK (importance BETWEEN 0 AND 1),
    reflection          text NOT NULL CHECK (char_length(reflection) BETWEEN 1 AND 8000),
    reflection_json     jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(reflection_json) = 'object'),
    summary             jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(summary) = 'object'),
    entity_ids          jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(entity_ids) = 'array'),
    tags                jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(tags) = 'array'),
    -- The consolidated range of messages.seq; first_message_seq is the retry key.
    first_message_seq   bigint NOT NULL,
    last_message_seq    bigint NOT NULL,
    provenance          jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(provenance) = 'object'),
    previous_episode_id uuid REFERENCES episodes ON DELETE SET NULL,
    linked_todo_ids     jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(linked_todo_ids) = 'array'),
    indexed_at          timestamptz,  -- when its vector was upserted; NULL = (re)index it
    active              boolean NOT NULL DEFAULT true,
    forgotten_at        timestamptz,
    forget_reason       text,
    created_at          timestamptz NOT NULL DEFAULT now(),
    updated_at          timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (user_id, session_id) REFERENCES sessions (user_id, session_id)
        ON DELETE SET NULL (session_id),
    CONSTRAINT episodes_range CHECK (last_message_seq >= first_message_seq),
    -- A retried consolidation of the same checkpoint range finds this row instead of adding one.
    CONSTRAINT episodes_range_key UNIQUE (user_id, first_message_seq)
);
CREATE INDEX episodes_user_agent_ts_idx ON episodes (user_id, agent_id, ts DESC);
CREATE INDEX episodes_user_day_idx ON episodes (user_id, day);
CREATE INDEX episodes_user_session_idx ON episodes (user_id, session_id)
    WHERE session_id IS NOT NULL;
CREATE INDEX episodes_previous_idx ON episodes (previous_episode_id)
    WHERE previous_episode_id IS NOT NULL;
-- Repair sweep, across users: episodes whose vector was never written.
CREATE INDEX episodes_unindexed_idx ON episodes (created_at) WHERE indexed_at IS NULL AND active;
COMMENT ON TABLE episodes IS
    'Episode = one consolidated session range (002): the grounded reflection (text + '
    'Observation/Action/Evidence/Unresolved/Hypothesis JSON) and the session summary '
    '(one_liner, what_mattered, open_loops, commitments, people, tone) in one row; the latest '
    'session summary is the newest episode''s summary. previous_episode_id is the temporal chain, '
    'the day log is a query on (user_id, day). Written by reflection-writer; read by rag-gate '
    '(through the vector index) and graph-hydrator. The vector index only points at these rows.';


CREATE TABLE todos (
    todo_id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id           text NOT NULL REFERENCES users ON DELETE CASCADE,
    agent_id          text NOT NULL REFERENCES agents ON DELETE CASCADE,
    kind              text NOT NULL CHECK (kind IN (
                          'COMMITMENT', 'THREAD', 'FRICTION', 'HABIT', 'REMINDER', 'GOAL')),
    text              text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 500),
    text_normalized   text NOT NULL GENERATED ALWAYS AS (twin_normalize(text)) STORED,
    status            text NOT NULL DEFAULT 'PENDING' CHECK (status IN (
                          'PENDING', 'DONE', 'DROPPED')),
    due_at            timestamptz,
    source_snippet    text CHECK (char_length(source_snippet) <= 2000),
    source_message_id uuid,  -- no FK: the todo outlives a hard-forgotten message row
    chat_id           text,
    session_id        uuid,
    episode_id        uuid REFERENCES episodes ON DELETE SET NULL,
    completed_at      timestamptz,  -- when it left PENDING (done or dropped)
    active            boolean NOT NULL DEFAULT true,
    forgotten_at      timestamptz,
    forget_reason     text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    updated_at        timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (user_id, session_id) REFERENCES sessions (user_id, session_id)
        ON DELETE SET NULL (session_id),
    CONSTRAINT todos_completed CHECK ((status = 'PENDING') = (completed_at IS NULL))
);
-- The same pending todo is captured once, however often it is said (or a turn is retried).
CREATE UNIQUE INDEX uniq_todos_pending ON todos (user_id, agent_id, kind, text_normalized)
    WHERE status = 'PENDING' AND active;
CREATE INDEX todos_user_agent_status_kind_idx ON todos (user_id, agent_id, status, kind);
CREATE INDEX todos_user_session_idx ON todos (user_id, session_id) WHERE session_id IS NOT NULL;
CREATE INDEX todos_episode_idx ON todos (episode_id) WHERE episode_id IS NOT NULL;
COMMENT ON TABLE todos IS
    'Goals, commitments, threads, frictions, habits, reminders: agent-scoped (000), captured '
    'instantly on the hot path with the source snippet that explains them (002). Written by '
    'memory-upserter (capture, conservative completion) and reflection-writer (episode_id link); '
    'read by graph-hydrator (pending commitments/threads/frictions, recent wins).';


CREATE TABLE summary_spine (
    user_id             text NOT NULL REFERENCES users ON DELETE CASCADE,
    version             integer NOT NULL CHECK (version > 0),
    content             jsonb NOT NULL CHECK (jsonb_typeof(content) = 'object'),
    text                text NOT NULL CHECK (char_length(text) <= 1200),
    message_count       integer NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    through_message_seq bigint,  -- newest message this version has seen
    created_at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, version)
);
COMMENT ON TABLE summary_spine IS
    'The rolling long-term summary (000 SummarySpine), per user across agents, versioned: a new '
    'version (PROFILE/PROJECTS/PEOPLE/OPEN_LOOPS content + <= 1200-char text) every ~20 messages; '
    'two writers racing for the same version collide on the primary key. Written by '
    'reflection-writer; read (latest version) when the prompt is assembled.';
