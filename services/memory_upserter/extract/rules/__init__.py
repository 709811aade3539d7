"""The offline extractor's rule table, in order: the one place that order is set.

The self-statements of :mod:`.basics` (home, work, diet, allergies, likes, projects, events,
people) come first, then who the person is (:mod:`.profile`), then their life (:mod:`.life`),
what changes it (:mod:`.events`), a few statements in other languages (:mod:`.languages`), the
self-statements typed the Telegram way that the tidier rules miss (:mod:`.everyday`), what
the person does and keeps (:mod:`.doing`: a fallback for a clause nothing else wrote from;
:mod:`.keeps`), and last the
relations said in passing (:mod:`.kin`), which a named relation outranks.
Within a module, rules keep the order they are written in. The todo rules (:mod:`.todos`, then the
everyday plans of :mod:`.plans`) are a table of their own.
"""

from __future__ import annotations

from types import ModuleType

from services.memory_upserter.extract.rules import (
    basics,
    doing,
    events,
    everyday,
    keeps,
    kin,
    languages,
    life,
    plans,
    profile,
    todos,
)
from services.memory_upserter.extract.rules.registry import REGISTERED, REGISTERED_TODOS, Rule

FACT_ORDER: tuple[ModuleType, ...] = (
    basics,
    profile,
    life,
    events,
    languages,
    everyday,
    doing,
    keeps,
    kin,
)
TODO_ORDER: tuple[ModuleType, ...] = (todos, plans)


def _table(registered: list[Rule], order: tuple[ModuleType, ...]) -> tuple[Rule, ...]:
    place = {module.__name__: i for i, module in enumerate(order)}
    unplaced = {r.module for r in registered} - place.keys()
    assert not unplaced, f"rule modules missing from the table: {sorted(unplaced)}"
    return tuple(sorted(registered, key=lambda r: place[r.module]))  # stable


FACT_RULES = _table(REGISTERED, FACT_ORDER)
TODO_RULES = _table(REGISTERED_TODOS, TODO_ORDER)

__all__ = ["FACT_ORDER", "FACT_RULES", "TODO_ORDER", "TODO_RULES", "Rule"]
