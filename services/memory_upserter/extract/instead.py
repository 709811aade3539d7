"""What a correction puts in place of what it ends (pure): "i don't live in porto, it's lisbon"
ends "I live in Porto" (:func:`.assertion.ended`) and states "I live in lisbon" — the ended
statement with its value replaced by the one said after "it's"."""

from __future__ import annotations

import re
from collections.abc import Sequence

_ITS = re.compile(
    r"(?i),\s*(?:(?:it'?s|it\s+is|that'?s)\s+(?:actually\s+|really\s+)?)(?P<new>[^,.;:!?]{2,40}?)"
    r"(?:\s*,?\s*not\s+[^,.;:!?]+)?\s*[.!]*$"
)


def said_instead(clause: str, restated: str, ended: Sequence[str]) -> str | None:
    """The statement a clause makes in place of the one it ended, or None: ``restated`` (the
    ended statement, "I live in porto") with the ended value (one of ``ended``, as the facts
    wrote it) replaced by what follows "it's"."""
    m = _ITS.search(clause)
    if m is None:
        return None
    for value in ended:
        found = re.search(rf"(?i)(?<!\w){re.escape(value)}(?!\w)", restated)
        if found is not None:
            new = m["new"].strip()
            if value[:1].isupper():  # a name for a name: "porto" → "Lisbon"'s casing
                new = " ".join(w[:1].upper() + w[1:] for w in new.split())
            return restated[: found.start()] + new + restated[found.end() :]
    return None
