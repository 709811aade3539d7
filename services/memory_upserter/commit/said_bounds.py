"""A time bound the person said for a fact that the plan left out (pure: ``now`` is passed in).

A small model writes "User works at Studio Szum" from "…then from dec 1 im at studio szum", or
"User is in Porto" from "im in porto till friday", and no ``valid_from``/``valid_to``: the new
job would be current (and end the old one) three weeks early, the stay would never end. The
clause of the person's words that names the fact's value or object is read with the offline
judge's time grammar (:func:`..extract.temporal.validity`); a start still to come ("from",
"starting", "as of") or an end ("till", "until") it gives is the fact's, where the plan wrote
none. A start already past is left alone (the
fact is current either way, and the judge's reading of the past is rougher).

The start word must lead a time phrase ("from dec 1", "starting monday"): "tom from work… in
january" is no start. And a relation (``fact_type`` relationship: a sister, a colleague) takes
no said start: a time word beside it is its news's ("tom from work is leaving for lloyds in
january", "my sister is due in june"), and a relation begun in the future would hide it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

import msgspec

from contracts.plan import PlanFact
from services.core.when import MONTH_WORD
from services.memory_upserter.commit.repair import Reader
from services.memory_upserter.extract.temporal import validity
from services.memory_upserter.text import fold

_CLAUSES = re.compile(r"[.!?;,\n]+|\s(?:but|then|and\s+then|so)\s")
# only words that say a bound: "training for a 10k in may" is no start of the training
_STARTS = re.compile(
    r"(?i)\b(?:from|starting|as\s+of|beginning)\s+(?:on\s+)?(?:the\s+|this\s+|next\s+)?"
    rf"(?:\d|tomorrow|today|tonight|{MONTH_WORD}|(?:mon|tue|wed|thu|fri|sat|sun)\w*)"
)
_ENDS = re.compile(r"(?i)(?:\b(?:until|till|through|thru)|'til)\b")


def said_bounds(
    reader: Reader, fact: PlanFact, path: str, said: Sequence[str], now: datetime
) -> PlanFact:
    """The fact with the start to come and the end the person said for it, where it has none."""
    started = fact.valid_from or fact.fact_type == "relationship"  # no said start for a relation
    named = fold(fact.object or fact.value or "").strip()
    if (started and fact.valid_to) or len(named) < 3:
        return fact
    for text in reversed(said):  # the latest words first
        for clause in _CLAUSES.split(text):
            if not re.search(rf"(?<!\w){re.escape(named)}(?!\w)", fold(clause)):
                continue
            when = validity(clause, now)
            start = when.valid_from if when.valid_from and when.valid_from > now else None
            start = None if started or not _STARTS.search(clause) else start
            end = None if fact.valid_to or not _ENDS.search(clause) else when.valid_to
            if start is None and end is None:
                continue
            return _bounded(reader, fact, path, start, end)
    return fact


def _bounded(
    reader: Reader, fact: PlanFact, path: str, start: datetime | None, end: datetime | None
) -> PlanFact:
    for field, at in (("valid_from", start), ("valid_to", end)):
        if at is not None:
            reader.note("plan_repaired", f"{path}.{field}", f"{at.date()} from the person's words")
    return msgspec.structs.replace(
        fact,
        valid_from=start.isoformat() if start else fact.valid_from,
        valid_to=end.isoformat() if end else fact.valid_to,
    )
