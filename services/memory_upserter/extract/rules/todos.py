"""The offline extractor's todo rules: reminders, lists, goals, commitments, threads,
frictions and habits — the user's own only (:meth:`Emitter.todo` drops other speakers').

A todo is a plan or a request, never a reminiscence: "remind me to …" is an instruction only
at the start of what is asked ("please remind me", "can you remind me", "…, remind me"), never
"moments like these remind me to …"; "I'm going to / I plan to …" is a plan when it is dated or
names a concrete act ("submit it to some film festivals", "ask around"), never a pep talk ("I'm
gonna keep pushing", "I'll do my best", "I'll let you know") or a maybe ("maybe I'll …"). A task
ends where its sentence turns to something else (" - can't wait", ", but …")."""

from __future__ import annotations

import re

from services.memory_upserter.extract.due import find_due
from services.memory_upserter.extract.emitter import Emitter
from services.memory_upserter.extract.rules.registry import todo_rule
from services.memory_upserter.text import NEGATED, says_done

# A concrete act a plan names ("I'm going to submit it …"), not a pep talk or a promise to talk.
_ACT = re.compile(
    r"(?i)(?:submit|apply|start|open|call|ring|phone|message|email|text|visit|book|buy|finish|write|send|sign\s+up|"
    r"look\s+into|move|take\s+a\s+shot|ask|chat\s+with|talk\s+to|meet|join|host|organi[sz]e|"
    r"throw|learn|cook|bake|set\s+up|launch|build|paint|check\s+out|go\s+to|head\s+to|fly|"
    r"travel|enter|register|pick\s+up|fix|clean|renew|pay|return|adopt|volunteer|sell|"
    r"schedule|plan|prepare|practi[sc]e|research|contact|continue|reach\s+out\s+to\s+(?!you))\b"
    r"(?!\s+(?:you|ya|u)\b)"
)
_STATE = re.compile(
    r"(?i)(?:be|feel|get|stay)\s+(?:\w+ly\s+|so\s+|a\s+bit\s+|a\s+little\s+)?(?:late|early|tired|busy|"
    r"sad|happy|fine|ok|okay|sick|free|around|back|there|home|away|off|out|done|ready|honest|"
    r"quick|alright|bored|lonely|nervous|hungry)\b"
)
_MAYBE = re.compile(r"(?i)\b(?:maybe|perhaps|someday|one\s+day|might|hopefully|if|probably)\b")
_TASK_END = re.compile(r"\s+[-–—]\s+|\s*[!;]|,\s*(?:but|and\s+I|so)\b|\s+but\s+")


def _task(text: str) -> str:
    """A task up to where its sentence turns to something else."""
    return _TASK_END.split(text, maxsplit=1)[0].strip()


# --- todos (the user's own only) ---------------------------------------------------------------


@todo_rule(
    "remind_me",
    r"(?i:(?:^\W*|[,:;]\s*|\b(?:please|pls|plz|can\s+you|could\s+you|would\s+you|will\s+you|"
    r"also|and|just|so|ok|okay|hey)\s+)remind\s+me\s+)(?!of\b|about\s+how\b)(?P<pre>.*?)"
    r"(?i:to|that\s+I\s+(?:need|have)\s+to)\s+"
    r"(?P<task>.+)$",
    requested=True,
)
def _remind_me(m: re.Match[str], out: Emitter) -> None:
    out.todo("REMINDER", m["task"], also_due_in=m["pre"])


@todo_rule(
    "remind_me_after",
    r"^\W*(?P<task>(?!(?i:remind|please|pls|plz|can|could|would|will|I|we|you)\b)[^,.;:!?]{3,120}?)"
    r"(?:\s*,\s*|\s+)(?i:(?:and\s+)?(?:please|pls|plz)\s+)?(?i:remind\s+me)(?:\s+(?i:please|pls|plz))?"
    r"\W*$",
    requested=True,
)
def _remind_me_after(m: re.Match[str], out: Emitter) -> None:
    """ "call beatriz tomorrow, remind me pls": the task said first, the request after — only
    an act ("call …"), never a thing or a feeling ("this song, remind me")."""
    if _ACT.match(m["task"]):
        out.todo("REMINDER", m["task"])


@todo_rule(
    "add_to_list",
    r"(?i:\b(?:add|put)\s+)(?P<task>.+?)(?i:\s+(?:to|on)\s+my\s+(?:to-?do\s+|"
    r"task\s+|goals?\s+|bucket\s+)?(?:list|goals|tasks))\b",
    requested=True,
)
def _add_to_list(m: re.Match[str], out: Emitter) -> None:
    if not re.fullmatch(r"(?i)(?:it|that|this|them|those|these|one)", m["task"].strip()):
        out.todo("GOAL", m["task"])


