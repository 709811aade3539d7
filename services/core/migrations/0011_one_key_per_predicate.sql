-- 0011 one key per predicate: a fact's memory key no longer holds its memory type or fact type.
--
-- The key was {memory_type}|{entity_type}|{ref}|{fact_type}|{predicate}[|{object}], so
-- "works_at" filed once as PROJECT and once as PROFILE (or as a fact and as a relationship)
-- made two keys: two current jobs, the old one never superseded. It is now
-- {fact|psyche}|{entity_type}|{ref}|{predicate}[|{object}] (services/core/memory_store/keys.py):
-- "psyche" for a reflection's PSYCHE guess, which never supersedes what the person said.
-- Every keyed row is re-keyed. Where two live rows now share a key (the split this fixes), the
-- one that began last holds it and the others are closed as superseded by it, ending where it
-- began (never later than their own end), as a write would have closed them.

CREATE TEMPORARY TABLE rekeyed ON COMMIT DROP AS
SELECT r.rel_id, r.user_id, r.scope, COALESCE(r.agent_id, '') AS agent, r.status,
       r.valid_from, r.created_at,
       concat_ws('|', CASE WHEN r.memory_type = 'PSYCHE' THEN 'psyche' ELSE 'fact' END,
                 split_part(r.memory_key, '|', 2), split_part(r.memory_key, '|', 3),
                 split_part(r.memory_key, '|', 5),
                 NULLIF(split_part(r.memory_key, '|', 6), '')) AS key
  FROM relations r
 WHERE r.memory_key IS NOT NULL;

CREATE TEMPORARY TABLE holders ON COMMIT DROP AS
SELECT rel_id, user_id, scope, agent, key, valid_from, created_at,
       first_value(rel_id) OVER w AS holder,
       first_value(COALESCE(valid_from, created_at)) OVER w AS holder_from,
       row_number() OVER w AS n
  FROM rekeyed
 WHERE status = 'ACTIVE'
WINDOW w AS (PARTITION BY user_id, scope, agent, key
             ORDER BY COALESCE(valid_from, created_at) DESC, created_at DESC, rel_id);

UPDATE relations r
   SET status = 'SUPERSEDED',
       valid_to = LEAST(COALESCE(r.valid_to, 'infinity'),
                        GREATEST(h.holder_from, COALESCE(r.valid_from, h.holder_from))),
       superseded_by = h.holder, updated_at = now(), indexed_at = NULL
  FROM holders h
 WHERE h.n > 1 AND r.rel_id = h.rel_id;

UPDATE relations r
   SET memory_key = k.key
  FROM rekeyed k
 WHERE r.rel_id = k.rel_id AND r.memory_key IS DISTINCT FROM k.key;
