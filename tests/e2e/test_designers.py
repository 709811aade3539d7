"""n8n as designers build it, in a real n8n on its defaults: two personas (two bots, one shared
"Twin turn") talking to one person, Telegram done right (HTML-safe replies Telegram accepts,
4096-character chunks, non-text and group messages, an allow-list, redelivered updates), and
failures the person and the caller see (the model retried, a caller's 4xx, the error workflow;
memory down and restarts: test_failures.py).

What reached the model is read from the stub LLM; what the person saw, from the fake Bot API
(as strict as the real one on parse modes, entities and length).
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import asyncpg
import pytest

from tests.e2e.stack import ANAKETA_ALLOWED, ONE_MODE, QUEUE_MODE, Stack, eventually
from tests.e2e.stub_llm import memory_seen
from tests.e2e.telegram import Person, deliver, say, update

NOW = datetime.now(UTC).replace(microsecond=0)
EARLIER = NOW - timedelta(days=1)
BOT = "deanna_twin_bot"  # persona-deanna.json's bot_username
TEXT_ONLY = "I can only read text messages"


def _seen(stack: Stack) -> dict[str, list[str]]:
    return memory_seen(stack.llm.requests[-1]["body"]["messages"][0]["content"])


def _memory(seen: dict[str, list[str]]) -> str:
    return "\n".join(
        f"{k}: {v}" for k, items in seen.items() for v in items if k != "SESSION STATE"
    )


@pytest.fixture(scope="module")
def ivo(stack: Stack) -> Person:
    """A person both personas may talk to (on Anaketa's allow-list)."""
    return Person("Ivo", id=ANAKETA_ALLOWED[0])


@ONE_MODE
def test_two_personas_share_the_person_but_not_their_own_memory(stack: Stack, ivo: Person) -> None:
    """Ivo tells Deanna about his sister and a commitment; Anaketa (another bot, the same
    shared turn) knows his sister, but not Deanna's commitment or her conversation."""
    first = say(stack, ivo, "my sister Lena lives in Vienna", EARLIER)
    assert first.startswith("Heard: my sister Lena lives in Vienna"), first
    promise = say(stack, ivo, "remind me to call her Sunday", EARLIER + timedelta(minutes=1))
    assert "✓ Added" in promise, promise
    deanna_system = stack.llm.requests[-1]["body"]["messages"][0]["content"]
    assert "Deanna" in deanna_system
    reply = say(stack, ivo, "how is Lena doing?", NOW, agent="anaketa")
    system = stack.llm.requests[-1]["body"]["messages"][0]["content"]
    assert "Anaketa" in system and "Deanna" not in system, "each bot is its own persona"
    memory = _memory(memory_seen(system))
    assert "Vienna" in memory, memory  # the person's facts are everyone's
    assert "call" not in memory.lower(), memory  # Deanna's commitment is Deanna's
    assert "remind me" not in json.dumps(stack.llm.requests[-1]["body"]["messages"])
    assert reply.startswith("Heard: how is Lena doing?")
    say(stack, ivo, "anything I promised?", NOW + timedelta(minutes=1))
    assert any("call" in c for c in _seen(stack).get("COMMITMENTS (pending)", []))


@ONE_MODE
def test_a_persona_allow_list_ignores_strangers(stack: Stack) -> None:
    """Anaketa answers only her allow-list: a stranger's update never starts an execution."""
    stranger = Person("Zed")
    calls = len(stack.llm.requests)
    token = stack.secrets.bot_tokens["anaketa"]
    sent = len(stack.telegram.sent_by(token))
    answer = stack.telegram_update(update(stranger, NOW, text="hello?"), agent="anaketa")
    assert answer.status_code == 200
    stack.n8n.wait_idle()
    assert len(stack.telegram.sent_by(token)) == sent
    assert len(stack.llm.requests) == calls


@ONE_MODE
def test_a_reply_full_of_markup_reaches_telegram_as_the_person_wrote_it(stack: Stack) -> None:
    """``*``, ``_``, ``<`` and ``&`` would break Markdown or HTML: the reply goes out in HTML
    parse mode, escaped, and the person sees every character."""
    uma = Person("Uma")
    text = "my *plan*: 2 < 3 & a_b_c <b>bold</b> [link](x) `code"
    shown = say(stack, uma, text, NOW)
    assert shown.startswith(f"Heard: {text}"), shown
    last = stack.telegram.sent[-1]
    assert last["parse_mode"] == "HTML" and "&lt;b&gt;" in last["text"]
    assert not [r for r in stack.telegram.rejected if str(r["chat_id"]) == str(uma.id)]


@ONE_MODE
def test_a_long_reply_is_split_at_4096_characters(stack: Stack) -> None:
    uma = Person("Uma")
    words = " ".join(f"w{n}" for n in range(1_300))  # ~6,000 characters echoed back
    sent = deliver(stack, uma, update(uma, NOW, text=words), replies=2)
    assert len(sent) == 2, [len(m["shown"]) for m in sent]
    assert all(len(m["shown"].encode("utf-16-le")) // 2 <= 4096 for m in sent)
    assert " ".join(m["shown"] for m in sent) == f"Heard: {words}"


@ONE_MODE
def test_a_sticker_is_answered_without_a_model_call(stack: Stack) -> None:
    """The documented rule: a private message without text (sticker, photo without caption,
    voice) gets a fixed reply; nothing is sent to the model or committed."""
    uma = Person("Uma")
    calls = len(stack.llm.requests)
    sticker = {
        "file_id": "CAACAgIAAxk",
        "file_unique_id": "AgAD",
        "type": "regular",
        "width": 512,
        "height": 512,
        "is_animated": False,
        "is_video": False,
        "emoji": "👍",
    }
    sent = deliver(stack, uma, update(uma, NOW, sticker=sticker))
    assert sent and sent[0]["shown"].startswith(TEXT_ONLY), sent
    assert len(stack.llm.requests) == calls


@ONE_MODE
def test_in_a_group_the_bot_answers_only_when_addressed(stack: Stack) -> None:
    uma = Person("Uma")
    group = {"id": -1_000_000_000_000 - uma.id, "type": "supergroup", "title": "Family"}
    calls = len(stack.llm.requests)
    token = stack.secrets.bot_tokens["deanna"]
    chatter = update(uma, NOW, text="dinner at eight?", chat=group)
    assert stack.telegram_update(chatter).status_code == 200
    stack.n8n.wait_idle()
    assert not [m for m in stack.telegram.sent_by(token) if str(m["chat_id"]) == str(group["id"])]
    assert len(stack.llm.requests) == calls
    asked = update(uma, NOW + timedelta(seconds=5), text=f"@{BOT} what's on today?", chat=group)
    sent = deliver(stack, uma, asked)
    assert sent[0]["shown"].startswith("Heard: what's on today?"), sent
    assert str(sent[0]["reply_to_message_id"]) == str(asked["message"]["message_id"])
    assert len(stack.llm.requests) == calls + 1


def test_a_redelivered_update_gets_the_stored_reply_without_a_second_model_call(
    stack: Stack,
) -> None:
    vera = Person("Vera")
    once = update(vera, NOW, text="my brother Emil lives in Oslo")
    first = deliver(stack, vera, once)
    calls = len(stack.llm.requests)
    again = deliver(stack, vera, once)  # Telegram delivers the same update_id again
    assert again and again[0]["shown"] == first[0]["shown"].split("\n\n✓")[0]
    assert len(stack.llm.requests) == calls


@ONE_MODE
def test_the_model_is_retried_once_on_a_5xx_and_never_on_a_4xx(stack: Stack) -> None:
    """n8n's own retry would repeat a 400 too: the flow retries a 5xx/429 once, and a 4xx
    goes straight to the fallback answer (the message is still kept)."""
    yan = Person("Yan")
    calls = len(stack.llm.requests)
    stack.llm.fail_next(503)
    shown = say(stack, yan, "first try fails", NOW)
    assert shown.startswith("Heard: first try fails"), shown
    assert len(stack.llm.requests) == calls + 2  # the 503, then the retry
    stack.llm.fail_next(400)
    shown = say(stack, yan, "this one is refused", NOW + timedelta(minutes=1))
    assert shown.startswith("Sorry, I can't think straight right now"), shown
    assert len(stack.llm.requests) == calls + 3  # the 400 only: no retry
    eventually(lambda: "this one is refused" in _logged(stack, yan), 60, stack.n8n.explain)


@ONE_MODE
def test_a_webhook_caller_gets_the_nodes_problem_not_a_500(stack: Stack) -> None:
    answer = stack.webhook("twin/fast-brain", {"text": "hi, no user id"})
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    problem = answer.json()
    assert problem["status"] == 422
    assert "user_id" in json.dumps(problem["errors"]), problem


def test_a_refused_telegram_turn_is_one_incident_and_the_person_hears_a_notice(
    stack: Stack,
) -> None:
    """A message no node accepts (over 20,000 characters) fails the Twin turn on purpose: the
    error workflow posts one incident (the persona does not fail a second time) and the
    person gets a short notice instead of silence."""
    wen = Person("Wen")
    alerts = len(stack.telegram.alerts)
    sent = deliver(stack, wen, update(wen, NOW, text="x" * 20_001))
    assert sent and "went wrong" in sent[0]["shown"], sent
    eventually(lambda: len(stack.telegram.alerts) > alerts, 60, stack.n8n.explain)
    stack.n8n.wait_idle()
    assert len(stack.telegram.alerts) == alerts + 1, stack.telegram.alerts[alerts:]
    incident = stack.telegram.alerts[-1]
    assert "Twin Core" in incident["workflow"] and incident["error"], incident


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


@QUEUE_MODE
def test_in_queue_mode_the_worker_runs_the_turns(stack: Stack) -> None:
    """As compose.scale.yaml deploys it: the main process takes the webhooks, a worker runs
    the executions from the Redis queue (one n8n database, Postgres)."""
    assert stack.n8n.worker is not None
    assert stack.n8n.env["DB_TYPE"] == "postgresdb" and stack.n8n.env["EXECUTIONS_MODE"] == "queue"
    worker_log = stack.n8n.worker.log_path.read_text(errors="replace")
    assert "Worker started execution" in worker_log, stack.n8n.log_tail()
