"""One Telegram-like turn through the running nodes, in the order the fast-brain flow calls them.

The four fast-brain steps are :func:`services.fast_brain.sequence.run_turn` (the one sequence
``POST /v1/turn`` runs too), each step here a plain HTTP call to its node's route, with the
node token and an ``X-Request-Id`` as n8n sends them; then the model (or the offline reply)
and the commit. Nothing here touches a store.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import httpx
import msgspec

from contracts.envelope_io import EnvelopeRequest, EnvelopeResponse
from contracts.hydrate import HydrateRequest, HydrateResponse
from contracts.pulse import PulseRequest, PulseResponse
from contracts.retrieve import RetrieveRequest, RetrieveResponse
from contracts.turn import TurnRequest, TurnResponse
from services.core.which import read_question
from services.fast_brain.sequence import run_turn
from services.playground.offline import due_suffix, offline_reply

# node → (route) in chain order; the base URL of each node comes from the caller.
ROUTES = {
    "pulse-decay": "/v1/pulse",
    "graph-hydrator": "/v1/hydrate",
    "rag-gate": "/v1/retrieve",
    "envelope-validator": "/v1/envelope",
    "memory-upserter": "/v1/commit",
}

# (messages, response_format) → the model's raw answer (an LLMAnswer JSON string)
AskModel = Callable[[list[dict[str, Any]], dict[str, Any]], Awaitable[str]]

A = TypeVar("A", bound=msgspec.Struct)


class NodeError(RuntimeError):
    """A node refused the turn or could not be reached; ``problem`` is its answer."""

    def __init__(self, node: str, status: int, problem: Any) -> None:
        super().__init__(f"{node} answered {status}: {problem}")
        self.node, self.status, self.problem = node, status, problem


@dataclass
class Exchange:
    """Everything one turn produced, for the terminal to show on request."""

    reply: str
    confirmations: list[str] = field(default_factory=list)
    source: str = "offline"  # model | offline | question | replayed
    answers: dict[str, Any] = field(default_factory=dict)  # node → its JSON answer


@dataclass
class OverHTTP:
    """The fast-brain steps as calls to each node's route; every answer is kept in ``answers``."""

    client: httpx.AsyncClient
    base_urls: Mapping[str, str]
    token: str | None
    turn_id: str
    answers: dict[str, Any] = field(default_factory=dict)

    async def pulse(self, req: PulseRequest) -> PulseResponse:
        return await self.step("pulse-decay", req, PulseResponse)

    async def hydrate(self, req: HydrateRequest) -> HydrateResponse:
        return await self.step("graph-hydrator", req, HydrateResponse)

    async def retrieve(self, req: RetrieveRequest) -> RetrieveResponse:
        return await self.step("rag-gate", req, RetrieveResponse)

    async def envelope(self, req: EnvelopeRequest) -> EnvelopeResponse:
        return await self.step("envelope-validator", req, EnvelopeResponse)

    async def step(self, node: str, req: msgspec.Struct, answer: type[A]) -> A:
        raw = await self.call(node, msgspec.to_builtins(req))
        return msgspec.convert(raw, answer)

    async def call(self, node: str, body: dict[str, Any]) -> dict[str, Any]:
        """POST ``body`` to ``node``'s route; its JSON answer, or :class:`NodeError`."""
        headers = {"X-Request-Id": f"{self.turn_id}-{node}"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        url = self.base_urls[node].rstrip("/") + ROUTES[node]
        try:
            response = await self.client.post(url, json=body, headers=headers)
        except httpx.TransportError as exc:
            raise NodeError(node, 0, f"unreachable at {url} ({type(exc).__name__})") from exc
        if response.status_code != 200:
            raise NodeError(node, response.status_code, _problem(response))
        answer: dict[str, Any] = response.json()
        self.answers[node] = answer
        return answer


@dataclass
class Conversation:
    """One (user, agent, chat) talking to the nodes at ``base_urls`` through ``client``."""

    client: httpx.AsyncClient
    base_urls: Mapping[str, str]
    user_id: str
    agent_id: str
    chat_id: str
    persona_prompt: str = ""
    token: str | None = None
    ask_model: AskModel | None = None

    async def say(self, text: str, *, now: datetime | None = None) -> Exchange:
        turn_id = f"play:{uuid.uuid4().hex}"
        nodes = OverHTTP(self.client, self.base_urls, self.token, turn_id)
        ids = {"user_id": self.user_id, "agent_id": self.agent_id, "chat_id": self.chat_id}
        turn = await run_turn(
            nodes,
            TurnRequest(
                user_id=self.user_id,
                agent_id=self.agent_id,
                chat_id=self.chat_id,
                message=text,
                message_id=turn_id,
                persona_prompt=self.persona_prompt,
                now=now,
            ),
        )
        if turn.next == "replayed":
            reply = turn.pulse.replay_reply or ""
            return Exchange(reply=reply, source="replayed", answers=nodes.answers)
        answer, reply, source = await self._answer(turn, nodes.answers, text)
        commit = await nodes.call(
            "memory-upserter", _commit_body(ids, turn_id, turn, text, now, answer, reply)
        )
        return Exchange(
            reply=commit.get("reply") or reply,
            source=source,
            answers=nodes.answers,
            confirmations=confirmations(commit, asked=reply if source == "question" else None),
        )

    async def _answer(
        self, turn: TurnResponse, answers: Mapping[str, Any], text: str
    ) -> tuple[str | None, str, str]:
        """(the model's raw answer or None, the reply, where it came from)."""
        if turn.next == "question":
            assert turn.hydrate is not None and turn.hydrate.GRAPH.pending_question is not None
            reply = turn.hydrate.GRAPH.pending_question.question
            return json.dumps({"reply": reply}), reply, "question"  # no plan: the judge extracts
        envelope = answers["envelope-validator"]
        if self.ask_model is None:
            # No model: say what memory reached the envelope; the commit's offline extractor
            # decides what to remember (no plan is sent).
            return None, offline_reply(envelope["envelope"], text), "offline"
        answer = await self.ask_model(envelope["messages"], envelope["response_format"])
        return answer, _reply_of(answer), "model"


def _reply_of(answer: str) -> str:
    """The reply of a model's answer as written; "" when it is not a JSON object (fenced,
    prose around it: the commit reads it leniently and answers the reply it found)."""
    try:
        said = json.loads(answer)
    except ValueError:
        return ""
    reply = said.get("reply") if isinstance(said, dict) else None
    return reply if isinstance(reply, str) else ""


def _commit_body(
    ids: dict[str, str],
    turn_id: str,
    turn: TurnResponse,
    text: str,
    now: datetime | None,
    answer: str | None,
    reply: str,
) -> dict[str, Any]:
    """The commit of the turn: the model's answer, or (offline) the reply as the assistant's."""
    assert turn.hydrate is not None
    messages = [{"role": "user", "text": text, "external_id": turn_id, **_ts(now)}]
    body: dict[str, Any] = {
        **ids,
        "turn_id": turn_id,
        "messages": messages,
        "active_entity_ids": turn.hydrate.active_entity_ids,
        **({"now": now.isoformat()} if now else {}),
    }
    if answer is not None:
        body["answer"] = answer
    else:
        messages.append({"role": "assistant", "text": reply, **_ts(now)})
    return body


LISTS = {
    "COMMITMENT": "commitments",
    "REMINDER": "reminders",
    "GOAL": "goals",
    "HABIT": "habits",
    "FRICTION": "frictions",
    "THREAD": "open threads",
}
CLOSED = {"completed": "Done", "dropped": "Dropped", "checked_in": "Checked in"}


def confirmations(commit: dict[str, Any], asked: str | None = None) -> list[str]:
    """One line per todo the turn created and per todo it closed (so a completion the person
    did not mean is seen at once), then what memory confirms of what the person asked of it (a
    forget, a fact their words ended): what the reply confirms to the person; then the
    product's own questions the turn left open ("? Which one is done: …?") — not one the reply
    (``asked``: the read side's question) already asked."""
    lines = []
    for todo in commit.get("todos", []):
        if todo.get("outcome") != "created":
            continue
        where = LISTS.get(todo.get("kind", ""), "open threads")
        lines.append(f'✓ Added "{todo["text"]}" to your {where}{due_suffix(todo.get("due_at"))}.')
    for closed in commit.get("completions", []):
        lines.append(f'✓ {CLOSED.get(closed.get("outcome", ""), "Closed")}: "{closed["text"]}".')
    return [
        *lines,
        *commit.get("confirmations", []),
        *(f"? {q}" for q in commit.get("questions", []) if not _same_question(q, asked)),
    ]


def _same_question(question: str, asked: str | None) -> bool:
    """The commit's "which Marta?" when the reply already asked which Marta (the read side's
    wording may differ): the person is asked once."""
    mine, theirs = read_question(question), read_question(asked or "")
    return mine is not None and theirs is not None and mine.shown.lower() == theirs.shown.lower()


def _ts(now: datetime | None) -> dict[str, str]:
    return {"ts": now.isoformat()} if now else {}


def _problem(response: httpx.Response) -> Any:
    try:
        problem = response.json()
    except ValueError:
        return response.text[:300]
    return problem.get("detail") or problem.get("title") or problem
