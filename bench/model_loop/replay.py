"""Replay a recorded model-in-the-loop conversation through the real chain, as n8n runs it.

For each turn: ``POST /v1/turn`` (rag-gate) with the person's message; when ``next`` is
``model``, the recorded raw answer of the chosen style is committed as ``fast-brain.json``
commits it (``POST /v1/commit`` with ``answer`` = the model's text); when ``next`` is
``question``, the flow's own answer ``{"reply": <the question>}`` is committed instead and
the recorded answer is not used. What each commit answered is compared with the answer's
labelled plan facts: a ``fair`` fact missing from the commit's ``facts`` is a false drop, an
``invented`` one present is an invention kept. Nothing here judges memory: the checks
(:mod:`.checks`) read ``GET /v1/export`` afterwards.

The fixtures are ``tests/fixtures/model_loop/*.json`` (their README says how they were made).
"""

from __future__ import annotations

import json
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bench.model_loop.handles import graph_handles, translate
from services.core.memory_store.keys import canonical_predicate
from services.memory_upserter.commit.lenient import read_answer
from services.memory_upserter.commit.repair import field_named

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "model_loop"
STYLES = ("careful", "sloppy")
# recorded with the prompt showing handles (F/T + 6 hex digits), contracts 1.5
STYLES_V2 = ("careful-v2", "sloppy-v2")
# a fresh held-out set written after the others had been read (prompts with handles, as v2)
STYLES_V3 = ("careful-v3", "sloppy-v3")
# a fresh blind held-out set written and answered before any product change of its round
STYLES_V4 = ("careful-v4", "sloppy-v4")
# a fresh blind held-out set, recorded in two halves at once (v5a, v5b), before any change
STYLES_V5 = ("careful-v5", "sloppy-v5")
# a fresh blind held-out set, two halves at once again (v6a, v6b), before any change
STYLES_V6 = ("careful-v6", "sloppy-v6")
# a fresh blind held-out set, two halves at once (v7a, v7b), answered on main e2bc343
STYLES_V7 = ("careful-v7", "sloppy-v7")
# v8: blind held-out, round 10 (written and answered before any change of the round merged)
STYLES_V8 = ("careful-v8", "sloppy-v8")
# v9: blind held-out, round 11 (written and answered on main as the round began)
STYLES_V9 = ("careful-v9", "sloppy-v9")
ALL_STYLES = (
    *STYLES,
    *STYLES_V2,
    *STYLES_V3,
    *STYLES_V4,
    *STYLES_V5,
    *STYLES_V6,
    *STYLES_V7,
    *STYLES_V8,
    *STYLES_V9,
)


def styles_of(conv: dict[str, Any]) -> list[str]:
    """The styles every turn of the conversation holds an answer of."""
    return [s for s in ALL_STYLES if all(s in t.get("answers", {}) for t in conv["turns"])]


def conversations(folder: Path = FIXTURES) -> list[dict[str, Any]]:
    """Every recorded conversation, in file-name order."""
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]


def plan_facts(raw: str) -> list[dict[str, Any]] | None:
    """The plan facts a raw answer holds, read as the commit reads it (fenced, or JSON with
    prose around it); None when the answer carries no plan (the commit then leaves the turn
    to the shadow judge)."""
    plan = read_answer(raw).plan
    if not isinstance(plan, dict):
        plan = _loose_plan(raw)
    if not isinstance(plan, dict):
        return None
    facts = plan.get("facts") or []
    facts = [facts] if isinstance(facts, dict) else facts  # a small model's one fact, unlisted
    return [f for f in facts if isinstance(f, dict)]


def _loose_plan(raw: str) -> dict[str, Any] | None:
    """A small model's plan fields written beside ``reply`` instead of inside ``plan`` (the
    commit drops them as unknown fields): labelled and scored like a plan's, so a fair fact
    lost that way counts as dropped."""
    body = re.sub(r"^```[A-Za-z]*|```$", "", raw.strip()).strip()
    try:
        found = json.loads(body[body.find("{") : body.rfind("}") + 1])
    except ValueError:
        return None
    if isinstance(found, dict) and isinstance(found.get("facts"), list):
        return found
    return None


def _norm(text: str) -> str:
    return re.sub(r"\W+", " ", str(text).lower()).strip()


def _as_read(fact: dict[str, Any]) -> dict[str, Any]:
    """The fact's fields as the commit reads them (a field named another way, camelCase)."""
    fields = {"text", "predicate", "value", "object"}
    out = dict(fact)
    for key in fact:
        name = None if key in fields else field_named(key, fields, set(out))
        if name is not None:
            out[name] = out.pop(key)
    return out


def kept(fact: dict[str, Any], written: list[dict[str, Any]]) -> bool:
    """Whether the commit wrote this plan fact: its text, or its predicate with its value."""
    fact = _as_read(fact)
    text = _norm(fact.get("text", ""))
    if text and any(_norm(w["text"]) == text for w in written):
        return True
    predicate = canonical_predicate(str(fact.get("predicate", "")))
    value = _norm(fact.get("value") or fact.get("object") or "")
    said = re.compile(rf"\b{re.escape(value)}\b") if value else None  # "nuts" is not "peanuts"
    return any(
        canonical_predicate(w["predicate"]) == predicate and said and said.search(_norm(w["text"]))
        for w in written
    )


@dataclass
class TurnResult:
    index: int
    next: str
    status: int
    reply_stored: bool
    plan_refused: bool = False
    fair: int = 0
    fair_dropped: list[str] = field(default_factory=list)
    invented: int = 0
    invented_kept: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    detail: str = ""

    @property
    def lost(self) -> bool:
        return not (200 <= self.status < 300 and self.reply_stored)


