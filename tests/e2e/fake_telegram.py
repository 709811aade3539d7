"""A fake Telegram Bot API: answers ``/bot<token>/<method>`` like Telegram and records calls.

n8n's ``telegramApi`` credential has a ``baseUrl``; pointed here, publishing a Telegram Trigger
calls ``getWebhookInfo`` and ``setWebhook`` (recorded per bot token, so the test learns each
bot's webhook URL and secret), and a Telegram node's "send message" lands in
:attr:`FakeTelegram.sent` — with ``shown``, the text the person sees — only if the real Bot API
would accept it (``tests/e2e/telegram_format.py``: parse modes, entities, 4096 characters);
otherwise it is answered ``400 Bad Request`` and kept in :attr:`FakeTelegram.rejected`.
``POST /alerts`` records what an error workflow posts (:attr:`FakeTelegram.alerts`).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

from tests.e2e.telegram_format import BadRequest, visible_text

BOT_USER = {"id": 777000111, "is_bot": True, "first_name": "Twin", "username": "twin_test_bot"}


@dataclass
class Call:
    token: str
    method: str
    params: dict[str, Any]


@dataclass
class FakeTelegram:
    host: str = "127.0.0.1"
    calls: list[Call] = field(default_factory=list)
    webhook: dict[str, Any] = field(default_factory=dict)  # the last setWebhook, any bot
    webhooks: dict[str, dict[str, Any]] = field(default_factory=dict)  # bot token → setWebhook
    rejected: list[dict[str, Any]] = field(default_factory=list)
    alerts: list[dict[str, Any]] = field(default_factory=list)
    _lock: threading.Condition = field(default_factory=threading.Condition)
    _server: ThreadingHTTPServer | None = None
    _message_id: int = 1000

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://{self.host}:{self._server.server_address[1]}"

    def start(self) -> FakeTelegram:
        self._server = ThreadingHTTPServer((self.host, 0), _handler(self))
        self._server.daemon_threads = True
        threading.Thread(
            target=self._server.serve_forever, daemon=True, name="fake-telegram"
        ).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    @property
    def sent(self) -> list[dict[str, Any]]:
        """Every ``sendMessage`` body, oldest first."""
        with self._lock:
            return [
                call.params
                for call in self.calls
                if call.method == "sendMessage" and "shown" in call.params
            ]

    def wait_for_sent(self, count: int, timeout: float = 30.0) -> list[dict[str, Any]]:
        """Block until at least ``count`` messages were sent; return them all."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while True:
                sent = [
                    c.params
                    for c in self.calls
                    if c.method == "sendMessage" and "shown" in c.params
                ]
                if len(sent) >= count:
                    return sent
                left = deadline - time.monotonic()
                if left <= 0:
                    methods = [c.method for c in self.calls]
                    raise TimeoutError(f"{len(sent)} of {count} messages sent; calls: {methods}")
                self._lock.wait(left)

    def sent_by(self, token: str) -> list[dict[str, Any]]:
        """The messages one bot sent, oldest first."""
        with self._lock:
            return [
                c.params
                for c in self.calls
                if c.method == "sendMessage" and c.token == token and "shown" in c.params
            ]

    def wait_for_webhook(self, timeout: float = 60.0, token: str | None = None) -> dict[str, Any]:
        """Block until ``setWebhook`` was called (by the bot ``token``, if given); return its
        parameters (url, secret_token)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while not (
                self.webhooks.get(token, {}).get("url") if token else self.webhook.get("url")
            ):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("n8n never called setWebhook on the fake Bot API")
                self._lock.wait(left)
            return dict(self.webhooks[token] if token else self.webhook)

    def alert(self, body: dict[str, Any]) -> None:
        with self._lock:
            self.alerts.append(body)
            self._lock.notify_all()

    def answer(self, token: str, method: str, params: dict[str, Any]) -> tuple[int, Any]:
        with self._lock:
            result = self._result(token, method, params)
            self.calls.append(Call(token, method, params))
            self._lock.notify_all()
        return result

    def _result(self, token: str, method: str, params: dict[str, Any]) -> tuple[int, Any]:
        lowered = method.lower()
        if lowered == "getme":
            return 200, BOT_USER
        if lowered == "getwebhookinfo":
            return 200, {
                "url": self.webhook.get("url", ""),
                "has_custom_certificate": False,
                "pending_update_count": 0,
            }
        if lowered == "setwebhook":
            self.webhook = dict(params)
            self.webhooks[token] = dict(params)
            return 200, True
        if lowered == "deletewebhook":
            self.webhook = {}
            self.webhooks.pop(token, None)
            return 200, True
        if lowered == "sendmessage":
            if "chat_id" not in params:
                return 400, "Bad Request: chat_id is empty"
            try:
                params["shown"] = visible_text(
                    str(params.get("text", "")), params.get("parse_mode")
                )
            except BadRequest as exc:
                self.rejected.append({**params, "error": str(exc)})
                return 400, str(exc)
            self._message_id += 1
            chat_id = params["chat_id"]
            return 200, {
                "message_id": self._message_id,
                "date": int(time.time()),
                "from": BOT_USER,
                "chat": {"id": _int(chat_id), "type": "private"},
                "text": str(params["text"]),
            }
        return 200, True


def _int(value: Any) -> Any:
    try:
        return int(value)
    except (TypeError, ValueError):
        return value


def _handler(fake: FakeTelegram) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib name
            return

        def do_GET(self) -> None:  # noqa: N802 - stdlib name
            path, _, query = self.path.partition("?")
            self._dispatch(path, dict(parse_qsl(query)))

        def do_POST(self) -> None:  # noqa: N802 - stdlib name
            path, _, query = self.path.partition("?")
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            params: dict[str, Any] = dict(parse_qsl(query))
            kind = self.headers.get("Content-Type", "")
            if raw and "json" in kind:
                params.update(json.loads(raw))
            elif raw:
                params.update(parse_qsl(raw.decode()))
            self._dispatch(path, params)

        def _dispatch(self, path: str, params: dict[str, Any]) -> None:
            if path.rstrip("/") == "/alerts":
                fake.alert(params)
                self._send(200, {"ok": True})
                return
            parts = path.strip("/").split("/")
            if len(parts) != 2 or not parts[0].startswith("bot"):
                self._send(404, {"ok": False, "error_code": 404, "description": "Not Found"})
                return
            status, result = fake.answer(parts[0][3:], parts[1], params)
            if status == 200:
                self._send(200, {"ok": True, "result": result})
            else:
                self._send(status, {"ok": False, "error_code": status, "description": result})

        def _send(self, status: int, body: Any) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler
