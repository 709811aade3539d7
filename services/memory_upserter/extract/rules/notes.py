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


@todo_rule(
    "set_a_reminder",
    r"(?i:\b(?:set|add|make|create|put\s+in|need|want)\s+(?:me\s+)?a\s+reminder\s+(?:to|for|about)|"
    r"\bremind\s+me\s+(?:about|abt|of\s+the|2)|\bdon't\s+forget\s+to\s+remind\s+me\s+(?:to|about)|"
    r"\bdo\s+not\s+forget\s+to\s+remind\s+me\s+(?:to|about))\s+(?P<task>.+)$",
    requested=True,
)
def _set_a_reminder(m: re.Match[str], out: Emitter) -> None:
    """ "set a reminder to call mom at 5pm", "remind me about the dentist on monday", "don't
    forget to remind me to call mom", "remind me 2 call mom tmrw"."""
    task, before = m["task"].strip(), m.string[: m.start()]
    asked = re.search(r"(?i)\b(?:can|could|would|will|pls|please)\s+(?:you|u)\s*$", before)
    said_of = re.search(r"(?i)\b(?:you|u|he|she|it|that|this|they|which|who|always)\s*$", before)
    if said_of and not asked:
        return  # "you remind me about my sister": a likeness, not a request
    if not _NOT_A_TASK.match(task) and not re.match(r"(?i)(?:how|that|when|why|what)\b", task):
        out.todo("REMINDER", task)