@dataclass
class Replay:
    conversation: str
    style: str
    held_out: bool
    user_id: str
    turns: list[TurnResult] = field(default_factory=list)

    def count(self, name: str) -> int:
        if name == "lost":
            return sum(t.lost for t in self.turns)
        if name == "refused":
            return sum(t.plan_refused for t in self.turns)
        if name == "questions":
            return sum(t.next == "question" for t in self.turns)
        return sum(len(v) if isinstance(v := getattr(t, name), list) else v for t in self.turns)


def _turn_body(conv: dict[str, Any], turn: dict[str, Any], user_id: str) -> dict[str, Any]:
    personas = conv.get("personas", {})
    return {
        "user_id": user_id,
        "agent_id": turn["agent"],
        "chat_id": turn["chat"],
        "message": turn["user"],
        "message_id": f"{conv['id']}-{turn['i']}",
        "now": turn["at"],
        "persona_prompt": personas.get(turn["agent"], f"You are {turn['agent']}."),
    }


async def ask(
    gate: httpx.AsyncClient, conv: dict[str, Any], turn: dict[str, Any], user_id: str
) -> dict[str, Any]:
    """``POST /v1/turn`` for one turn of the conversation: rag-gate's whole answer."""
    asked = await gate.post("/v1/turn", json=_turn_body(conv, turn, user_id))
    asked.raise_for_status()
    one: dict[str, Any] = asked.json()
    return one


def question_answer(one: dict[str, Any]) -> str:
    """The flow's own answer when ``/v1/turn`` said ``question``: the question as the reply."""
    return json.dumps({"reply": one["hydrate"]["GRAPH"]["pending_question"]["question"]})


async def commit(
    memory: httpx.AsyncClient,
    conv: dict[str, Any],
    turn: dict[str, Any],
    user_id: str,
    one: dict[str, Any],
    raw: str,
) -> tuple[TurnResult, dict[str, Any] | None]:
    """``POST /v1/commit`` of ``raw`` as ``fast-brain.json`` sends it, and what it answered."""
    body = {
        "user_id": user_id,
        "agent_id": turn["agent"],
        "chat_id": turn["chat"],
        "turn_id": uuid.uuid4().hex,
        "messages": [
            {
                "role": "user",
                "text": turn["user"],
                "external_id": f"{conv['id']}-{turn['i']}",
                "ts": turn["at"],
            }
        ],
        "answer": raw,
        "active_entity_ids": (one.get("hydrate") or {}).get("active_entity_ids", []),
        "now": turn["at"],
    }
    answered = await memory.post("/v1/commit", json=body)
    said = answered.json()
    result = TurnResult(
        index=turn["i"],
        next=one["next"],
        status=answered.status_code,
        reply_stored=answered.is_success and len(said.get("message_ids", [])) >= 2,
        plan_refused=400 <= answered.status_code < 500,
    )
    if not answered.is_success:
        result.detail = json.dumps(said.get("errors") or said.get("detail"))[:400]
    else:
        result.warnings = [f"{w['code']}: {w['detail']}" for w in said.get("warnings", [])]
    return result, said if answered.is_success else None


async def play_turn(
    gate: httpx.AsyncClient,
    memory: httpx.AsyncClient,
    conv: dict[str, Any],
    turn: dict[str, Any],
    user_id: str,
    raw: str,
    handles: dict[str, str] | None = None,
) -> tuple[TurnResult, dict[str, Any], dict[str, Any] | None]:
    """One turn: /v1/turn, then the commit of ``raw`` (or of the flow's question), its
    recorded ``handles`` (handle → the text it named) translated to this prompt's."""
    one = await ask(gate, conv, turn, user_id)
    if one["next"] == "question":
        raw = question_answer(one)
    elif handles:
        raw = translate(raw, handles, graph_handles(one["envelope"]["messages"]))
    result, written = await commit(memory, conv, turn, user_id, one, raw)
    return result, one, written


def score(result: TurnResult, raw: str, labels: list[str], written: list[dict]) -> None:
    """Count the answer's labelled facts against what the commit wrote."""
    facts = plan_facts(raw) or []
    for fact, label in zip(facts, labels, strict=False):
        here = kept(fact, written)
        name = f"{fact.get('predicate')}: {fact.get('text', '')[:80]}"
        if label == "fair":
            result.fair += 1
            if not here:
                result.fair_dropped.append(f"{name}{_why(fact, result.warnings)}")
        elif label == "invented":
            result.invented += 1
            if here:
                result.invented_kept.append(name)


def _why(fact: dict[str, Any], warnings: list[str]) -> str:
    """The warning that names a dropped fact's text, if any: why the commit left it out."""
    text = str(fact.get("text", ""))[:60]
    why = next((w for w in warnings if text and text in w), "")
    return f" — {why.split(' — ')[-1][:160]}" if why else ""


async def replay(
    gate: httpx.AsyncClient, memory: httpx.AsyncClient, conv: dict[str, Any], style: str
) -> Replay:
    """The whole conversation in one style, for a fresh person."""
    user_id = f"{conv['id']}-{style}-{uuid.uuid4().hex[:6]}"
    out = Replay(conv["id"], style, bool(conv.get("held_out")), user_id)
    for turn in conv["turns"]:
        answer = turn["answers"][style]
        result, _, written = await play_turn(
            gate, memory, conv, turn, user_id, answer["raw"], answer.get("handles")
        )
        if result.next == "model":
            facts = (written or {}).get("facts", [])
            score(result, answer["raw"], answer.get("labels", []), facts)
        out.turns.append(result)
    return out
