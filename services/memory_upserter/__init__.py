"""memory-upserter: applies the memory-write plan of a turn idempotently (messages, session,
entities, facts, todos, working memory, fact vectors); ingests agent knowledge; seeds profiles;
forgets on request."""
