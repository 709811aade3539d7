"""What a model wrote, read part by part (pure): a turn is never lost to its plan.

The exported schemas (``llm-answer``, ``memory-write-plan``) stay strict — they are the
``response_format`` that keeps a model on the rails — but the server reads what came back
leniently. :func:`read_plan` converts each entity, fact and todo (and ``promote_affect``, and
each handle of ``forget``/``ends``/``done``/``dropped``) on its own: what does not validate is
dropped with a :class:`Notice` whose detail starts with its JSON path
(``$.answer.plan.facts[2].valid_to``) and says why; the rest is kept. A bad optional field
drops only that field (the fact is kept without it); a bad required field drops its part.

Repaired instead of dropped, because only one reading exists (each with a ``plan_repaired``
notice, so a designer sees what the model got wrong):

- a word of a closed list read case-insensitively, and its synonyms (:data:`SYNONYMS`:
  ``memory_type`` "PERSONAL", "Hobby", "EVENT" → PROFILE, "Job" → PROJECT; a category "city" →
  Location, one not in the list → Other, never a Person; a ``scope`` that names the persona,
  "coach", "sol" → agent); a field named another way ("fact"
  for ``text``, camelCase: :data:`.repair.FIELD_SYNONYMS`);
- a predicate with spaces, hyphens or dots → underscores ("lives in" → ``lives_in``);
- a number out of range clamped (``importance`` 7 → 3, ``confidence`` 3 → 1; one written as a
  percent, 10–100: 90 → 0.9), a number as a string or a float read as
  the number ("2", 2.0 → 2), "true"/"no" as booleans; a string over its maximum length clipped;
  a lone string where a list belongs, a list of one; a list over its maximum keeps its first;
- time words and day/month numbers ("14/12") resolved once, here, in the person's zone (one
  grammar: :func:`.extract.temporal.parse_when`, :func:`.extract.due.parse_due`), written back
  as ISO date-times; a time not understood, out of 1970–2199, or an end before its start is
  dropped (``due``: ``due_not_understood``), the fact or todo kept;
- ``object`` and ``value`` both given: the value is dropped (the entity link is kept);
- a todo re-listed with ``"status": "done"`` / ``"cancelled"``: its words join ``done`` /
  ``dropped`` (:mod:`.todo_status`).

A fact relating an entity to itself, or missing what it says, is dropped whole. :func:`read_answer`
reads the raw ``answer``: fenced or surrounded JSON found, almost-JSON mended (:mod:`.json_repair`);
not a JSON object: the reply itself (its plan left to the shadow judge); the reply under
another name ("response", "message"): the reply (.answer_shape.reply_named); no usable
``reply``: its plan kept, no assistant message; plan fields beside ``reply``: its plan
(.answer_shape.loose_plan); one fact or todo written as the object itself: a list of one."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec
from msgspec import inspect as mi

from contracts.memory import Notice
from contracts.plan import LLMAnswer, MemoryWritePlan, PlanFact, PlanTodo
from contracts.relations import ROLES
from services.core.clock import out_of_range
from services.core.memory_store.keys import BY_SHAPE, shaped_predicate
from services.core.when import MONTHS, WEEKDAYS, past_tense
from services.memory_upserter.commit.answer_shape import loose_plan, reply_named
from services.memory_upserter.commit.fact_kind import typed
from services.memory_upserter.commit.json_repair import mend
from services.memory_upserter.commit.relatives import ROLE_WORDS, SHORT_ROLES
from services.memory_upserter.commit.relatives import SELF_HANDLES as SELF_HANDLES
from services.memory_upserter.commit.relatives import is_name as is_name
from services.memory_upserter.commit.repair import Reader, short
from services.memory_upserter.commit.said_bounds import said_bounds
from services.memory_upserter.commit.todo_status import split_closed
from services.memory_upserter.commit.written_dates import numeric_date
from services.memory_upserter.extract.due import parse_due
from services.memory_upserter.extract.temporal import parse_when
from services.memory_upserter.text import fold


def _max_lengths(cls: type[msgspec.Struct]) -> dict[str, int]:
    """The contract's ``maxLength`` of each of ``cls``'s bounded fields."""
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    out = {}
    for f in info.fields:
        typ = f.type.types[0] if isinstance(f.type, mi.UnionType) else f.type
        limit = getattr(typ, "max_length", None)
        if limit is not None:
            out[f.encode_name] = limit
    return out


_PARTS = {k: v for k, v in _max_lengths(MemoryWritePlan).items() if k in ("facts", "todos")}


def read_plan(
    raw: Any, path: str, now: datetime, said: Sequence[str] = ()
) -> tuple[MemoryWritePlan | None, list[Notice]]:
    """The plan's valid parts, their time words resolved against ``now`` (in the person's
    zone) and read in the tense the person (``said``: their messages) used them, and a notice
    for each repair and drop; None when ``raw`` is not an object."""
    reader = Reader()
    if not isinstance(raw, dict):
        reader.note("plan_not_read", path, f"not an object ({short(raw)}): the judge reads it")
        return None, reader.notes
    rest = reader.struct({k: v for k, v in raw.items() if k not in _PARTS}, MemoryWritePlan, path)
    assert rest is not None  # every other field of a plan has a default
    facts = [
        fact
        for where, part in _parts(reader, raw, "facts", path)
        if (built := reader.struct(typed(reader, part, where), PlanFact, where)) is not None
        if (fact := _fact(reader, built, where, now, said)) is not None
    ]
    parts, done, dropped, closed = split_closed(_parts(reader, raw, "todos", path))
    reader.notes += closed  # a todo re-listed as "done": its words are a done (.todo_status)
    todos = [
        _todo(reader, built, where, now)
        for where, part in parts
        if (built := reader.struct(part, PlanTodo, where)) is not None
    ]
    closes = {"done": [*rest.done, *done][:20], "dropped": [*rest.dropped, *dropped][:20]}
    return msgspec.structs.replace(rest, facts=facts, todos=todos, **closes), reader.notes


def _parts(reader: Reader, raw: dict[str, Any], key: str, path: str) -> list[tuple[str, Any]]:
    """The plan's facts or todos as sent, each with its path; over the limit, the first ones."""
    sent = raw.get(key)
    if sent is None:
        return []
    if isinstance(sent, dict):  # one fact written as the object itself
        reader.note("plan_repaired", f"{path}.{key}", "one object read as a list of one")
        sent = [sent]
    if not isinstance(sent, list):
        reader.note("plan_part_dropped", f"{path}.{key}", f"not a list ({short(sent)})")
        return []
    limit = _PARTS[key]
    if len(sent) > limit:
        reader.note("plan_part_dropped", f"{path}.{key}", f"only the first {limit} are kept")
    return [(f"{path}.{key}[{i}]", part) for i, part in enumerate(sent[:limit])]


