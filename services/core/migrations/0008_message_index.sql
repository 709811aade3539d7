-- 0008 message index: every committed message is also a point of the ``messages`` vector
-- collection (dense + BM25), so rag-gate can recall the raw turn that said something, with its
-- date and speaker. indexed_at works as on relations and episodes: NULL until the point is
-- upserted after the commit; memory-upserter's sweep (POST /v1/reindex) repairs the rest,
-- which also back-fills the messages logged before this migration.

ALTER TABLE messages ADD COLUMN indexed_at timestamptz;
CREATE INDEX messages_unindexed_idx ON messages (created_at)
    WHERE indexed_at IS NULL AND active;
COMMENT ON COLUMN messages.indexed_at IS
    'When its point in the messages vector collection was written; NULL = (re)index it.';
