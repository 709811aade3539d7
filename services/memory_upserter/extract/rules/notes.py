"""Notes the person asks the product to keep, as reminders (the user's own only,
:meth:`Emitter.todo`): "don't let me forget to call mom", "must remember to …", "note to self:
call the bank", "todo: buy milk" — a request, so also in a question; never a note about the
person ("note to self: i'm an idiot")."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.registry import todo_rule

_NOT_A_TASK = re.compile(r"(?i)^(?:I\b|I'm|I've|you\b|it\b|that\b|this\b|myself\b)")


@todo_rule(
    "note_to_self",
    r"(?i:(?:^\W*|[,:;.!]\s*|\b(?:please|pls|and|also|just|ok|okay)\s+)(?:(?:don't|do\s+not)\s+let\s+me\s+"
    r"forget\s+to|(?:I\s+)?must\s+remember\s+to|(?:I\s+)?(?:have|need)\s+to\s+remember\s+to|"
    r"note\s+to\s+self\s*[:,-]?|to-?do\s*:|reminder\s*:))\s+(?P<task>.+)$",
    requested=True,
)
def _note_to_self(m: re.Match[str], out: Emitter) -> None:
    task = m["task"].strip()
    if not _NOT_A_TASK.match(task):
        out.todo("REMINDER", task)
