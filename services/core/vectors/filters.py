"""Who may see and touch which points, as engine-neutral conditions.

Both adapters translate these few shapes into their engine's filter types, so the scoping rules
(the "no Marta bleed" guarantee) are written and tested once. Every filter built here starts
with the user's id. The same persona visibility for SQL:
:mod:`services.core.memory_store.visibility`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from services.core.vectors.layout import ACTIVE_KEY, active_mark
from services.core.vectors.port import SHARED_OWNER, PayloadValue, canonical_id


@dataclass(frozen=True, slots=True)
class Eq:
    key: str
    value: str | int | bool


@dataclass(frozen=True, slots=True)
class AnyOf:
    key: str
    values: tuple[str, ...] | tuple[int, ...]

    def listed(self) -> list[str] | list[int]:
        """The values as one list of one type, as the engines' any-of matches take them."""
        if self.values and isinstance(self.values[0], int):
            return [int(v) for v in self.values]
        return [str(v) for v in self.values]


@dataclass(frozen=True, slots=True)
class HasIds:
    ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AllOf:
    conditions: tuple[Condition, ...]


@dataclass(frozen=True, slots=True)
class OneOf:
    conditions: tuple[Condition, ...]


Condition = Eq | AnyOf | HasIds | AllOf | OneOf


def user_only(user_id: str, *, with_shared: bool = False) -> AllOf:
    """All of the user's points (and the shared ones), whatever their scope or state."""
    return AllOf((_owner(user_id, with_shared),))


def visible(
    *,
    user_id: str,
    agent_id: str | None = None,
    agent_only: bool = False,
    with_shared: bool = False,
    entity_ids: Sequence[str] | None = None,
    include_inactive: bool = False,
    extra_must: Mapping[str, PayloadValue] | None = None,
) -> AllOf:
    """The points a search for this user (and agent) may return.

    Without an agent only global points are visible; with one, global points and that agent's
    own; with ``agent_only``, just the agent's own. ``with_shared``: the points owned by
    ``SHARED_OWNER`` too, beside the user's own (never another user's).
    """
    must: list[Condition] = [_owner(user_id, with_shared)]
    if not include_inactive:
        must.append(Eq(ACTIVE_KEY, active_mark(True)))
    if agent_only:
        if not agent_id:
            raise ValueError("agent_only needs an agent_id")
        must.append(_agent_own(agent_id))
    elif agent_id:
        must.append(OneOf((Eq("scope", "global"), _agent_own(agent_id))))
    else:
        must.append(Eq("scope", "global"))
    if entity_ids:
        must.append(AnyOf("entity_ids", tuple(entity_ids)))
    for key, value in (extra_must or {}).items():
        if isinstance(value, str | int | bool):
            must.append(Eq(key, value))
        else:
            must.append(AnyOf(key, _values(value)))
    return AllOf(tuple(must))


def owned(*, user_id: str, ids: Sequence[str] | None = None, agent_id: str | None = None) -> AllOf:
    """The points a write (soft or hard forget) may touch: always only the user's."""
    must: list[Condition] = [Eq("user_id", _user(user_id))]
    if ids is not None:
        must.append(HasIds(tuple(canonical_id(i) for i in ids)))
    if agent_id is not None:
        must.append(_agent_own(agent_id))
    return AllOf(tuple(must))


def _values(values: Sequence[str] | Sequence[int]) -> tuple[str, ...] | tuple[int, ...]:
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return tuple(int(v) for v in values)
    return tuple(str(v) for v in values)


def _owner(user_id: str, with_shared: bool) -> Condition:
    if with_shared:
        return AnyOf("user_id", (_user(user_id), SHARED_OWNER))
    return Eq("user_id", _user(user_id))


def _agent_own(agent_id: str) -> AllOf:
    return AllOf((Eq("scope", "agent"), Eq("agent_id", agent_id)))


def _user(user_id: str) -> str:
    if not isinstance(user_id, str) or not user_id:
        raise ValueError("user_id must be a non-empty string")
    return user_id
