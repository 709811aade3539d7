"""One Telegram-like turn through the running nodes, in the order the fast-brain flow calls them.

pulse → hydrate → (a pending "which Marta?" question is the reply) → retrieve → envelope →
the model (or the offline reply) → commit. Every call is plain HTTP to the nodes' routes, with
the node token and an ``X-Request-Id`` as n8n sends them; nothing here touches a store.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx

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
    source: str = "offline"  # model | offline | question
    answers: dict[str, Any] = field(default_factory=dict)  # node → its JSON answer


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
        ids = {"user_id": self.user_id, "agent_id": self.agent_id, "chat_id": self.chat_id}
        stamp = {"now": now.isoformat()} if now else {}
        answers: dict[str, Any] = {}

        pulse = answers["pulse-decay"] = await self._call(
            "pulse-decay", turn_id, {**ids, "message": text, "message_id": turn_id, **stamp}
        )
        session = pulse["session"]
        hydrate = answers["graph-hydrator"] = await self._call(
            "graph-hydrator",
            turn_id,
            {
                **ids,
                "message": text,
                "active_entity_ids": session["active_entity_ids"],
                "topic_focus": session["scratch"].get("topic_focus"),
                **stamp,
            },
        )
        question = hydrate["GRAPH"].get("pending_question")
        if question:
            reply, source = question["question"], "question"
            answer = json.dumps({"reply": reply})  # no plan: the shadow judge still extracts
        else:
            retrieve = answers["rag-gate"] = await self._call(
                "rag-gate",
                turn_id,
                {
                    **ids,
                    "message": text,
                    "entity_ids": hydrate["active_entity_ids"],
                    "scratch": session["scratch"],
                    **stamp,
                },
            )
            envelope = answers["envelope-validator"] = await self._call(
                "envelope-validator",
                turn_id,
                {
                    **ids,
                    "AFFECT": pulse["AFFECT"],
                    "GRAPH": hydrate["GRAPH"],
                    "EPISODE": retrieve["EPISODE"],
                    "KNOWLEDGE": retrieve["KNOWLEDGE"],
                    "FACTS": retrieve.get("FACTS"),
                    "ranking": retrieve.get("ranking") or [],
                    "persona_prompt": self.persona_prompt,
                    "conversation_summary": session.get("summary", ""),
                    "recent_turns": session["turns"],
                    "user_message": text,
                    **stamp,
                },
            )
            if self.ask_model is not None:
                answer = await self.ask_model(envelope["messages"], envelope["response_format"])
                reply, source = json.loads(answer).get("reply", ""), "model"
            else:
                # No model: say what memory reached the envelope; the commit's offline
                # extractor decides what to remember (no plan is sent).
                answer, reply, source = None, offline_reply(envelope["envelope"]), "offline"

        messages = [{"role": "user", "text": text, "external_id": turn_id, **_ts(now)}]
        body: dict[str, Any] = {
            **ids,
            "turn_id": turn_id,
            "messages": messages,
            "active_entity_ids": hydrate["active_entity_ids"],
            **stamp,
        }
        if answer is not None:
            body["answer"] = answer
        else:
            messages.append({"role": "assistant", "text": reply, **_ts(now)})
        commit = answers["memory-upserter"] = await self._call("memory-upserter", turn_id, body)
        return Exchange(
            reply=commit.get("reply") or reply,
            source=source,
            answers=answers,
            confirmations=confirmations(commit),
        )

    async def _call(self, node: str, turn_id: str, body: dict[str, Any]) -> dict[str, Any]:
        headers = {"X-Request-Id": f"{turn_id}-{node}"}
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
        return answer


LISTS = {
    "COMMITMENT": "commitments",
    "REMINDER": "reminders",
    "GOAL": "goals",
    "HABIT": "habits",
    "FRICTION": "frictions",
    "THREAD": "open threads",
}


def confirmations(commit: dict[str, Any]) -> list[str]:
    """One line per todo the turn created: what the reply confirms to the person."""
    lines = []
    for todo in commit.get("todos", []):
        if todo.get("outcome") != "created":
            continue
        where = LISTS.get(todo.get("kind", ""), "open threads")
        lines.append(f'✓ Added "{todo["text"]}" to your {where}{due_suffix(todo.get("due_at"))}.')
    return lines


def _ts(now: datetime | None) -> dict[str, str]:
    return {"ts": now.isoformat()} if now else {}


def _problem(response: httpx.Response) -> Any:
    try:
        problem = response.json()
    except ValueError:
        return response.text[:300]
    return problem.get("detail") or problem.get("title") or problem
