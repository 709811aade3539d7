-- 0005 the write path (memory-upserter): fact vectors bookkeeping and stable entity refs.
--
-- relations.indexed_at mirrors episodes/knowledge_chunks.indexed_at: NULL means "the vector
-- index does not reflect this row yet" — an ACTIVE fact needs its point upserted, any other
-- status needs its point marked inactive. Writers leave it NULL in the transaction and set it
-- after the index answered; POST /v1/reindex sweeps the NULLs.
ALTER TABLE relations ADD COLUMN indexed_at timestamptz;
CREATE INDEX relations_unindexed_idx ON relations (user_id, created_at) WHERE indexed_at IS NULL;
COMMENT ON COLUMN relations.indexed_at IS
    'When the facts vector index last reflected this row (content and active flag); NULL = '
    'sweep it (POST /v1/reindex).';

-- entity_ref (person:marta) is the 000 entity key and the primaryRef of every memory key, so it
-- must name one entity per user: the writer suffixes a taken slug (person:marta_2). The self
-- entity ('self:user') is created once per user through this index (race-safe ON CONFLICT).
DROP INDEX entities_user_ref_idx;
CREATE UNIQUE INDEX entities_user_ref_key ON entities (user_id, entity_ref)
    WHERE entity_ref IS NOT NULL;
