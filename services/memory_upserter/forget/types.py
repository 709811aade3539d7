"""What a forget selects and what it reached, as plain data (pure): the Postgres half fills
them (:mod:`.tx`, :mod:`.store`), the clean-up after it and the commit read them
(:mod:`.cleanup`, :mod:`..commit.turn`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from uuid import UUID

from contracts.memory import Notice


@dataclass(frozen=True)
class Selection:
    """Who and what: the scope's agent (None = every agent) and the targets, resolved."""

    user_id: str
    agent_id: str | None
    everything: bool = False
    entity_ids: tuple[UUID, ...] = ()
    fact_ids: tuple[UUID, ...] = ()
    episode_ids: tuple[UUID, ...] = ()
    todo_ids: tuple[UUID, ...] = ()
    texts: tuple[str, ...] = ()
    names_pattern: str | None = None  # \m(name|alias…)\M over twin_normalize(text)
    session_ids: tuple[UUID, ...] = ()  # the sessions whose messages and episodes go
    message_ids: tuple[UUID, ...] = ()  # messages that go whole


@dataclass
class Effects:
    """What was forgotten, for the answer, the audit and the vector/Redis cleanup after."""

    counts: Counter[str] = field(default_factory=Counter)
    ids: dict[str, list[UUID]] = field(default_factory=dict)
    entity_names: list[str] = field(default_factory=list)  # normalized, for working memory
    tables: dict[str, int] = field(default_factory=dict)  # rows per table, when counted so

    def add(self, kind: str, ids: Sequence[UUID]) -> None:
        self.ids.setdefault(kind, []).extend(ids)
        self.counts[kind] += len(ids)


@dataclass
class Forgotten:
    """What the transaction forgot, and what the clean-up after it must reach."""

    effects: Effects
    forget_ids: list[UUID] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # normalized entity names and aliases
    texts: list[str] = field(default_factory=list)
    wipe_user: bool = False  # every key and point of the user
    wipe_agent: str | None = None  # every working-memory key of this agent
    session_chat: tuple[str, str] | None = None  # (agent, chat) whose keys go
    warnings: list[Notice] = field(default_factory=list)


def merge(into: Effects, more: Effects) -> None:
    """Add ``more``'s ids and counts to ``into``."""
    for kind, ids in more.ids.items():
        into.add(kind, ids)
    into.counts.update({k: n for k, n in more.counts.items() if k not in more.ids})
