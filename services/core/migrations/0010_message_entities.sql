-- 0010 message entities: the entities a turn named, on each of its messages.
--
-- memory-upserter writes them with the turn (the same ids its message points carry), so
-- rag-gate reads them with the message rows it already loads and its messages search asks
-- the vector index for ids only (one engine call instead of two), and the sweep that indexes
-- a message later (POST /v1/reindex) gives its point the turn's entities, which it could not
-- before. Messages logged before this migration get the entities of the facts that cite them
-- (the turn's own entity writes were not kept): a message a fact was drawn from gets that
-- fact's subject and object, the person's own entity aside, as a turn's writes never hold it;
-- the rest stay empty, as a message that named no one.

ALTER TABLE messages ADD COLUMN entity_ids uuid[] NOT NULL DEFAULT '{}';

UPDATE messages m
   SET entity_ids = cited.ids
  FROM (SELECT r.user_id, x.message_id::uuid AS message_id,
               array_agg(DISTINCT e.entity_id) AS ids
          FROM relations r
         CROSS JOIN LATERAL jsonb_array_elements_text(r.provenance_message_ids) AS x(message_id)
         CROSS JOIN LATERAL (VALUES (r.subject_id), (r.object_id)) AS v(entity_id)
          JOIN entities e ON e.user_id = r.user_id AND e.entity_id = v.entity_id
         WHERE e.entity_ref IS DISTINCT FROM 'self:user'
           AND x.message_id ~ '^[0-9a-fA-F-]{36}$'
         GROUP BY r.user_id, x.message_id) AS cited
 WHERE m.user_id = cited.user_id AND m.message_id = cited.message_id;

COMMENT ON COLUMN messages.entity_ids IS
    'The entities the turn named (its entity writes), as on its point in the messages vector '
    'collection; read by rag-gate to rank recalled turns.';
