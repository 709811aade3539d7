-- 0002 the declarative graph (003 §4.1–4.2, 000 memory metadata): entities, their aliases,
-- and relations — edges between entities and literal facts about them.
--
-- Foreign keys between a user's rows are composite (user_id, id) -> (user_id, id): an edge or
-- alias can never point at another user's entity, whatever the application does.

CREATE TABLE entities (
    entity_id       uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id         text NOT NULL REFERENCES users ON DELETE CASCADE,
    scope           text NOT NULL DEFAULT 'global' CHECK (scope IN ('global', 'agent')),
    agent_id        text REFERENCES agents ON DELETE CASCADE,
    name            text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 255),
    name_normalized text NOT NULL GENERATED ALWAYS AS (twin_normalize(name)) STORED,
    category        text NOT NULL DEFAULT 'Other' CHECK (category IN (
                        'Person', 'Location', 'Org', 'Project', 'Goal', 'Food', 'Habit', 'Pet',
                        'Thing', 'Event', 'Other')),
    entity_ref      text CHECK (entity_ref ~ '^[a-z_]+:[^[:space:]]+$'),  -- person:john_doe
    last_seen       timestamptz,
    confidence      numeric(3,2) NOT NULL DEFAULT 1.0 CHECK (confidence BETWEEN 0 AND 1),
    attributes      jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(attributes) = 'object'),
    active          boolean NOT NULL DEFAULT true,
    forgotten_at    timestamptz,
    forget_reason   text,
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT entities_agent_scope CHECK ((scope = 'agent') = (agent_id IS NOT NULL)),
    CONSTRAINT entities_user_entity_key UNIQUE (user_id, entity_id)
);
CREATE INDEX entities_user_scope_category_idx ON entities (user_id, scope, category);
CREATE INDEX entities_user_name_idx ON entities (user_id, name_normalized);
CREATE INDEX entities_user_ref_idx ON entities (user_id, entity_ref) WHERE entity_ref IS NOT NULL;
COMMENT ON TABLE entities IS
    'Identity nodes of a user''s world (people, places, goals, foods, habits...). Same-name '
    'entities are separate rows, told apart by attributes, aliases and last_seen (003 §10). '
    'Written by memory-upserter (and seeding); read by graph-hydrator and rag-gate.';


CREATE TABLE entity_aliases (
    alias_id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id          text NOT NULL REFERENCES users ON DELETE CASCADE,
    entity_id        uuid NOT NULL,
    alias            text NOT NULL CHECK (char_length(alias) BETWEEN 1 AND 255),
    alias_normalized text NOT NULL GENERATED ALWAYS AS (twin_normalize(alias)) STORED,
    source           text NOT NULL DEFAULT 'llm_plan',
    created_at       timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (user_id, entity_id) REFERENCES entities (user_id, entity_id) ON DELETE CASCADE,
    CONSTRAINT entity_aliases_entity_alias_key UNIQUE (entity_id, alias_normalized)
);
CREATE INDEX entity_aliases_user_alias_idx ON entity_aliases (user_id, alias_normalized);
COMMENT ON TABLE entity_aliases IS
    'Other names of an entity ("Mom", "work Marta"), matched on alias_normalized exactly like '
    'entities.name_normalized. Written by memory-upserter (plan aliases, disambiguation answers); '
    'read by graph-hydrator. An alias row lives and dies with its entity.';


