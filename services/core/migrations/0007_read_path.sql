-- 0007 read path: graph-hydrator's foundation query reads only the facts that can be
-- foundation (pinned, seeded or importance 3), instead of every active fact of the user.

CREATE INDEX relations_foundation_idx ON relations (user_id)
    WHERE status = 'ACTIVE' AND (pinned OR source = 'seeded_profile' OR importance = 3);
