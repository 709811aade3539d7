"""The plan's todos as rows (pure): each once, with its due time, the user's sentence it comes
from and that sentence's message (002 "source_ref")."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from contracts.memory import Notice
from contracts.plan import MemoryWritePlan
from services.memory_upserter.commit.turn import MessageRow, ReadTurn, TodoRow
from services.memory_upserter.extract.due import parse_due
from services.memory_upserter.text import SENTENCES, TODO_CUES, fold, statement_in, words


def todo_rows(
    plan: MemoryWritePlan, turn: ReadTurn, own: list[MessageRow], path: str = "plan"
) -> tuple[list[TodoRow], list[Notice]]:
    """Each todo once, with its due time, source sentence and message; a notice for a due
    time not understood, and one for a due already past (a date written outright, "2025":
    kept, overdue; a month gone by is the coming one, :func:`.due.parse_due`)."""
    todos: list[TodoRow] = []
    notes: list[Notice] = []
    seen: set[tuple[str, str]] = set()
    user_texts = [(i, r.text) for i, r in enumerate(turn.rows) if r in own]
    for i, todo in enumerate(plan.todos):
        key = (todo.kind, fold(todo.text))
        if key in seen:
            continue
        seen.add(key)
        due = parse_due(todo.due, turn.now) if todo.due else None
        if todo.due and due is None:
            notes.append(
                Notice(
                    code="due_not_understood",
                    detail=f"todo {todo.text[:60]!r}: due {todo.due!r} ignored",
                )
            )
        elif due is not None and due < turn.now:
            notes.append(
                Notice(
                    code="due_in_past",
                    detail=f"{path}.todos[{i}].due: {todo.due!r} is past "
                    f"({due:%Y-%m-%d %H:%M}): kept, overdue",
                )
            )
        snippet, index = source_of(todo.text, todo.source_snippet, user_texts)
        message_id = turn.rows[index].message_id if index is not None else None
        todos.append(TodoRow(uuid.uuid4(), todo.kind, todo.text, due, snippet, message_id))
    return todos, notes


def source_of(
    todo_text: str, snippet: str | None, user_texts: Sequence[tuple[int, str]]
) -> tuple[str | None, int | None]:
    """The user's sentence a todo comes from, and the index of its message (002 "source_ref").
    A snippet the plan gives is kept when a user message contains it."""
    if not user_texts:
        return snippet, None
    if snippet:
        for index, text in user_texts:
            if fold(snippet) in fold(text) or statement_in(snippet, [text]):
                return snippet, index
    wanted = set(words(todo_text))
    best = (0.0, user_texts[-1][0], user_texts[-1][1].strip())
    for index, text in user_texts:
        for sentence in SENTENCES.split(text):
            overlap = len(wanted & set(words(sentence)))
            score = overlap + (0.5 if overlap and TODO_CUES.search(sentence) else 0.0)
            if score and score >= best[0]:
                best = (score, index, sentence.strip())
    return (snippet or best[2][:2000]) or None, best[1]
