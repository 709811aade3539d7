"""What quotes a forgotten row outside its own table, dropped or cleared with it (inside the
forget's transaction, per user): the todos' source snippets of a forgotten session, the
summary-spine versions and the seed text that mention a forgotten name or text. Each returns
how many rows it changed, for the receipt.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from services.core.deps import Connection
from services.memory_upserter.forget.store import NAMES_SQL, TEXT_SQL


async def clear_snippets(conn: Connection, user_id: str, session_id: UUID) -> int:
    """A hard-forgotten session leaves no quotes behind in the todos captured during it."""
    status = await conn.execute(
        "UPDATE todos SET source_snippet = NULL WHERE user_id = $1 "
        "AND session_id = $2 AND source_snippet IS NOT NULL",
        user_id,
        session_id,
    )
    return int(status.split()[-1])


async def drop_summaries(
    conn: Connection,
    user_id: str,
    *,
    everything: bool,
    texts: Sequence[str],
    names_pattern: str | None,
) -> int:
    """Drop the summary-spine versions that mention a forgotten name or text (all of them when
    the user's whole memory goes); the spine is derived and is written again from what
    remains. Returns how many versions went."""
    if not (everything or texts or names_pattern):
        return 0
    status = await conn.execute(
        f"DELETE FROM summary_spine s WHERE s.user_id = $1 AND ($4 OR {_mentions('s.text')} "
        f"OR {_mentions('s.content::text')})",
        user_id,
        list(texts),
        names_pattern,
        everything,
    )
    return int(status.split()[-1])


async def drop_seed(
    conn: Connection, user_id: str, *, texts: Sequence[str], names_pattern: str | None
) -> int:
    """Drop the person's seed text ("User context", reaching every prompt) when it mentions a
    forgotten name or text; ``POST /v1/profile`` can give a new one. Returns 0 or 1."""
    if not (texts or names_pattern):
        return 0
    status = await conn.execute(
        f"DELETE FROM user_seeds s WHERE s.user_id = $1 AND ({_mentions('s.content')})",
        user_id,
        list(texts),
        names_pattern,
    )
    return int(status.split()[-1])


def _mentions(col: str) -> str:
    """SQL: ``col`` names a forgotten name ($3) or contains a forgotten text ($2)."""
    return NAMES_SQL.format(names="$3", col=col) + " OR " + TEXT_SQL.format(texts="$2", col=col)