@todo_rule(
    "my_goal",
    r"(?i:\bmy\s+(?:new\s+|main\s+|big\s+)?goal(?:\s+(?:for\s+)?(?:this|next|the)\s+(?:year|month|"
    r"week|summer|spring|fall|autumn|winter))?\s+is\s+to)\s+(?P<task>.+)$",
)
def _my_goal(m: re.Match[str], out: Emitter) -> None:
    out.todo("GOAL", m["task"])


@todo_rule(
    "i_will",
    r"(?i:\bI(?P<verb>'ll|\s+will|\s+am\s+going\s+to|'m\s+going\s+to|'m\s+gonna|\s+"
    r"promise\s+to|\s+commit\s+to|\s+plan\s+to|'m\s+planning\s+to|\s+am\s+planning\s+to)"
    r"|(?:^\W*|\b(?:so|now|and)\s+)(?P<bare>gonna))\s+(?:definitely\s+|also\s+|then\s+)?"
    r"(?P<task>.+)$",
)
def _i_will(m: re.Match[str], out: Emitter) -> None:
    task = _task(m["task"])
    if re.match(r"(?i:the|a|an|my|our)\b|[A-Z]", task) and "going" in (m["verb"] or "").lower():
        return  # "I'm going to the gym / to Paris": a place, not a verb (:mod:`.plans` reads it)
    promised = re.search(r"(?i)promise|commit", m["verb"] or "")
    maybe = _MAYBE.search(m.string[: m.start("task")])  # "hopefully I'll be … by June"
    if _STATE.match(task) and not promised:
        return  # "I'm going to be late tomorrow": a state to come, not a task
    if re.search(r"(?i)going\s+to$", m["verb"] or "") and re.match(
        r"(?:(?i:the|a|an|my|our)\b|[A-Z])", task
    ):
        return  # "I'm going to the dentist on friday": a trip (:mod:`.plans`), not "going to" + act
    if promised or (not maybe and (find_due(task, out.now) or _ACT.match(task))):
        out.todo("COMMITMENT", _trip(task) if "going" in (m["verb"] or "").lower() else task)


_NOT_PLACE = re.compile(
    r"(?i)(?:relax|rest|sleep|stay|chill|try|see|watch|work|need|be|have|miss|keep|do|take|"
    r"make|get|give|spend|let|use|wait|show|tell|say|think|focus|enjoy|celebrate|hang)\b"
)


def _trip(task: str) -> str:
    """ "I'm going to lisbon next month": a trip, said as one (never the bare place)."""
    return task if _ACT.match(task) or _NOT_PLACE.match(task) else f"go to {task}"


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
    out.todo("FRICTION", f"keeps {_task(m['task'])}", dated=False)


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
    r"(?i:(?:^\W*|(?P<after>,\s*|\s+(?:so|and)\s+))(?:I\s+)?(?:really\s+|still\s+)?(?:(?:need|"
    r"have|got)\s+to|gotta)\s+)(?!figure|decide|think|sort|work\s+out)(?P<task>.+)$",
)
def _need_to_by(m: re.Match[str], out: Emitter) -> None:
    """ "need to renew my passport before March": a commitment only when it is dated — by its
    own words, or by a day to come said just before ("my brother's birthday is on the 14th,
    need to get him a gift": by the 14th)."""
    if find_due(m["task"], out.now):
        out.todo("COMMITMENT", m["task"])
    elif m["after"] is not None:
        due = find_due(m.string[: m.start()], out.now)
        if due is not None and due.at > out.now:
            out.todo("COMMITMENT", m["task"], at=due.at)


@todo_rule(
    "is_due",
    r"(?i:\b(?:working\s+on|writing|preparing|making|finishing|doing)\s+(?P<det>a|an|the|my|our)\s+)"
    r"(?P<thing>[^,.;:!?]{2,40}?)(?i:\s*,?\s*(?:and\s+|which\s+)?(?:it'?s|it\s+is|is)\s+due\b)"
    r"(?P<when>.*)$|(?i:^\W*(?P<det2>the|my|our)\s+)(?P<thing2>[\w' -]{2,40}?)(?i:\s+(?:is|'s)\s+"
    r"due\b)(?P<when2>.*)$",
)
def _is_due(m: re.Match[str], out: Emitter) -> None:
    """ "I'm working on a poster, it's due on December 12", "the report is due friday": the
    thing, due then — only with a day said."""
    when = m["when"] if m["thing"] else m["when2"]
    if find_due(when, out.now):
        det = (m["det"] or m["det2"]).lower()
        thing = m["thing"] or m["thing2"]
        out.todo(
            "COMMITMENT",
            f"{'the' if det in ('a', 'an') else det} {thing.strip()}",
            also_due_in=when,
        )


