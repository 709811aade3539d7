"""A fact's text is what a person would read: no entity ref and no turn id in it (issue 31 §8:
"person:marta lives in Lisbon (turn Crasha-135" was stored as a fact).

A plan's text may copy what the model saw beside the GRAPH lines: an entity's ref becomes the
entity's name, the user's own ref "the user", and a "(turn …)" note naming an id is dropped.
Pure: the caller passes the entities the plan wrote.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from services.core.memory_store.keys import SELF_REF

_TURN_NOTE = re.compile(r"\s*[(\[]\s*turn[\s:#]+[\w.:-]*\d[\w.:-]*\s*[)\]]?", re.IGNORECASE)
_SPACES = re.compile(r"\s{2,}")


def plain_fact_text(text: str, refs: Iterable[tuple[str, str]]) -> str:
    """``text`` with each ``(ref, name)`` ref read as its name and turn notes dropped; the
    text as given when nothing of the kind is in it."""
    out = text
    for ref, name in sorted({*refs, (SELF_REF, "the user")}, key=lambda r: -len(r[0])):
        if ref in out:
            out = re.sub(rf"(?<![\w:]){re.escape(ref)}(?![\w:-])", name, out)
    out = _TURN_NOTE.sub("", out)
    out = _SPACES.sub(" ", out).strip()
    return out or text
