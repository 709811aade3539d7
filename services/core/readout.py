"""The offline readout's mark (pure): how every node tells the product talking from the person.

With no model configured the reply is a readout of memory (the playground's ``offline_reply``),
not something anyone said. It is logged as the assistant's message of the turn (the
conversation stays whole), but it is never memory: no vector is written for it, rag-gate never
recalls it as a turn or as a turn's context, and the slow brain never reads it into an episode,
a summary or a psyche item. Without this, a question like "Who is Marta?" is answered from
the earlier readouts that listed Marta, and each readout quotes the last one.

One rule in one place: a text is a readout when it starts with :data:`MARKER`.
"""

from __future__ import annotations

MARKER = "(offline: no model configured)"


def readout(body: str) -> str:
    """``body`` marked as an offline readout."""
    return f"{MARKER} {body}"


def is_readout(text: str | None) -> bool:
    """Whether a logged text is an offline readout (leading whitespace allowed)."""
    return text is not None and text.lstrip().startswith(MARKER)
