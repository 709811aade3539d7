-- 0004 the agents' library (003 §2.4): pre-digested chunks of ingested documents.
--
-- Knowledge belongs to an agent, not to a user: every user of that agent sees it. A chunk may
-- carry a user_id, for a document about or for one person; then only that user sees it (with
-- that agent), and it goes when the user is deleted. This is the one table whose indexes do not
-- lead with user_id.

CREATE TABLE knowledge_chunks (
    chunk_id      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    agent_id      text NOT NULL REFERENCES agents ON DELETE CASCADE,
    user_id       text REFERENCES users ON DELETE CASCADE,  -- NULL = every user of the agent
    domain        text NOT NULL DEFAULT 'general' CHECK (char_length(domain) BETWEEN 1 AND 64),
    doc_id        text NOT NULL CHECK (char_length(doc_id) BETWEEN 1 AND 255),
    doc_title     text,
    section_path  jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(section_path) = 'array'),
    position      integer NOT NULL CHECK (position >= 0),  -- order within the document
    text          text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 20000),
    content_hash  text NOT NULL,  -- sha256 hex of the chunk text (with its heading trail)
    token_count   integer CHECK (token_count >= 0),
    indexed_at    timestamptz,    -- when its vector was upserted; NULL = (re)index it
    active        boolean NOT NULL DEFAULT true,
    forgotten_at  timestamptz,
    forget_reason text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
-- Re-ingesting an unchanged document is a no-op: ON CONFLICT on this index DO UPDATE only
-- position/active; chunks of the old version not seen again are set active = false.
CREATE UNIQUE INDEX uniq_knowledge_chunks ON knowledge_chunks (
    agent_id, COALESCE(user_id, ''), doc_id, content_hash
);
CREATE INDEX knowledge_chunks_agent_domain_idx ON knowledge_chunks (agent_id, domain);
CREATE INDEX knowledge_chunks_agent_doc_idx ON knowledge_chunks (agent_id, doc_id, position);
CREATE INDEX knowledge_chunks_user_idx ON knowledge_chunks (user_id, agent_id)
    WHERE user_id IS NOT NULL;
CREATE INDEX knowledge_chunks_unindexed_idx ON knowledge_chunks (created_at)
    WHERE indexed_at IS NULL AND active;
COMMENT ON TABLE knowledge_chunks IS
    'Agent knowledge as chunks (markdown -> heading-trail sections), the canonical store behind '
    'the knowledge vectors. Written by memory-upserter''s ingestion; read by rag-gate (hits come '
    'from the vector index, text from here or the payload).';
