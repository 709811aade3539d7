"""A deterministic OpenAI-compatible chat endpoint for the E2E test (n8n's calls cannot be
intercepted by respx, so the model is a real local server).

``POST /v1/chat/completions`` answers an ``LLMAnswer`` JSON string as the message content:

- ``reply`` echoes which memory reached the model — the items of every ``<data>`` block of the
  system message, by section (``ENTITIES AND RELATIONS``, ``COMMITMENTS (pending)``,
  ``EPISODES`` …) — so a test can read what the envelope carried from the reply alone;
- without a ``response_format`` (a persona-only call) the content is the ``reply`` alone, as
  prose;
- ``plan`` is what a careful model would extract from the user's message, with a few plain
  rules (``my sister Marta …``, ``X lives in Y``, ``remind me to …``): deterministic, and
  written in the contract of ``contracts/plan.py``.

Every request is kept in :attr:`StubLLM.requests` (the whole chat body as n8n sent it).
"""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

SECTION = re.compile(r"^\[([A-Z][A-Za-z /()-]*)\]$")
RELATIVES = (
    "sister",
    "brother",
    "mother",
    "father",
    "friend",
    "wife",
    "husband",
    "partner",
    "son",
    "daughter",
    "cousin",
    "aunt",
    "uncle",
    "boss",
    "colleague",
)
WORK = ("boss", "colleague")
DAYS = (
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "tomorrow",
    "today",
    "tonight",
)
PRONOUNS = re.compile(r"\b(her|him|them)\b", re.IGNORECASE)


# RELEVANT MEMORIES holds every slot's evidence, each in a block naming its slot: an EPISODE
# or KNOWLEDGE block there is filed under the section that slot's items had before (1.3).
SLOT_SECTION = {"EPISODE": "EPISODES", "KNOWLEDGE": "KNOWLEDGE"}


def memory_seen(system: str) -> dict[str, list[str]]:
    """Section name → one short label per data line of that section."""
    seen: dict[str, list[str]] = {}
    header_section, section, inside = "", "", False
    for line in system.splitlines():
        header = SECTION.match(line.strip())
        if header and not inside:
            header_section = section = header.group(1)
            continue
        if line.startswith("<data "):
            inside = True
            source = re.search(r'source="([A-Z ]+)"', line)
            section = header_section
            if header_section == "RELEVANT MEMORIES" and source:
                section = SLOT_SECTION.get(source.group(1), header_section)
            continue
        if line.startswith("</data>"):
            inside = False
            continue
        if inside:
            seen.setdefault(section, []).append(_label(json.loads(line)))
    return seen


