"""A person on Telegram, as the E2E drives one: updates the way the Bot API posts them to a
persona's bot, and the messages that bot sent back to that chat."""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tests.e2e.stack import AGENT_ID, Stack

_update_ids = itertools.count(800_001)
_message_ids = itertools.count(5_001)


@dataclass
class Person:
    first_name: str
    id: int = field(default_factory=lambda: random.randrange(10**8, 10**9))

    @property
    def user(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "is_bot": False,
            "first_name": self.first_name,
            "language_code": "en",
        }

    @property
    def user_id(self) -> str:
        return f"tg:{self.id}"


def update(
    person: Person,
    when: datetime,
    *,
    text: str | None = None,
    chat: dict[str, Any] | None = None,
    **message: Any,
) -> dict[str, Any]:
    """A Telegram ``Update`` with a ``message`` (text, or any other content given)."""
    body: dict[str, Any] = {
        "message_id": next(_message_ids),
        "from": person.user,
        "chat": chat or {"id": person.id, "first_name": person.first_name, "type": "private"},
        "date": int(when.timestamp()),
        **message,
    }
    if text is not None:
        body["text"] = text
    return {"update_id": next(_update_ids), "message": body}


def deliver(
    stack: Stack,
    person: Person,
    upd: dict[str, Any],
    *,
    agent: str = AGENT_ID,
    replies: int = 1,
    timeout: float = 60,
) -> list[dict[str, Any]]:
    """Post the update to the persona's bot; wait for ``replies`` more messages from that bot
    (any chat) and return the new ones sent to this update's chat."""
    stack.users.add(person.user_id)
    token = stack.secrets.bot_tokens[agent]
    before = len(stack.telegram.sent_by(token))
    answer = stack.telegram_update(upd, agent=agent)
    assert answer.status_code == 200, answer.text
    chat_id = str(upd["message"]["chat"]["id"])
    sent = _wait(stack, token, before + replies, timeout)
    return [m for m in sent[before:] if str(m["chat_id"]) == chat_id]


def say(stack: Stack, person: Person, text: str, when: datetime, *, agent: str = AGENT_ID) -> str:
    """One private message to a persona; the text the person sees in return."""
    sent = deliver(stack, person, update(person, when, text=text), agent=agent)
    assert sent, f"no reply to {text!r}\n{stack.n8n.explain()}"
    return "\n".join(m["shown"] for m in sent)


def _wait(stack: Stack, token: str, count: int, timeout: float) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while True:
        sent = stack.telegram.sent_by(token)
        if len(sent) >= count:
            return sent
        if time.monotonic() > deadline:
            raise AssertionError(
                f"{len(sent)} of {count} messages sent; rejected: "
                f"{stack.telegram.rejected[-3:]}\n{stack.n8n.explain()}"
            )
        time.sleep(0.1)
