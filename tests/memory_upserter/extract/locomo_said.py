"""What the offline judge writes of one sentence said in LoCoMo's register, at a LoCoMo session's
date: shared by the extract tests written from LoCoMo (``test_company``, ``test_pursuits``)."""

from __future__ import annotations

from datetime import UTC, datetime

from services.memory_upserter.extract.extractor import Utterance, extract

NOW = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)  # a LoCoMo session's date


def facts_of(text: str) -> set[tuple[str, str | None]]:
    """The (predicate, object or value) of each fact the judge writes of ``text``."""
    plan = extract([Utterance(text)], now=NOW)
    return {(f.predicate, f.object or f.value) for f in plan.facts}
