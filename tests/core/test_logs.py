"""The request log line's plumbing: JSON lines on stdout, request ids that never repeat."""

from __future__ import annotations

import asyncio
import json
import logging

import structlog

from services.core.logs import configure_logging, request_ids


def test_request_ids_never_repeat_within_a_process_or_across_two() -> None:
    one, other = request_ids(), request_ids()
    first = [one() for _ in range(1000)]

    assert len(set(first)) == 1000
    assert other() not in first  # another process (another prefix) never collides
    assert all(i.isprintable() and len(i) <= 32 for i in first)


def test_json_lines_go_to_stdout_one_per_event_with_level_and_time(capsys) -> None:
    try:
        configure_logging(json=True)
        structlog.get_logger("twin.request").info("request", route="/v1/x", status=200)
        logging.getLogger("uvicorn.error").warning("from the stdlib")
        lines = capsys.readouterr().out.splitlines()
    finally:
        structlog.reset_defaults()
        logging.getLogger().handlers[:] = []

    ours, stdlib = (json.loads(line) for line in lines)
    assert ours["event"] == "request" and ours["status"] == 200 and ours["level"] == "info"
    assert ours["timestamp"].endswith("Z")
    assert stdlib["event"] == "from the stdlib" and stdlib["logger"] == "uvicorn.error"


async def test_lines_logged_in_one_loop_turn_go_out_together_at_its_end(capsys) -> None:
    try:
        configure_logging(json=True)
        log = structlog.get_logger("twin.request")
        log.info("request", n=1)
        log.info("request", n=2)
        during = capsys.readouterr().out
        await asyncio.sleep(0)  # the loop's next turn
        after = capsys.readouterr().out
    finally:
        structlog.reset_defaults()
        logging.getLogger().handlers[:] = []

    assert during == ""
    assert [json.loads(line)["n"] for line in after.splitlines()] == [1, 2]


def test_a_logged_database_error_keeps_no_detail_quoting_the_row(capsys) -> None:
    """asyncpg puts Postgres's DETAIL (the row's values) into the error's text; a traceback in
    our log keeps the error and the constraint, never that line (issue 31 item 8)."""
    import asyncpg

    error = asyncpg.UniqueViolationError(
        'duplicate key value violates unique constraint "uniq_relations_memory_key"'
    )
    error.detail = "Key (user_id, memory_key)=(carol, people:has_sister:marta) already exists."
    assert "carol" in str(error)  # what would be logged without the scrub
    try:
        configure_logging(json=True)
        for log in (structlog.get_logger("twin").exception, logging.getLogger("x").exception):
            try:
                raise error
            except asyncpg.UniqueViolationError:
                log("unhandled_error")
        out = capsys.readouterr().out
    finally:
        structlog.reset_defaults()
        logging.getLogger().handlers[:] = []

    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 2 and all("uniq_relations_memory_key" in e["exception"] for e in lines)
    assert "carol" not in out and "marta" not in out
