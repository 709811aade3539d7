"""What the shape tier (:mod:`services.memory_upserter.commit.shape`) costs where it is wrong,
measured by replaying recorded answers in the other shape (pure transforms of a raw answer):

- :func:`without_a_field`: a careful answer with one field left out (``plan.ends``, nearly
  always ``[]``): a strong model in plain JSON mode that skips an empty list. Held strictly.
- :func:`completed`: a sloppy answer as strict decoding would have forced it — the plan the
  lenient reader (:mod:`.lenient`) makes of it, every field present (``record.py --complete``'s
  blanks), wrong enums mapped, fences and prose gone: a weak model under strict decoding. Held
  to the conversation. An answer whose facts the reader would not all keep is left as it is
  (its labels follow its facts one to one).

Run by ``TWIN_TRUST_COST=1 uv run pytest tests/model_loop/test_trust_cost.py -s``.

:func:`with_inventions`: recorded sloppy answers with inventions of a small model's kinds added
(:data:`INVENTED`, written by us after the guards they test: tuned on), replayed by
``TWIN_INVENTED=1 uv run pytest tests/model_loop/test_invented_by_me.py -s``."""

from __future__ import annotations

import copy
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

from bench.model_loop.record import complete
from bench.model_loop.replay import plan_facts
from services.envelope_validator.answer_format import response_format
from services.memory_upserter.commit.lenient import read_answer, read_plan


def without_a_field(raw: str) -> str:
    """The answer without ``plan.ends`` (unchanged when it has no plan or no such field)."""
    try:
        answer = json.loads(raw)
    except json.JSONDecodeError:
        return raw
    plan = answer.get("plan") if isinstance(answer, dict) else None
    if not isinstance(plan, dict) or "ends" not in plan:
        return raw
    del plan["ends"]
    return json.dumps(answer, ensure_ascii=False)


def completed(raw: str, at: str) -> str:
    """The answer as strict decoding forces it (module docstring); unchanged when the reader
    would drop one of its facts, or it has no plan."""
    read = read_answer(raw)
    facts = plan_facts(raw)
    if read.plan is None or facts is None:
        return raw
    plan, _ = read_plan(read.plan, "$.answer.plan", datetime.fromisoformat(at))
    if plan is None or len(plan.facts) != len(facts):
        return raw
    schema = response_format().json_schema.schema
    body = {"reply": read.reply or "ok", "plan": msgspec.to_builtins(plan)}
    return json.dumps(complete(_known(body, schema), schema), ensure_ascii=False)


def _known(value: Any, schema: dict[str, Any]) -> Any:
    """``value`` with only the fields the strict schema has (msgspec writes them all)."""
    if isinstance(value, dict) and "properties" in schema:
        props = schema["properties"]
        return {k: _known(v, _object(props[k])) for k, v in value.items() if k in props}
    if isinstance(value, list) and "items" in schema:
        return [_known(item, _object(schema["items"])) for item in value]
    return value


def _object(schema: dict[str, Any]) -> dict[str, Any]:
    """A nullable object's object schema (``anyOf`` of it and null)."""
    for option in schema.get("anyOf", ()):
        if "properties" in option:
            return option
    return schema


def restyled(conv: dict[str, Any], style: str, how: str) -> dict[str, Any]:
    """``conv`` with ``style``'s answers in the other shape (``how``: "without_a_field" or
    "completed")."""
    out = copy.deepcopy(conv)
    for turn in out["turns"]:
        answer = turn["answers"][style]
        raw = answer["raw"]
        answer["raw"] = (
            without_a_field(raw) if how == "without_a_field" else completed(raw, turn["at"])
        )
    return out


INVENTED = Path(__file__).with_name("invented_r10.json")


def with_inventions(
    conv: dict[str, Any], style: str, added: list[dict[str, Any]]
) -> dict[str, Any]:
    """``conv`` with each of ``added`` (``{"conv", "turn", "fact"}``, this conversation's) put
    into ``style``'s answer of its turn, labelled invented: a small model's plan with one more
    invention. An answer with no plan gets one of its own facts; the answer is written back as
    bare JSON (a sloppy answer misses fields: still held strictly)."""
    out = copy.deepcopy(conv)
    turns = {t["i"]: t for t in out["turns"]}
    for entry in (a for a in added if a["conv"] == conv["id"]):
        answer = turns[entry["turn"]]["answers"][style]
        read = read_answer(answer["raw"])
        plan = read.plan if isinstance(read.plan, dict) else {}
        facts = plan_facts(answer["raw"]) or []
        body = {"reply": read.reply or "ok", "plan": {**plan, "facts": [*facts, entry["fact"]]}}
        answer["raw"] = json.dumps(body, ensure_ascii=False)
        labels = [*answer.get("labels", []), *["unlabelled"] * len(facts)][: len(facts)]
        answer["labels"] = [*labels, "invented"]
    return out
