"""What ``twin chat`` checks before it talks to anything: the ids it was started with, and each
message against the one limit a person can reach by typing.

The contracts are the rule (:mod:`contracts.common`); this only says it in words a person reads
at the prompt, instead of the node's 422 with a raw pattern on the first message.
"""

from __future__ import annotations

import msgspec

from contracts.common import TEXT_MAX, AgentId, ChatId, UserId

_RULES: dict[str, tuple[object, str]] = {
    "--user": (UserId, "1–128 characters, no control characters, not starting with '@'"),
    "--agent": (AgentId, "1–64 letters, digits, '_', '.', ':' or '-' (no spaces)"),
    "--chat": (ChatId, "1–128 characters, no control characters"),
}


def id_problem(option: str, value: str) -> str | None:
    """``None`` when ``value`` is a valid id for ``option`` (``--user``, ``--agent``,
    ``--chat``); else one line naming the option, the value and what an id may be."""
    kind, words = _RULES[option]
    try:
        msgspec.convert(value, kind)
    except msgspec.ValidationError:
        return f"{option} {value!r} is not a valid id: {words}"
    return None


def message_problem(text: str) -> str | None:
    """``None`` when the nodes take ``text`` as a message; else the limit it passes."""
    if len(text) > TEXT_MAX:
        return (
            f"not sent: this message is {len(text):,} characters; one message holds at most "
            f"{TEXT_MAX:,} (the contracts' limit for a message); split it"
        )
    return None
