"""rag-gate: decides whether a turn needs retrieval and returns EPISODE, KNOWLEDGE and
relevant facts (FACTS), plus the previous session's continuity."""
