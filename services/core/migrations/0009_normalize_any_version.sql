-- twin_normalize gives the same answer on every PostgreSQL version.
--
-- unaccent's rules grew after PostgreSQL 15: 17+ also map ª -> a, º -> o, µ -> μ and
-- ¼ ½ ¾ -> ' 1/4' ' 1/2' ' 3/4'. A normalization that changes with the server breaks the
-- promise of IMMUTABLE (stored *_normalized columns would disagree with query-time keys after
-- a move between versions) and the Python fold (services/graph_hydrator/text.py) that mirrors
-- it. This keeps the behaviour every deployment so far was built on (15's rules), so nothing
-- stored changes. Text without those six characters (nearly all) takes one regex test and the
-- same single unaccent call as before; text with them has ¼ ½ ¾ spelled out before unaccent as
-- 15 does, and ª º µ hidden from it behind three private-use characters (U+E000..U+E002, which
-- therefore fold to ª º µ too).

CREATE OR REPLACE FUNCTION twin_normalize(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN lower(CASE
        WHEN value !~ '[ªºµ¼½¾]' THEN public.unaccent('public.unaccent'::regdictionary, value)
        ELSE translate(
            public.unaccent('public.unaccent'::regdictionary,
                replace(replace(replace(translate(value, 'ªºµ', U&'\E000\E001\E002'),
                                        '¼', '1/4'), '½', '1/2'), '¾', '3/4')),
            U&'\E000\E001\E002', 'ªºµ')
    END);

COMMENT ON FUNCTION twin_normalize(text) IS
    'lower(unaccent(text)) with PostgreSQL 15''s rules on every version: the one normalization '
    'for names, aliases and todo texts (Márta -> marta).';
