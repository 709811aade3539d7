"""Failures a person never pays for and an operator always hears of, in a real n8n (single and
queue mode): a turn answered while memory is down survives restarting n8n and its worker, or
the worker alone, and is stored once memory is back; each degraded turn is one incident with
its turn id; a wrong model key is an incident on the first turn."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg

from tests.e2e.stack import ONE_MODE, QUEUE_MODE, Stack, eventually
from tests.e2e.telegram import Person, deliver, say, update

NOW = datetime.now(UTC).replace(microsecond=0)
COMMIT_LATER = "TwinCommitLater1"


def _logged(stack: Stack, person: Person) -> list[str]:
    """The conversation memory-upserter holds for the person (read-only)."""

    async def read() -> list[str]:
        conn = await asyncpg.connect(stack.database_url)
        try:
            rows = await conn.fetch(
                "SELECT text FROM messages WHERE user_id = $1 ORDER BY seq", person.user_id
            )
        finally:
            await conn.close()
        return [r["text"] for r in rows]

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, read()).result()


def _incidents(stack: Stack, since: int, turn_id: str) -> list[dict[str, Any]]:
    return [a for a in stack.telegram.alerts[since:] if a.get("turn_id") == turn_id]


def _waiting_commits(stack: Stack) -> int:
    return sum(
        1
        for e in stack.n8n.executions()
        if e["status"] == "waiting" and e["workflow"] == COMMIT_LATER
    )


def test_a_kept_turn_survives_restarting_n8n_during_a_memory_outage(stack: Stack) -> None:
    """``twin up`` stops; the persona answers alone with a notice that the turn is kept; n8n
    (and its worker) restart while memory is still down; memory comes back: the turn is stored
    (the next turn's model sees it), and the degraded turn was one incident."""
    xia = Person("Xia")
    say(stack, xia, "hello there", NOW)
    alerts = len(stack.telegram.alerts)
    stack.nodes.stop()
    try:
        calls = len(stack.llm.requests)
        kept = update(xia, NOW + timedelta(minutes=1), text="my friend Noor lives in Cairo")
        shown = "\n".join(m["shown"] for m in deliver(stack, xia, kept))
        assert "can't reach my memory" in shown, shown
        assert shown.startswith("Heard: my friend Noor lives in Cairo"), shown
        persona_only = stack.llm.requests[calls]["body"]
        assert "response_format" not in persona_only
        assert "Deanna" in persona_only["messages"][0]["content"]
        # the retry waits in n8n's database, not in the process that is about to stop
        eventually(lambda: _waiting_commits(stack) > 0, 60, stack.n8n.explain)
        stack.n8n.restart()
    finally:
        stack.restart_nodes()
    eventually(
        lambda: "my friend Noor lives in Cairo" in _logged(stack, xia), 300, stack.n8n.explain
    )
    assert any("can't reach my memory" in text for text in _logged(stack, xia))
    turn_id = f"tg:{kept['update_id']}"
    incidents = _incidents(stack, alerts, turn_id)
    assert len(incidents) == 1, stack.telegram.alerts[alerts:]
    assert incidents[0]["kind"] == "degraded", incidents
    assert "memory_unreachable" in incidents[0]["error"], incidents
    said = say(stack, xia, "what did I just tell you?", NOW + timedelta(minutes=2))
    assert said.startswith("Heard: what did I just tell you?")
    assert "Noor lives in Cairo" in json.dumps(stack.llm.requests[-1]["body"]["messages"])


@QUEUE_MODE
def test_a_kept_turn_survives_restarting_only_the_worker_during_a_memory_outage(
    stack: Stack,
) -> None:
    """Queue mode: the worker alone restarts while memory is down and the main stays up; the
    waiting commit is taken by the new worker once memory is back, and the turn is stored."""
    assert stack.n8n.worker is not None
    ines = Person("Ines")
    say(stack, ines, "hi", NOW)
    stack.nodes.stop()
    try:
        kept = update(ines, NOW + timedelta(minutes=1), text="my brother Tiago lives in Braga")
        shown = "\n".join(m["shown"] for m in deliver(stack, ines, kept))
        assert "can't reach my memory" in shown, shown
        eventually(lambda: _waiting_commits(stack) > 0, 60, stack.n8n.explain)
        stack.n8n.restart_worker()
    finally:
        stack.restart_nodes()
    eventually(
        lambda: "my brother Tiago lives in Braga" in _logged(stack, ines), 300, stack.n8n.explain
    )


@ONE_MODE
def test_a_wrong_model_key_is_one_incident_on_the_first_turn(stack: Stack) -> None:
    """The model answers 401: the person hears "Sorry…", the message is kept, and the error
    workflow reports the turn once, naming the model's refusal."""
    zoe = Person("Zoe")
    alerts = len(stack.telegram.alerts)
    stack.llm.fail_next(401)
    asked = update(zoe, NOW, text="are you there?")
    shown = "\n".join(m["shown"] for m in deliver(stack, zoe, asked))
    assert shown.startswith("Sorry, I can't think straight right now"), shown
    turn_id = f"tg:{asked['update_id']}"
    eventually(lambda: bool(_incidents(stack, alerts, turn_id)), 60, stack.n8n.explain)
    eventually(lambda: "are you there?" in _logged(stack, zoe), 60, stack.n8n.explain)
    incidents = _incidents(stack, alerts, turn_id)
    assert len(incidents) == 1, stack.telegram.alerts[alerts:]
    assert "model_failed" in incidents[0]["error"] and "401" in incidents[0]["error"], incidents


@ONE_MODE
def test_webhook_callers_get_a_problem_naming_the_field_they_sent(stack: Stack) -> None:
    """No opaque 500 for a bad body: the slow brain's 422 names ``inactivity_minutes``; a
    numeric turn id or text is read as the string it spells, not reported under another
    field's name."""
    answer = stack.webhook("twin/slow-brain", {"inactivity_minutes": "ten"})
    assert answer.status_code == 422, answer.text
    assert [e["path"] for e in answer.json()["errors"]] == ["$.inactivity_minutes"], answer.text
    user = stack.user("num")
    turn = stack.webhook("twin/fast-brain", {"user_id": user, "text": 42, "turn_id": 4242})
    assert turn.status_code == 200, turn.text
    assert turn.json()["turn_id"] == "4242" and turn.json()["reply"].startswith("Heard: 42")