@dataclass(frozen=True)
class AnswerRead:
    """The raw answer, read: its reply (None: none usable), its plan as sent (``planned``:
    it had one), and the notices."""

    reply: str | None
    plan: Any
    planned: bool
    notes: list[Notice]


def read_answer(text: str) -> AnswerRead:
    reader = Reader()
    body = text.strip()
    fenced = re.fullmatch(r"```[A-Za-z]*\s*(.*?)\s*```", body, re.DOTALL)
    body = fenced.group(1) if fenced else body
    found = _json_object(body)
    if found is None and (mended := mend(body)) is not None:
        if (found := _json_object(mended[0])) is not None:
            reader.note("plan_repaired", "$.answer", f"not JSON as written: {mended[1]}")
    if found is None:
        reader.note(
            "answer_not_json", "$.answer", "its text is the reply; the judge reads the turn"
        )
        return AnswerRead(body[:_REPLY_MAX] or None, None, False, reader.notes)
    found = reply_named(found, reader)
    loose = loose_plan(found, reader)
    for key in found.keys() - {"reply", "plan"} - (loose or {}).keys():
        reader.note("plan_field_dropped", f"$.answer.{key}", "unknown field")
    reply = found.get("reply")
    if not isinstance(reply, str) or not reply.strip():
        reader.note(
            "answer_without_reply", "$.answer.reply", "missing or empty: no reply is logged"
        )
        reply = None
    elif len(reply) > _REPLY_MAX:
        reader.note("plan_repaired", "$.answer.reply", f"clipped to {_REPLY_MAX} characters")
        reply = reply[:_REPLY_MAX]
    planned = "plan" in found or loose is not None
    return AnswerRead(reply, found.get("plan", loose), planned, reader.notes)


_REPLY_MAX = _max_lengths(LLMAnswer)["reply"]


