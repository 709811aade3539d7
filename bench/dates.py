"""CPU per call of the time grammar (:mod:`services.memory_upserter.extract.temporal` and
``.due``) against ``dateparser`` (PyPI), on the words models and people write.

    uv run --with dateparser python -m bench.dates     # ~1 min; writes the "dates" section

Three workloads, each timed with ``time.process_time`` over many rounds (CPU, not wall: the
machine is shared), so a figure is CPU microseconds per call:

1. a plan field (``valid_from``, ``valid_to``, ``due``): ``parse_when`` / ``parse_due`` against
   ``DateDataParser(languages=["en"]).get_date_data`` (the documented fast path: no language
   detection; ``RELATIVE_BASE`` set to the turn);
2. a sentence of the offline judge: ``validity`` against ``dateparser.search.search_dates``;
3. what each understands of the same words (the table's last columns), since speed alone
   decides nothing.

Without ``dateparser`` installed only the hand-written grammar is timed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from bench.common import machine, machine_line, table, write_section
from services.memory_upserter.extract.due import parse_due
from services.memory_upserter.extract.temporal import parse_when, validity

NOW = datetime(2026, 12, 1, 15, 0, tzinfo=UTC)  # a Tuesday in December
FIELDS = [
    "2019",
    "friday",
    "January",
    "in January",
    "2026-12",
    "19th at 3pm",
    "tomorrow at 10",
    "2026-12-04",
    "2026-12-04T10:30:00Z",
    "last week",
    "since March",
    "until Friday",
    "for two weeks",
    "3 days ago",
    "next monday",
    "in 2 hours",
]
SENTENCES = [
    "I moved to Porto last week and I love it",
    "im in paris until friday for work lol",
    "we've lived here for 3 years now",
    "started at the new job in March 2024",
    "my sister Marta lives in Lisbon",
    "remind me to call mom tomorrow at 10",
]


def per_call(fn: Callable[[str], Any], inputs: list[str], rounds: int) -> float:
    """CPU microseconds per call, over ``rounds`` passes of ``inputs`` (after one warm-up)."""
    for text in inputs:
        fn(text)
    start = time.process_time()
    for _ in range(rounds):
        for text in inputs:
            fn(text)
    return (time.process_time() - start) / (rounds * len(inputs)) * 1e6


def _field(text: str) -> datetime | None:
    return parse_when(text, NOW) or parse_due(text, NOW)


def main() -> None:
    info = machine()
    rows: list[list[object]] = []
    own_field = per_call(_field, FIELDS, 300)
    own_sentence = per_call(lambda s: validity(s, NOW), SENTENCES, 300)
    try:
        import dateparser  # noqa: PLC0415 - optional: measured only when installed
        from dateparser.search import search_dates  # noqa: PLC0415
    except ImportError:
        dateparser = None
    settings = {
        "RELATIVE_BASE": NOW.replace(tzinfo=None),
        "PREFER_DATES_FROM": "future",
        "RETURN_AS_TIMEZONE_AWARE": True,
        "TIMEZONE": "UTC",
    }
    if dateparser is not None:
        started = time.process_time()
        parser = dateparser.DateDataParser(languages=["en"], settings=settings)
        parser.get_date_data("tomorrow")
        first = (time.process_time() - started) * 1e3
        theirs_field = per_call(parser.get_date_data, FIELDS, 20)
        theirs_sentence = per_call(
            lambda s: search_dates(s, languages=["en"], settings=settings), SENTENCES, 3
        )
        rows.append(
            [
                "plan field",
                f"{own_field:.0f}",
                f"{theirs_field:.0f}",
                f"{theirs_field / own_field:.0f}×",
            ]
        )
        rows.append(
            [
                "judge sentence",
                f"{own_sentence:.0f}",
                f"{theirs_sentence:.0f}",
                f"{theirs_sentence / own_sentence:.0f}×",
            ]
        )
        read = [
            [
                f"`{text}`",
                _show(parse_when(text, NOW)),
                _show(parse_when(text, NOW, end=True)),
                _show(parse_due(text, NOW)),
                _show(parser.get_date_data(text).date_obj),
            ]
            for text in FIELDS
        ]
        version = dateparser.__version__
    else:
        rows += [["plan field", f"{own_field:.0f}", "—", "—"]]
        rows += [["judge sentence", f"{own_sentence:.0f}", "—", "—"]]
        read, first, version = [], 0.0, "not installed"
    body = [
        "## Time grammar: hand-written against `dateparser` (`bench/dates.py`)",
        "",
        machine_line(info),
        "",
        f"CPU µs per call (`time.process_time`); dateparser {version}, first call (its "
        f"tables loaded) {first:.0f} ms. Turn time {NOW.isoformat()} (a Tuesday).",
        "",
        table(["workload", "hand-written µs", "dateparser µs", "ratio"], rows),
    ]
    if read:
        body += [
            "",
            "What each reads (UTC):",
            "",
            table(["words", "as valid_from", "as valid_to", "as due", "dateparser"], read),
        ]
    write_section("dates", "\n".join(body) + "\n")
    print("\n".join(body))


def _show(at: datetime | None) -> str:
    return at.strftime("%Y-%m-%d %H:%M") if at else "—"


if __name__ == "__main__":
    main()
