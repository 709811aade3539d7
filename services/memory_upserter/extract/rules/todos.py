"""The offline extractor's todo rules: reminders, lists, goals, commitments, threads,
frictions and habits — the user's own only (:meth:`Emitter.todo` drops other speakers')."""

from __future__ import annotations

import re

from services.memory_upserter.extract.due import find_due
from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.registry import todo_rule

# --- todos (the user's own only) ---------------------------------------------------------------


@todo_rule(
    "remind_me",
    r"(?i:\bremind\s+me\s+)(?P<pre>.*?)(?i:to|that\s+I\s+(?:need|have)\s+to)\s+"
    r"(?P<task>.+)$",
    requested=True,
)
def _remind_me(m: re.Match[str], out: Emitter) -> None:
    out.todo("REMINDER", m["task"], also_due_in=m["pre"])


@todo_rule(
    "add_to_list",
    r"(?i:\b(?:add|put)\s+)(?P<task>.+?)(?i:\s+(?:to|on)\s+my\s+(?:to-?do\s+|"
    r"task\s+|goals?\s+|bucket\s+)?(?:list|goals|tasks))\b",
    requested=True,
)
def _add_to_list(m: re.Match[str], out: Emitter) -> None:
    out.todo("GOAL", m["task"])


@todo_rule("my_goal", r"(?i:\bmy\s+(?:new\s+|main\s+)?goal\s+is\s+to)\s+(?P<task>.+)$")
def _my_goal(m: re.Match[str], out: Emitter) -> None:
    out.todo("GOAL", m["task"])


@todo_rule(
    "i_will",
    r"(?i:\bI(?P<verb>'ll|\s+will|\s+am\s+going\s+to|'m\s+going\s+to|'m\s+gonna|\s+"
    r"promise\s+to|\s+commit\s+to|\s+plan\s+to))\s+(?P<task>.+)$",
)
def _i_will(m: re.Match[str], out: Emitter) -> None:
    promised = re.search(r"(?i)promise|commit", m["verb"])
    if promised or find_due(m["task"], out.now):
        out.todo("COMMITMENT", m["task"])


@todo_rule(
    "need_to_figure",
    r"(?i:\bI\s+(?:still\s+)?(?:need|have)\s+to\s+)(?P<verb>(?i:figure\s+out|"
    r"decide|think\s+about|sort\s+out|work\s+out))\s+(?P<task>.+)$",
)
def _need_to_figure(m: re.Match[str], out: Emitter) -> None:
    out.todo("THREAD", f"{m['verb'].lower()} {m['task']}", dated=False)


@todo_rule(
    "keep_doing",
    r"(?i:\bI\s+(?:keep|always\s+end\s+up|constantly\s+end\s+up))\s+"
    r"(?P<task>\w+ing\b.*)$",
)
def _keep_doing(m: re.Match[str], out: Emitter) -> None:
    out.todo("FRICTION", f"keeps {m['task']}", dated=False)


@todo_rule(
    "struggle",
    r"(?i:\bI(?:'m|\s+am)?\s+(?:really\s+|still\s+)?struggl(?:e|ing)\s+(?:with|to))"
    r"\s+(?P<task>.+)$",
)
def _struggle(m: re.Match[str], out: Emitter) -> None:
    out.todo("FRICTION", f"struggles with {m['task']}", dated=False)


@todo_rule(
    "habit",
    r"(?i:\b(?:every|each)\s+(?P<when>morning|day|evening|night|week|weekend|monday|"
    r"tuesday|wednesday|thursday|friday|saturday|sunday)\s*,?\s+I)\s+(?P<task>.+)$",
)
def _habit(m: re.Match[str], out: Emitter) -> None:
    out.todo("HABIT", f"{m['task'].rstrip(' .!')} every {m['when'].lower()}", dated=False)


@todo_rule(
    "need_to_by",
    r"(?i:^\W*(?:I\s+)?(?:really\s+|still\s+)?(?:need|have|gotta|got)\s+to\s+)(?!figure|decide|"
    r"think|sort|work\s+out)(?P<task>.+)$",
)
def _need_to_by(m: re.Match[str], out: Emitter) -> None:
    """ "need to renew my passport before March": a commitment only when it is dated."""
    if find_due(m["task"], out.now):
        out.todo("COMMITMENT", m["task"])


# --- todos closed (plan.done / plan.dropped, by the person's words) ----------------------------
# The words only name a todo: the commit resolves them among the pending ones, or closes none.

_DONE_VERB = r"(?:already|just|finally|now)"
_TASK_END = r"(?P<task>[^,.;:!?]{3,80}?)\s*(?=[,.;:!?]|$)"


@todo_rule(
    "already_did",
    rf"(?i:\bI(?:'ve|\s+have)?\s+{_DONE_VERB}\s+)(?P<task>\w+ed\b[^,.;:!?]{{0,80}}?)"
    r"\s*(?=[,.;:!?]|$)",
)
def _already_did(m: re.Match[str], out: Emitter) -> None:
    if out.is_user:
        out.done.append(m["task"])


@todo_rule(
    "done_with",
    rf"(?i:\b(?:I'm\s+|I\s+am\s+)?(?:done\s+with|finished|completed|crossed\s+off|ticked\s+off)"
    rf"\s+)(?!it\b|that\b|this\b){_TASK_END}",
)
def _done_with(m: re.Match[str], out: Emitter) -> None:
    if out.is_user:
        out.done.append(m["task"])


@todo_rule(
    "forget_it",
    rf"(?i:\b(?:forget|drop|scratch|cancel|skip)\s+(?:about\s+)?)(?!it\b|that\b|this\b|me\b)"
    rf"{_TASK_END}(?=.*\b(?i:cancel(?:l?ed)?|not\s+(?:doing|happening|needed)|no\s+longer|"
    r"anymore|off)\b|[,.;:!?]?\s*$)",
    requested=True,
)
def _forget_it(m: re.Match[str], out: Emitter) -> None:
    if out.is_user:
        out.dropped.append(m["task"])


@todo_rule(
    "no_need",
    r"(?i:\b(?:no\s+need\s+to|I\s+(?:don't|do\s+not|no\s+longer)\s+(?:need|have)\s+to))\s+"
    r"(?P<task>[^,.;:!?]{3,80}?)(?:\s+anymore)?\s*(?=[,.;:!?]|$)",
    requested=True,
)
def _no_need(m: re.Match[str], out: Emitter) -> None:
    if out.is_user:
        out.dropped.append(m["task"])


@todo_rule(
    "is_cancelled",
    r"(?i:\b(?:the\s+)?)(?P<task>[a-z][\w' -]{2,60}?)\s+(?i:(?:is|was|got|has\s+been)\s+"
    r"(?:cancell?ed|called\s+off|off))\b",
    requested=True,
)
def _is_cancelled(m: re.Match[str], out: Emitter) -> None:
    if out.is_user:
        out.dropped.append(m["task"])
