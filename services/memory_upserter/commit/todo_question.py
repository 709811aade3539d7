"""The product's own question about todos, in one wording, and reading it back (pure):
"Which one is done: 'Call Marta' or 'Book the dentist'?" — asked when a "done" (or a "drop")
fits several pending todos, and read back when the person's next message answers it
(:func:`.answer.todo_answer`, "the dentist one")."""

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
