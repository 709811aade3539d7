"""Plans said the everyday way, as todos (the user's own only, :meth:`Emitter.todo`):

- a note the person asks the product to keep: "don't let me forget to call mom", "must
  remember to …", "note to self: call the bank", "todo: buy milk";
- an appointment with its day: "i have a dentist appointment tomorrow at 3", "a meeting with my
  boss on monday" — only with a day said;
- a trip or a plan in the present tense with a day to come: "i'm flying to berlin on friday",
  "i'm seeing the doctor next week" — only with a day to come ("I'm going to …" is
  :mod:`.todos`' ``i_will``).
"""

from __future__ import annotations

import re

from services.memory_upserter.extract.due import find_due
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


_EVENTS = (
    r"(?:dentist(?:'s)?\s+|doctor(?:'s)?\s+|hair(?:dresser)?\s+|vet\s+|job\s+|GP\s+)?"
    r"(?:appointment|appt|meeting|interview|exam|test|flight|check-?up|date|session|"
    r"presentation|deadline|call)"
)


@todo_rule(
    "appointment",
    rf"(?i:\b(?:I|we)\s+(?:have|'ve\s+got|have\s+got|got)\s+(?:an?|my|our|the)\s+)"
    rf"(?P<task>(?i:{_EVENTS})\b.*)$",
)
def _appointment(m: re.Match[str], out: Emitter) -> None:
    """ "I have a dentist appointment tomorrow at 3": a reminder, only with its day."""
    task = re.split(r"(?i)\s*(?:[,;!]|\s-\s|\s+but\s+|\s+and\s+I\b)", m["task"], maxsplit=1)[0]
    before = m.string[: m.start()]  # "tomorrow I have a dentist appointment"
    due = find_due(task, out.now) or find_due(before, out.now)
    if due is not None and due.at > out.now:
        out.todo("REMINDER", task, also_due_in=before)


@todo_rule(
    "going_to_on",
    r"(?i:\b(?:I'm|I\s+am|we're|we\s+are)\s+)(?P<task>(?:flying|driving|heading|travel+ing|moving|"
    r"seeing|meeting|visiting|hosting|starting|taking|having)\s+.+)$",
)
def _going_to_on(m: re.Match[str], out: Emitter) -> None:
    """ "i'm flying to berlin on friday": a plan, only with a day to come said."""
    task = re.split(
        r"(?i)\s*(?:[,;!]|\s-\s|\s+but\s+|\s+and\s+I\b|\s+so\s+)", m["task"], maxsplit=1
    )[0]
    due = find_due(task, out.now)
    if due is not None and due.at > out.now:
        out.todo("COMMITMENT", task)