def _json_object(body: str) -> dict[str, Any] | None:
    """The JSON object the answer is, or holds between its first "{" and last "}"."""
    for candidate in (body, body[body.find("{") : body.rfind("}") + 1]):
        try:
            value = msgspec.json.decode(candidate)
        except msgspec.DecodeError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _fact(
    reader: Reader, fact: PlanFact, path: str, now: datetime, said: Sequence[str]
) -> PlanFact | None:
    if fact.object is not None and fold(fact.object) == fold(fact.subject):
        reader.note(
            "plan_part_dropped", f"{path}.object", "a fact cannot relate an entity to itself"
        )
        return None
    if fact.object is not None and fact.value is not None:
        reader.note(
            "plan_field_dropped", f"{path}.value", "give object or value: the object is kept"
        )
        fact = msgspec.structs.replace(fact, value=None)
    fact = relative(reader, fact, path, said)
    by_shape = not fact.object and re.sub(r"\W+", "_", fact.predicate.upper()) in BY_SHAPE
    shaped = shaped_predicate(fact.predicate, fact.value, fact.text) if by_shape else None
    if shaped is not None:  # "job" + "User works at Spotify": the text's verb decides
        fact = msgspec.structs.replace(fact, predicate=shaped)
    fact = said_bounds(reader, fact, path, said, now)
    past = past_tense(fact.text)
    tense = said_past(fact.valid_from, said)
    start = _when(
        reader, fact.valid_from, f"{path}.valid_from", now, end=False,
        past=past if tense is None else tense,
    )  # fmt: skip
    named = said_past(fact.valid_to, [fact.text])  # "…, last day is the 27th": that clause's
    end = _when(
        reader, fact.valid_to, f"{path}.valid_to", now, end=True,
        past=past if named is None else named,
    )  # fmt: skip
    if start is not None and end is not None and end < start:
        reader.note("plan_field_dropped", f"{path}.valid_to", "must not be before valid_from")
        end = None
    return msgspec.structs.replace(
        fact,
        valid_from=start.isoformat() if start else None,
        valid_to=end.isoformat() if end else None,
    )


_DAY_WORD = re.compile(
    rf"(?i)\b(?:{'|'.join(w[:3] + '(?:' + w[3:] + ')?' for w in (*WEEKDAYS, *MONTHS))}"
    r"|\d{1,2}(?:st|nd|rd|th))\b"
)

_CLAUSES = re.compile(r"[.!?;,\n]+|\s(?:but|and|so|though|although)\s")


def said_past(field: str | None, said: Sequence[str]) -> bool | None:
    """Whether ``said`` names the field's day or month in a past-tense clause: "my mum is in
    hospital since sunday", "she left on the 1st" (the last Sunday, the 1st gone) — not "…since
    sunday, probably out by wednesday", "got the job!! i start nov 2", nor "switched to 4 days a
    week from july" (a start). None: not said there (the fact's own tense decides)."""
    key = _DAY_WORD.search(field or "")
    if key is None:
        return None
    word = re.compile(rf"(?i)\b{re.escape(key[0])}\b")
    start = re.compile(rf"(?i)\b(?:from|starting|as\s+of|effective)\s+{re.escape(key[0])}\b")
    clauses = [c for text in said for c in _CLAUSES.split(text) if word.search(c)]
    return any(past_tense(c) and not start.search(c) for c in clauses) if clauses else None


def _when(
    reader: Reader, given: str | None, path: str, now: datetime, *, end: bool, past: bool
) -> datetime | None:
    if not given:
        return None
    at = parse_when(numeric_date(given, now.date()), now, end=end, past=past)
    if at is None:
        reader.note(
            "plan_field_dropped", path, f"{given!r} not understood: the fact is kept without it"
        )
    elif out_of_range(at, path) is not None:
        reader.note("plan_field_dropped", path, f"{given!r} is not between 1970 and 2199")
        return None
    return at


def _todo(reader: Reader, todo: PlanTodo, path: str, now: datetime) -> PlanTodo:
    if not todo.due:
        return todo
    due = parse_due(numeric_date(todo.due, now.date()), now)
    if due is not None and out_of_range(due, path) is None:
        return msgspec.structs.replace(todo, due=due.isoformat())
    reader.note("due_not_understood", f"{path}.due", f"{todo.due!r} ignored: the todo is kept")
    return msgspec.structs.replace(todo, due=None)


def relation_of(predicate: str) -> str | None:
    """The relation a relation word names (``sister`` → HAS_SISTER, ``dog`` → HAS_DOG)."""
    upper = re.sub(r"\W+", "_", predicate.strip()).upper().removeprefix("HAS_")
    word = ROLE_WORDS.get(upper.removeprefix("MY_")) or SHORT_ROLES.get(upper)
    if word is None:
        return None
    return f"HAS_{word.upper()}" if ROLES[word] == "PET" else f"HAS_{ROLES[word]}"


def relative(reader: Reader, fact: PlanFact, path: str, said: Sequence[str] = ()) -> PlanFact:
    """The fact, a relative given as a plain value made the relation to that name."""
    relation = relation_of(fact.predicate) if fact.object is None else None
    value = (fact.value or "").strip()
    if (
        relation is None
        or fold(fact.subject) not in SELF_HANDLES
        or not is_name(value, fact.text, said)
    ):
        return fact
    name = " ".join(p[:1].upper() + p[1:] for p in value.split())
    reader.note("plan_repaired", f"{path}.value", f"{value!r} read as {relation} → {name}")
    return msgspec.structs.replace(fact, predicate=relation, object=name, value=None)
