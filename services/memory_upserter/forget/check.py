"""``POST /v1/forget``'s request, checked beyond its schema (pure)."""

from __future__ import annotations

import uuid

import msgspec

from contracts.privacy import ForgetRequest, ForgetTarget
from services.core.errors import FieldError, InvalidInput

CONVERSATION = ("session", "chat")  # the scopes that forget a conversation, not targets


def check(req: ForgetRequest) -> None:
    """What the schema cannot say; raises :class:`InvalidInput` listing every problem."""
    errors = [
        *(_conversation(req) if req.scope in CONVERSATION else _targeted(req)),
        *(e for i, target in enumerate(req.targets) for e in _target(i, target)),
        *_session(req),
    ]
    if errors:
        raise InvalidInput(errors)


def _conversation(req: ForgetRequest) -> list[FieldError]:
    """A session or chat forget: which conversation, and no targets."""
    errors = [
        FieldError(f"$.{f}", f"scope {req.scope!r} needs {f}")
        for f in ("agent_id", "chat_id")
        if getattr(req, f) is None
    ]
    if req.targets:
        errors.append(
            FieldError(
                "$.targets",
                f"scope {req.scope!r} forgets the conversation; "
                "targets need scope 'agent' or 'global'",
            )
        )
    return errors


def _targeted(req: ForgetRequest) -> list[FieldError]:
    """An agent or global forget: what to forget, and no history flag."""
    errors = []
    if req.scope == "agent" and req.agent_id is None:
        errors.append(FieldError("$.agent_id", "scope 'agent' needs agent_id"))
    if not req.targets and not req.everything:
        errors.append(FieldError("$.targets", "name what to forget, or set everything: true"))
    if req.include_history:
        errors.append(FieldError("$.include_history", "only for scope 'session' or 'chat'"))
    return errors


def _target(i: int, target: ForgetTarget) -> list[FieldError]:
    """One target: exactly one field, its ids UUIDs."""
    errors = []
    given = [f for f in msgspec.structs.fields(ForgetTarget) if getattr(target, f.name) is not None]
    if len(given) != 1:
        errors.append(
            FieldError(
                f"$.targets[{i}]",
                "give exactly one of entity, fact_id, episode_id, todo_id, message_id, text",
            )
        )
    for f in ("fact_id", "episode_id", "todo_id", "message_id"):
        if getattr(target, f) is not None and not _uuid(getattr(target, f)):
            errors.append(FieldError(f"$.targets[{i}].{f}", "not a UUID"))
    return errors


def _session(req: ForgetRequest) -> list[FieldError]:
    if req.session_id is None:
        return []
    errors = [] if _uuid(req.session_id) else [FieldError("$.session_id", "not a UUID")]
    if req.scope != "session":
        errors.append(FieldError("$.session_id", "only for scope 'session'"))
    return errors


def _uuid(value: str) -> bool:
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True
