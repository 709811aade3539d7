"""The offline extractor's rule table, in order: the one place that order is set.

The self-statements of :mod:`.basics` (home, work, diet, allergies, likes, projects, people)
and the one-off events of :mod:`.did` come first, then who the person is (:mod:`.profile`),
then their life (:mod:`.life`),
what changes it (:mod:`.events`), a few statements in other languages (:mod:`.languages`), the
self-statements typed the Telegram way that the tidier rules miss (:mod:`.everyday`), what
the person does and keeps (:mod:`.doing`: a fallback for a clause nothing else wrote from;
:mod:`.keeps`), a life told in long, chatty turns (:mod:`.talk`: plural roles with names,
goals; :mod:`.work`: jobs got or held; :mod:`.family`: relatives lost, friends, homes
described; :mod:`.study`: school and degrees; :mod:`.health`: injuries, conditions, diets;
:mod:`.lately`: activities kept up; :mod:`.fondness`: likes said the long way;
:mod:`.joys`: likes said by what a pastime gives the person;
:mod:`.pastimes`: taken up, groups joined, habits, works underway; :mod:`.pursuits`: done a
lot, done in spare time), the shapes of a clause
that say a habit or a belonging whatever the verb (:mod:`.habits`: a present verb with a word of
frequency, "been …ing"; :mod:`.belongs`: service, seats, likes said by what they do to the
person), and last the relations said
in passing (:mod:`.standing`: hired, promoted, conditions said as adjectives, a time in a
place; :mod:`.household`: pets had, siblings placed, parents, a spouse married;
:mod:`.homes`: an origin said by the move; :mod:`.kin`), which a named relation outranks.
What the person used to do writes nothing (the corpora's "past" category). Within a module,
rules keep the order they are written in. The todo rules (:mod:`.todos`, then the goals of
:mod:`.talk`, :mod:`.family` and :mod:`.health`, then the dated arrangements of :mod:`.plans`,
the plans and wants said the everyday way (:mod:`.wants`) and the notes the person asks to
keep, :mod:`.notes`) are a table of their own.
"""

from __future__ import annotations

from types import ModuleType

from services.memory_upserter.extract.rules import (
    basics,
    belongs,
    changes,
    did,
    doing,
    dropped,
    events,
    everyday,
    family,
    fondness,
    habits,
    health,
    homes,
    household,
    implied,
    joys,
    keeps,
    kin,
    languages,
    lately,
    life,
    named,
    notes,
    pastimes,
    plans,
    profile,
    projects,
    pursuits,
    standing,
    study,
    talk,
    tastes,
    todos,
    wants,
    work,
)
from services.memory_upserter.extract.rules.registry import REGISTERED, REGISTERED_TODOS, Rule

FACT_ORDER: tuple[ModuleType, ...] = (
    basics, did, profile, life, events, languages, everyday, doing, keeps, talk, work, family,
    study, health, lately, fondness, joys, pastimes, pursuits, projects, changes, habits, belongs,
    implied, tastes, named, standing, household, homes, kin, dropped,
)  # fmt: skip
TODO_ORDER: tuple[ModuleType, ...] = (todos, talk, family, health, plans, wants, notes)


def _table(registered: list[Rule], order: tuple[ModuleType, ...]) -> tuple[Rule, ...]:
    place = {module.__name__: i for i, module in enumerate(order)}
    unplaced = {r.module for r in registered} - place.keys()
    assert not unplaced, f"rule modules missing from the table: {sorted(unplaced)}"
    return tuple(sorted(registered, key=lambda r: place[r.module]))  # stable


FACT_RULES = _table(REGISTERED, FACT_ORDER)
TODO_RULES = _table(REGISTERED_TODOS, TODO_ORDER)

__all__ = ["FACT_ORDER", "FACT_RULES", "TODO_ORDER", "TODO_RULES", "Rule"]
