"""The model's own suggestion is not the person's fact (pure).

"i can do 3 runs a week, mon wed sat" — the model replies "Let's make Saturday your long run
day" and writes "User does long runs on saturday": every word but "long" the person said, so
grounding only lowered it. A word of a fact about the person that the person never said but the
reply said in a suggestion ("let's", "try", "you could", "how about", "make sure"…) is the
model's idea: :func:`suggested` names those words, and the commit drops the fact."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_SUGGESTION = re.compile(
    r"(?i)\b(?:let['’]?s|try|you\s+(?:could|should|might|can)|how\s+about|why\s+not|"
    r"i['’]?d\s+(?:suggest|recommend)|consider|make\s+sure|don['’]?t\s+forget|remember\s+to|"
    r"go\s+for|aim\s+for|start\s+with|swap|add)\b"
)
_SENTENCES = re.compile(r"[.!?\n]+|—|;")


def suggestions(reply: str | None) -> list[str]:
    """The reply's sentences that suggest something to the person."""
    return [s for s in _SENTENCES.split(reply or "") if _SUGGESTION.search(s)]


def suggested(
    missing: Sequence[str], reply: str | None, said_in: Callable[[str, str], bool]
) -> list[str]:
    """The fact's unsaid words the reply's suggestions say (``said_in``: grounding's test of
    a word against a text)."""
    ideas = suggestions(reply)
    return [w for w in missing if not w.isdigit() and any(said_in(w, s) for s in ideas)]