CREATE TABLE relations (
    rel_id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id                text NOT NULL REFERENCES users ON DELETE CASCADE,
    scope                  text NOT NULL DEFAULT 'global' CHECK (scope IN ('global', 'agent')),
    agent_id               text REFERENCES agents ON DELETE CASCADE,
    subject_id             uuid NOT NULL,
    predicate              varchar(64) NOT NULL CHECK (predicate ~ '^[A-Za-z][A-Za-z0-9_]*$'),
    object_id              uuid,
    object_value           jsonb CHECK (octet_length(object_value::text) <= 2000),
    metadata               jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
    confidence             numeric(3,2) NOT NULL DEFAULT 1.0 CHECK (confidence BETWEEN 0 AND 1),
    memory_type            text NOT NULL CHECK (memory_type IN (
                               'PROFILE', 'PEOPLE', 'PROJECT', 'PSYCHE')),
    fact_type              text NOT NULL DEFAULT 'fact' CHECK (fact_type IN (
                               'fact', 'preference', 'relationship', 'friction', 'habit',
                               'trait', 'value', 'belief')),
    memory_key             text,  -- 000: type|entityType|primaryRef|factType
    text                   text NOT NULL CHECK (char_length(text) BETWEEN 1 AND 2000),
    importance             smallint NOT NULL DEFAULT 1 CHECK (importance BETWEEN 0 AND 3),
    pinned                 boolean NOT NULL DEFAULT false,
    source                 text NOT NULL CHECK (source IN (
                               'shadow_extraction', 'llm_plan', 'seeded_profile', 'curated_fold',
                               'reflection', 'manual')),
    status                 text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN (
                               'ACTIVE', 'ARCHIVED', 'SUPERSEDED', 'FORGOTTEN')),
    active                 boolean NOT NULL GENERATED ALWAYS AS (status = 'ACTIVE') STORED,
    valid_from             timestamptz,
    valid_to               timestamptz,
    superseded_by          uuid REFERENCES relations ON DELETE SET NULL,
    folded_into            uuid REFERENCES relations ON DELETE SET NULL,
    provenance_message_ids jsonb NOT NULL DEFAULT '[]'
                               CHECK (jsonb_typeof(provenance_message_ids) = 'array'),
    reference_count        integer NOT NULL DEFAULT 0 CHECK (reference_count >= 0),
    last_referenced_at     timestamptz,
    forgotten_at           timestamptz,
    forget_reason          text,
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT relations_agent_scope CHECK ((scope = 'agent') = (agent_id IS NOT NULL)),
    CONSTRAINT relations_one_object CHECK ((object_id IS NULL) <> (object_value IS NULL)),
    CONSTRAINT relations_pinned_importance CHECK (NOT pinned OR importance = 3),
    CONSTRAINT relations_validity CHECK (valid_to IS NULL OR valid_from IS NULL
                                         OR valid_to >= valid_from),
    CONSTRAINT relations_forgotten CHECK (status <> 'FORGOTTEN' OR forgotten_at IS NOT NULL),
    FOREIGN KEY (user_id, subject_id) REFERENCES entities (user_id, entity_id) ON DELETE CASCADE,
    FOREIGN KEY (user_id, object_id) REFERENCES entities (user_id, entity_id) ON DELETE CASCADE
);

-- 003's uniq_relations, limited to ACTIVE rows: a closed (superseded, archived, forgotten) fact
-- may be stated again later and become a new ACTIVE row. ON CONFLICT must repeat the
-- expressions and the WHERE clause exactly.
CREATE UNIQUE INDEX uniq_relations ON relations (
    user_id, scope, COALESCE(agent_id, ''), subject_id, predicate,
    COALESCE(object_id, '00000000-0000-0000-0000-000000000000'::uuid),
    COALESCE(object_value, '{}'::jsonb)
) WHERE status = 'ACTIVE';

-- 000 memoryKey dedup: at most one ACTIVE fact per key and scope; the same key updates.
CREATE UNIQUE INDEX uniq_relations_memory_key
    ON relations (user_id, scope, COALESCE(agent_id, ''), memory_key)
    WHERE status = 'ACTIVE' AND memory_key IS NOT NULL;

CREATE INDEX relations_user_subject_idx ON relations (user_id, subject_id);
CREATE INDEX relations_user_object_idx ON relations (user_id, object_id)
    WHERE object_id IS NOT NULL;
CREATE INDEX relations_user_predicate_idx ON relations (user_id, predicate);
CREATE INDEX relations_user_status_pinned_idx ON relations (user_id, status, pinned);
-- Self-references: keep ON DELETE SET NULL from scanning the table on a hard delete.
CREATE INDEX relations_superseded_by_idx ON relations (superseded_by)
    WHERE superseded_by IS NOT NULL;
CREATE INDEX relations_folded_into_idx ON relations (folded_into) WHERE folded_into IS NOT NULL;

COMMENT ON TABLE relations IS
    'Facts: edges subject -predicate-> object entity, or literal facts subject -predicate-> '
    'object_value (exactly one). status is the lifecycle (active is generated from it: set '
    'status, never active). A contradiction closes the old row (status SUPERSEDED, valid_to, '
    'superseded_by = the new row); the curator archives duplicates (ARCHIVED) and folds groups '
    '(folded_into = the curated_fold row); nothing is deleted except by a hard forget. PSYCHE '
    'rows come from reflection and rank below stated facts. Written by memory-upserter and '
    'reflection-writer (curator); read by graph-hydrator and rag-gate.';