# --- todos closed (plan.done / plan.dropped, by the person's words) ----------------------------
# The words only name a todo: the commit resolves them among the pending ones, or closes none.

_DONE_VERB = r"(?:already|just|finally|now)"
_CLOSED_TASK = r"(?P<task>[^,.;:!?]{3,80}?)\s*(?=[,.;:!?]|$)"


@todo_rule(
    "already_did",
    rf"(?i:\bI(?:'ve|\s+have)?\s+{_DONE_VERB}\s+)(?!(?i:started|joined|moved|arrived|landed|"
    rf"signed\s+up|enrolled)\b)(?P<task>\w+ed\b[^,.;:!?]{{0,80}}?)"
    r"\s*(?=[,.;:!?]|$)",
)
def _already_did(m: re.Match[str], out: Emitter) -> None:
    if out.is_user:
        out.done.append(m["task"])


_ERRAND = (
    r"called|emailed|e-mailed|booked|paid|sent|picked\s+up|bought|submitted|renewed|fixed|"
    r"returned|scheduled|texted|messaged|signed\s+up\s+for|registered\s+for|handed\s+in|"
    r"posted|mailed|ordered|cancell?ed|finished|cleaned|washed|filed"
)


_DONE_MARK = re.compile(r"(?i)\b(?:finally|already|at\s+last|done|sorted|ticked\s+off)\b")
# where the errand's words end before the clause does: when and how it was done, an aside
_ERRAND_END = (
    r"(?:\s+(?i:finally|already|at\s+last))?\s*(?=[,.;:!?]|$)|\s+(?=(?i:on\s+(?:the|my)\s+way|"
    r"this\s+(?:morning|afternoon|evening)|today|yesterday|earlier|tonight|last\s+night|lol|"
    r"lmao|haha|btw)\b)"
)


@todo_rule(
    "errand_done",
    rf"(?i:(?P<opening>^\W*|\bI\s+)(?:finally\s+|just\s+|already\s+)?)(?P<task>(?i:{_ERRAND})\s+"
    r"(?!(?:you|u|me|him|her|them|it)\b)[^,.;:!?]{2,60}?)(?:" + _ERRAND_END + ")",
)
def _errand_done(m: re.Match[str], out: Emitter) -> None:
    """ "booked the dentist ✅", "picked up the dry cleaning finally", a message that opens
    with what was done to a thing already spoken of ("bought the gift on the way home lol";
    not "bought my first house!", an achievement): words naming what was done — the commit
    closes a pending todo they name by verb or object, else none."""
    known_thing = re.match(rf"(?i:{_ERRAND})\s+the\s", m["task"])
    opens = not m["opening"].strip() and known_thing is not None
    if out.is_user and (_DONE_MARK.search(m.string) or opens):
        out.done.append(m["task"].strip())


@todo_rule(
    "done_with",
    rf"(?i:\b(?:I'm\s+|I\s+am\s+)?(?:done\s+with|finished|completed|crossed\s+off|ticked\s+off)"
    rf"\s+)(?!it\b|that\b|this\b){_CLOSED_TASK}",
)
def _done_with(m: re.Match[str], out: Emitter) -> None:
    """ "done with the passport thing": its words; not someone else's finishing or a past
    achievement ("my sister finished her degree", "finished my degree last year")."""
    if out.is_user and says_done(m.string) and not NEGATED.search(m.string[: m.start()]):
        out.done.append(m["task"])


@todo_rule(
    "forget_it",
    rf"(?<!(?i:don't\s))(?<!(?i:dont\s))(?<!(?i:not\s))(?<!(?i:never\s))"
    rf"(?i:\b(?:forget|drop|scratch|cancel|skip)\s+(?:about\s+)?)(?!(?i:it|that|this|me|to)\b)"
    rf"{_CLOSED_TASK}(?=.*\b(?i:cancel(?:l?ed)?|not\s+(?:\w+ing|needed|gonna)|no\s+longer|"
    r"anymore|off|for\s+now)\b|[,.;:!?]?\s*$)",
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
