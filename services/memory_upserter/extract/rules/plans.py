"""Plans told in conversation, as todos with their date: an arrangement in the present
progressive with a time to come ("I'm flying to Paris next Friday", "Next week I'm visiting my
parents in Ohio", "I'm getting married next month!") and an engagement one has ("I have a big
presentation on Thursday").

Only with a date that is still to come: "I'm visiting my parents" (now, or no date) and "I had
a presentation on Thursday" (past) are no plan. Their place in the todo table: :mod:`.rules`."""

from __future__ import annotations

import re
from datetime import datetime

from services.memory_upserter.extract.due import find_due
from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.registry import todo_rule
from services.memory_upserter.extract.rules.todos import _task
from services.memory_upserter.extract.temporal import validity

_ARRANGED = (
    r"getting\s+married|flying|driving|going|visiting|moving|traveling|travelling|heading|leaving|"
    r"starting|meeting|seeing|having|hosting|throwing|celebrating|attending|competing|performing|"
    r"presenting|interviewing|taking|running|playing|signing\s+up|graduating|launching|opening"
)
_ENGAGEMENTS = (
    r"presentation|interview|job\s+interview|exam|test|appointment|meeting|deadline|game|match|"
    r"recital|performance|show|gig|competition|tournament|race|surgery|check-?up|flight|"
    r"doctor'?s\s+appointment|dentist\s+appointment|audition|date|concert|wedding|party"
)


def _when(out: Emitter, task: str) -> datetime | None:
    """A date still to come, in the task or its sentence ("next Friday", "next month")."""
    due = find_due(task, out.now) or find_due(out.sentence, out.now)
    if due is not None:
        return due.at if due.at > out.now else None
    start = validity(out.sentence, out.now).valid_from  # "next month", "in June"
    return start if start is not None and start > out.now else None


def _untimed(task: str, out: Emitter) -> str:
    """The task without the time words the clause grammar reads ("next month", "in June"), up to
    where its sentence turns ("…, we'll be discussing", "… and I'm feeling good about it"), its
    purpose left out ("hosting a dance competition [to showcase local talent]")."""
    task = re.sub(r"\s+", " ", validity(task, out.now).text)
    task = _TURNS.split(task, maxsplit=1)[0]
    task = re.sub(r"(?i)\s+(?:coming\s+up|soon)$", "", task.strip(" ,.!"))
    purpose = next(
        (p for p in _PURPOSE.finditer(task) if len(task[: p.start()].split()) >= 3), None
    )
    task = task[: purpose.start()] if purpose is not None else task
    return task.strip(" ,.!")


_TURNS = re.compile(r"\s*[,;]\s*|\s+(?:and|but|so)\s+(?=(?:I|I'm|it|it's|we|we're|that)\b)|\s+-\s+")
_PURPOSE = re.compile(
    r"(?i)\s+(?:to|so\s+(?:that\s+)?I\s+can|in\s+order\s+to)\s+"
    r"(?!(?:the|a|an|my|our|his|her|their|this|that|some)\b)(?=[a-z])"
)  # "taking the kids to the aquarium" is where, not what for


@todo_rule(
    "arranged",
    rf"(?i:\b(?:I(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:also\s+|finally\s+|actually\s+|officially\s+)?)"
    rf"(?P<task>(?i:{_ARRANGED})\b.+)$",
)
def _arranged(m: re.Match[str], out: Emitter) -> None:
    """ "I'm flying to Paris next Friday": a plan with its date."""
    task = _task(m["task"]).rstrip(" .!")
    if re.match(
        r"(?i)going\s+(?:to\s+)?(?:be|have|need|try|make|miss|keep|do|get|start)\b", task
    ) or (re.match(r"going\s+to\s+(?!(?:the|a|an|my|our|his|her|their|this|that)\b)[a-z]", task)):
        return  # "I'm going to be …", "… to call mom": the will-rules (:mod:`.todos`) read them
    if re.match(r"(?i)(?:having|taking)\s+(?:a\s+)?(?:hard|tough|rough|great|good|blast|fun|break|"
                r"nap|rest|look|moment|day)\b", task):  # fmt: skip
        return  # "I'm having a tough week": no plan
    when = _when(out, task)
    if len(task.split()) >= 2 and when is not None:
        out.todo("COMMITMENT", _untimed(task, out), also_due_in=out.sentence, at=when)


@todo_rule(
    "have_engagement",
    rf"(?i:\bI(?:'ve\s+got|\s+have(?:\s+got)?)\s+(?:a|an|my|the)\s+)(?P<task>(?:[\w'-]+\s+){{0,2}}?"
    rf"(?i:{_ENGAGEMENTS})\b.*)$",
)
def _have_engagement(m: re.Match[str], out: Emitter) -> None:
    """ "I have a big presentation on Thursday": an engagement with its date."""
    task = _task(m["task"]).rstrip(" .!")
    when = _when(out, task)
    if when is not None:
        out.todo("COMMITMENT", _untimed(task, out), also_due_in=out.sentence, at=when)