def _label(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        for key in ("entity", "fact", "todo", "summary", "reflection", "text", "ask", "mood"):
            if key in value:
                return str(value[key])
    return json.dumps(value, sort_keys=True)


def reply_for(seen: dict[str, list[str]], user_message: str) -> str:
    """``Heard: <message> | <SECTION>: a; b | …`` over the memory sections only."""
    parts = [f"Heard: {user_message}"]
    for section, items in seen.items():
        if section in ("SESSION STATE",):
            continue
        parts.append(f"{section}: " + "; ".join(items))
    return " | ".join(parts)[:7_900]


def plan_for(
    user_message: str, seen: dict[str, list[str]], earlier: list[str] = ()
) -> dict[str, Any]:
    """The memory-write plan a model would answer for this message (facts, todos), by rule;
    ``earlier`` (the replayed user turns) resolves a pronoun the way a model would."""
    entities: list[dict[str, Any]] = []
    facts: list[dict[str, Any]] = []
    todos: list[dict[str, Any]] = []
    text = user_message.strip()
    named = re.findall(rf"\bmy ({'|'.join(RELATIVES)}) ([A-Z][\w-]+)", text)
    for relation, name in named:
        entity = {
            "name": name,
            "category": "Person",
            "aliases": [],
            "scope": "global",
            "hint": f"the user's {relation}",
        }
        handle = name
        if relation in WORK and re.search(r"\b(?:different|another|not the same)\b", text):
            # two people, one name: a careful model declares the new one apart
            handle = f"work {name}"
            entity |= {"aliases": [handle], "distinct_from": name}
        entities.append(entity)
        facts.append(
            _fact(
                "PEOPLE",
                "user",
                f"has_{relation}",
                obj=handle,
                text=f"{name} is the user's {relation}",
                fact_type="relationship",
                importance=2,
            )
        )
    for name, place in re.findall(r"\b([A-Z][\w-]+) lives in ([A-Z][\w -]*[\w])", text):
        if not any(e["name"] == place for e in entities):
            entities.append(
                {
                    "name": place,
                    "category": "Location",
                    "aliases": [],
                    "scope": "global",
                    "hint": None,
                }
            )
        facts.append(
            _fact(
                "PEOPLE", name, "lives_in", obj=place, text=f"{name} lives in {place}", importance=2
            )
        )
    remind = re.search(r"\bremind me to (.+?)[.!]?$", text, re.IGNORECASE)
    if remind:
        task = remind.group(1)
        mentioned = _mentioned_person(seen, earlier)
        if mentioned:
            task = PRONOUNS.sub(mentioned, task)
        due = next(
            (day.capitalize() for day in DAYS if re.search(rf"\b{day}\b", task.lower())), None
        )
        todos.append({"kind": "COMMITMENT", "text": task, "due": due, "source_snippet": text})
    return {
        "entities": entities,
        "facts": facts,
        "todos": todos,
        "complete_commitment": False,
        "promote_affect": None,
        "forget": [],
    }


def _fact(
    memory_type: str,
    subject: str,
    predicate: str,
    *,
    obj: str | None,
    text: str,
    fact_type: str = "fact",
    importance: int = 1,
) -> dict[str, Any]:
    return {
        "memory_type": memory_type,
        "subject": subject,
        "predicate": predicate,
        "object": obj,
        "value": None,
        "text": text,
        "fact_type": fact_type,
        "importance": importance,
        "pinned": False,
        "confidence": 0.9,
        "scope": "global",
    }


def _mentioned_person(seen: dict[str, list[str]], earlier: list[str]) -> str | None:
    """Who a pronoun means ("call her" → "call Marta"): the last relative named in the
    conversation, else the first person GRAPH holds."""
    for text in reversed(earlier):
        named = re.findall(rf"\bmy (?:{'|'.join(RELATIVES)}) ([A-Z][\w-]+)", text)
        if named:
            return named[-1]
    for label in seen.get("ENTITIES AND RELATIONS", []):
        if label and label[0].isupper() and " " not in label:
            return label
    return None


@dataclass
class StubLLM:
    host: str = "127.0.0.1"
    requests: list[dict[str, Any]] = field(default_factory=list)
    failures: list[int] = field(default_factory=list)  # statuses the next requests answer
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        """What ``OPENAI_BASE_URL`` should be (the ``/v1`` prefix, as OpenAI's)."""
        assert self._server is not None
        return f"http://{self.host}:{self._server.server_address[1]}/v1"

    def start(self) -> StubLLM:
        self._server = ThreadingHTTPServer((self.host, 0), _handler(self))
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True, name="stub-llm").start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def fail_next(self, *statuses: int) -> None:
        """The next requests answer these HTTP statuses (an OpenAI-style error body), in order;
        each is recorded in :attr:`requests` like any other."""
        with self._lock:
            self.failures.extend(statuses)

    def failure(self, body: dict[str, Any]) -> int | None:
        with self._lock:
            if not self.failures:
                return None
            self.requests.append({"body": body, "authorization": None, "failed": True})
            return self.failures.pop(0)

    def complete(self, body: dict[str, Any], authorization: str | None) -> dict[str, Any]:
        with self._lock:
            self.requests.append({"body": body, "authorization": authorization})
            number = len(self.requests)
        messages = body.get("messages") or []
        system = next((m["content"] for m in messages if m.get("role") == "system"), "")
        users = [m["content"] for m in messages if m.get("role") == "user"]
        user = users[-1] if users else ""
        seen = memory_seen(system)
        answer = {"reply": reply_for(seen, user), "plan": plan_for(user, seen, users[:-1])}
        # without a response_format (the flow's persona-only fallback) a model answers prose
        content = json.dumps(answer) if body.get("response_format") else answer["reply"]
        return {
            "id": f"chatcmpl-stub-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "stub"),
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": content},
                }
            ],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        }


def _handler(stub: StubLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
            return

        def do_POST(self) -> None:  # noqa: N802 - stdlib name
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except json.JSONDecodeError:
                self._send(400, {"error": {"message": "body is not JSON"}})
                return
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}"}})
                return
            if not isinstance(body.get("messages"), list) or not body["messages"]:
                self._send(400, {"error": {"message": "messages must be a non-empty list"}})
                return
            status = stub.failure(body)
            if status is not None:
                self._send(
                    status,
                    {
                        "error": {
                            "message": f"stub failure {status}",
                            "type": "server_error" if status >= 500 else "invalid_request_error",
                        }
                    },
                )
                return
            self._send(200, stub.complete(body, self.headers.get("Authorization")))

        def _send(self, status: int, body: Any) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
