"""The product's own question about todos, in one wording, and reading it back (pure):
"Which one is done: 'Call Marta' or 'Book the dentist'?" — asked when a "done" (or a "drop")
fits several pending todos, and read back when the person's next message answers it
(:func:`.answer.todo_answer`, "the dentist one"); and the words of calling a todo off
(:func:`called_off`)."""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import Literal

Verb = Literal["done", "dropped"]
MAX_LISTED = 5
_ASKED = re.compile(r"^Which one is (?P<verb>done|dropped): (?P<listed>.+)\?$")
_ITEM = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")


def ask(verb: Verb, texts: Sequence[str]) -> str:
    """The question listing ``texts`` (at most :data:`MAX_LISTED`, each cut at 60 characters)."""
    listed = " or ".join(repr(text[:60]) for text in texts[:MAX_LISTED])
    return f"Which one is {verb}: {listed}?"


def read_asked(question: str) -> tuple[Verb, list[str]] | None:
    """The verb and the todo texts a question of :func:`ask` lists; None for any other text."""
    m = _ASKED.match(question.strip())
    if m is None:
        return None
    texts = [ast.literal_eval(item) for item in _ITEM.findall(m["listed"])]
    verb: Verb = "done" if m["verb"] == "done" else "dropped"
    return (verb, texts) if texts else None


# calling a todo off, not doing it: "nvm the card", "never mind", "no need anymore", "skip it"
# ("cancelled the gym" is the todo "cancel the gym" done: not here)
_CALLED_OFF = re.compile(
    r"(?i)\b(?:nvm|never\s*mind|forget\s+(?:about\s+)?it|no\s+need|not\s+needed|"
    r"no\s+longer\s+need\w*|don'?t\s+need\s+(?:it|to|that)|skip\s+(?:it|that)|"
    r"scratch\s+that|not\s+doing\s+(?:it|that)|call(?:ed|ing)?\s+(?:it\s+)?off)\b"
)


def called_off(said: Sequence[str]) -> bool:
    """The person's words call a todo off (:data:`_CALLED_OFF`): a ``done`` the plan names
    then is a ``dropped`` (a small model's "done" for "nvm the farewell card")."""
    return any(_CALLED_OFF.search(text) for text in said)
