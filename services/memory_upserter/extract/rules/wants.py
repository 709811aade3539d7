"""Plans and goals said the everyday way, as todos: with "we" ("we're planning to go to the beach
next weekend", "we'll paint the shed on sunday"), weighed ("we're thinking about going camping
next month": *Consider going camping*), planned as a thing ("I'm planning a trip to Italy"),
put off ("I've been meaning to try rock climbing") or wanted ("I want to open my own bakery").

A want is a goal only when it names an act one can pursue (:data:`talk._GOAL_VERB`), never an
outing or a moment ("I want to see you", "I wanna go home"), never words about the listener
("I want to thank you"), and never what is past ("I always wanted to …" as a kid, "I used to
want …"). Their place in the todo table: :mod:`.rules`."""

from __future__ import annotations

import re

from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.registry import todo_rule
from services.memory_upserter.extract.rules.talk import _GOAL_VERB, _OUTING, _VAGUE_GOAL, _own_task
from services.memory_upserter.extract.rules.todos import _i_will

_WE = r"\b(?:we|me\s+and\s+(?:my\s+)?\w+|(?:my\s+)?\w+\s+and\s+I)"
# "this summer", "next year": when, not a pronoun (the time is the todo's due, :meth:`Emitter.todo`)
_WHEN = re.compile(
    r"(?i)\b(?:this|that|next)\s+(?:summer|winter|spring|fall|autumn|year|month|week|weekend)\b"
)
# Time words a goal is said with that no due date reads: the goal is the act alone.
_SOMEDAY = re.compile(
    r"(?i)\s+(?:someday|some\s+day|one\s+day|eventually|in\s+the\s+future|at\s+some\s+point|"
    r"(?:in\s+)?the\s+near\s+future|down\s+the\s+(?:road|line))\s*$"
)
# An act weighed in its -ing form; never a feeling, a saying or a state ("thinking of you",
# "considering everything", "thinking about moving on").
_WEIGHED = re.compile(
    r"(?i)(?!(?:going\s+(?:to\s+)?(?:bed|sleep|home|out|back|crazy|nuts)|going\s+through|"
    r"moving\s+on|being|feeling|getting\s+(?:better|over|back\s+to\s+"
    r"you)|doing\s+(?:it|that|this|something|more)|making\s+(?:it|a\s+change)|giving\s+up)\b)"
    r"(?:going|getting|starting|taking|doing|trying|joining|signing\s+up|learning|visiting|"
    r"traveling|travelling|moving|buying|adopting|opening|building|making|writing|painting|"
    r"planting|hosting|throwing|organi[sz]ing|booking|applying|volunteering|running|training|"
    r"entering|camping|hiking|renovating|redoing|selling|launching|creating|taking\s+up|"
    r"picking\s+up|heading|flying|driving|checking\s+out|working\s+with|collaborating|"
    r"partnering|teaming\s+up|reaching\s+out\s+to\s+(?!you)|expanding|hiring|switching|"
    r"enrolling|studying|going\s+back)\b"
)


@todo_rule(
    "we_will",
    rf"(?i:{_WE}(?P<verb>'ll|\s+will|'re\s+going\s+to|\s+are\s+going\s+to|'re\s+gonna|\s+are\s+"
    rf"gonna|\s+plan\s+to|'re\s+planning\s+to|\s+are\s+planning\s+to))\s+"
    rf"(?:definitely\s+|also\s+|then\s+|finally\s+)?(?P<task>.+)$",
)
def _we_will(m: re.Match[str], out: Emitter) -> None:
    """ "we're planning to go to the beach next weekend": the person's plan, as "I'll …" is."""
    _i_will(m, out)


@todo_rule(
    "thinking_of",
    r"(?i:\b(?:I(?:'m|\s+am|'ve\s+been|\s+have\s+been)|we(?:'re|\s+are|'ve\s+been|\s+have\s+been))"
    r"\s+(?:seriously\s+|really\s+|still\s+|also\s+|kinda\s+|kind\s+of\s+|sort\s+of\s+)?"
    r"(?:considering|thinking\s+(?:about|of)|planning\s+on))\s+(?P<task>[a-z]+ing\b.+)$",
)
def _thinking_of(m: re.Match[str], out: Emitter) -> None:
    """ "We're thinking about going camping next month": a plan weighed, with its date."""
    task = _own_task(m["task"])
    if task is None or not _WEIGHED.match(task) or _VAGUE_GOAL.search(_WHEN.sub("", task)):
        return
    weighed = re.search(r"(?i)planning", m.group(0)) is None
    out.todo("GOAL", f"Consider {task}" if weighed else task)


@todo_rule(
    "planning_a",
    r"(?i:\b(?:I(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:also\s+|currently\s+|already\s+|now\s+)?"
    r"planning)\s+(?P<task>(?:a|an|my|our|the)\s+(?!lot\b|bit\b)[^,.;:!?]+)",
)
def _planning_a(m: re.Match[str], out: Emitter) -> None:
    """ "I'm planning a trip to Italy for my anniversary": a plan, named by its thing."""
    task = _own_task(m["task"])
    if task is not None and not _VAGUE_GOAL.search(_WHEN.sub("", task)):
        out.todo("COMMITMENT", f"Plan {task}")


@todo_rule(
    "want_to",
    r"(?i:\bI(?:'ve|\s+have)?\s+(?:really\s+|also\s+|still\s+|always\s+|seriously\s+)*"
    r"(?:want(?:ed)?|been\s+wanting|been\s+meaning)\s+to|\bI\s+(?:really\s+)?wanna)\s+"
    r"(?P<task>.+)$",
)
def _want_to(m: re.Match[str], out: Emitter) -> None:
    """ "I want to open my own bakery someday", "I've been meaning to try rock climbing"."""
    said = m.group(0)[: m.start("task") - m.start()]
    if re.search(r"(?i)\bwanted\b", said) and not re.search(r"(?i)\b(?:always|'ve|have)\b", said):
        return  # "I wanted to say …": the past, a moment
    task = _own_task(m["task"])
    if task is None:
        return
    task = _SOMEDAY.sub("", task)
    meaning = re.search(r"(?i)meaning", said) is not None
    if (
        (meaning or _GOAL_VERB.match(task))
        and not (_OUTING.match(task) and not meaning)
        and not _VAGUE_GOAL.search(_WHEN.sub("", task))
        and not re.match(r"(?i)make\s+sure\b", task)
    ):
        out.todo("GOAL", task, dated=not re.search(r"(?i)\bwanted\b", said))
