"""A deterministic OpenAI-compatible chat model for n8n's AI Agent (the agent sends LangChain's
chat requests, with ``tools`` when tools are connected; the reply goes straight to the person,
so it is plain text, not the fast brain's JSON answer).

- The reply echoes which memory reached the model, as ``stub_llm.reply_for`` does, from every
  system message's ``<data>`` blocks (the agent's own system message, then Twin Core's memory
  block), and says how many history messages were replayed.
- ``what do you remember about X?`` calls the first tool whose name mentions "recall" with
  ``{"query": X}``; once the tool's result comes back, the reply quotes it.
- Every request is kept in :attr:`AgentLLM.requests`.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

from tests.e2e.stub_llm import StubLLM, memory_seen, reply_for

ASK_MEMORY = re.compile(r"what do you remember about (.+?)\??$", re.IGNORECASE)


def message_text(content: Any) -> str:
    """A chat message's text, whether its content is a string or a list of parts."""
    if isinstance(content, list):
        return "\n".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content or ""


def answer_for(body: dict[str, Any], number: int) -> dict[str, Any]:
    """The chat completion the stub answers for one request."""
    messages = body.get("messages") or []
    system = "\n".join(
        message_text(m.get("content")) for m in messages if m.get("role") == "system"
    )
    users = [message_text(m.get("content")) for m in messages if m.get("role") == "user"]
    history = [m for m in messages if m.get("role") in ("user", "assistant")][:-1]
    last = messages[-1] if messages else {}
    message: dict[str, Any] = {"role": "assistant", "content": None}
    finish = "stop"
    ask = ASK_MEMORY.search(users[-1].strip()) if users else None
    recall = next(
        (
            t["function"]["name"]
            for t in body.get("tools") or []
            if "recall" in t.get("function", {}).get("name", "").lower()
        ),
        None,
    )
    if last.get("role") == "tool":
        message["content"] = f"Recalled: {message_text(last.get('content'))[:3000]}"
    elif ask and recall:
        finish = "tool_calls"
        message["tool_calls"] = [
            {
                "id": f"call_stub_{number}",
                "type": "function",
                "function": {"name": recall, "arguments": json.dumps({"query": ask.group(1)})},
            }
        ]
    else:
        reply = reply_for(memory_seen(system), users[-1] if users else "")
        message["content"] = f"{reply} | history: {len(history)}"
    return {
        "id": f"chatcmpl-agent-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "stub"),
        "choices": [{"index": 0, "finish_reason": finish, "message": message}],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


class AgentLLM(StubLLM):
    """The stub model's server (``StubLLM``: routes, failures on demand) answering as an AI
    Agent's chat model: ``requests`` holds the raw bodies, the answers come from
    :func:`answer_for`."""

    def complete(self, body: dict[str, Any], authorization: str | None) -> dict[str, Any]:
        with self._lock:
            self.requests.append(body)
            number = len(self.requests)
        return answer_for(body, number)
