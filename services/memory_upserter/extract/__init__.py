"""The offline judge (001): a memory-write plan from the person's own words, by rule. Pure: it
imports no driver (no asyncpg, redis, qdrant, openai, litestar)."""
