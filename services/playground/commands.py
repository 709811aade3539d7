"""``twin chat``'s slash commands that talk to the nodes: ``/forget <text>`` and ``/help``.

``/forget <text>`` asks memory-upserter to forget it for this user, as ``POST /v1/forget``
with a ``text`` target over every agent (soft: hidden from every read, the rows kept until a
hard forget), and shows the receipt in a line or two. A line that starts with ``/`` and names
no command is never sent as a turn (the commit would log it and remember nothing from it; here
it is not even logged).
"""

from __future__ import annotations

from typing import Any

import httpx

HELP = (
    "/forget <text>  forget what you said containing it (facts, reminders, sentences)\n"
    "/envelope  what the model got last turn     /written  what the last turn wrote\n"
    "/show  toggle both after every turn          /new  a new session\n"
    "/help  this list                             /quit  leave"
)
MIN_TEXT = 2  # ForgetTarget.text's shortest


def is_command(text: str) -> bool:
    """A line for the terminal, not a message: it starts with ``/`` and a letter."""
    return len(text) > 1 and text[0] == "/" and text[1].isalpha()


async def forget(
    client: httpx.AsyncClient,
    base_url: str,
    *,
    user_id: str,
    text: str,
    token: str | None = None,
) -> str:
    """Forget ``text`` for ``user_id``; the line to show (the receipt, or what went wrong)."""
    text = text.strip()
    if len(text) < MIN_TEXT:
        return "(usage: /forget <text>, at least two characters)"
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    body = {"user_id": user_id, "scope": "global", "targets": [{"text": text}]}
    try:
        response = await client.post(f"{base_url}/v1/forget", json=body, headers=headers)
    except httpx.HTTPError as exc:
        return f"!! memory-upserter could not be reached: {type(exc).__name__}"
    if response.status_code != 200:
        return f"!! memory-upserter answered {response.status_code}: {response.text[:200]}"
    return receipt_line(response.json())


def receipt_line(answer: dict[str, Any]) -> str:
    """The forget's answer in brief: what went, by kind, and any warning."""
    counts = {k: n for k, n in answer.get("counts", {}).items() if n}
    kinds = [
        (counts.get("facts", 0), "facts"),
        (counts.get("todos", 0), "reminders"),
        (counts.get("episodes", 0), "episodes"),
        (counts.get("messages", 0), "messages"),
        (counts.get("messages_redacted", 0), "messages cut"),
        (counts.get("entities", 0), "people/things"),
    ]
    went = ", ".join(f"{n} {what}" for n, what in kinds if n)
    warnings = [w.get("detail") or w.get("code") for w in answer.get("warnings", [])]
    line = f"(forgotten: {went})" if went else "(nothing matched: nothing was forgotten)"
    return line + "".join(f"\n(! {w})" for w in warnings if w and went)
