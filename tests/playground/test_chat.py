"""``twin chat``: a conversation through the five real fast-brain and write nodes.

The nodes run in this process on the run's real Postgres, Redis and Qdrant Edge; the
playground reaches each by its own base URL (httpx mounts stand in for the ports). Only the
model endpoint is mocked, with respx.
"""

from __future__ import annotations

import io
import json
import os
import random
import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import httpx
import pytest
import respx

from services.core.deps import Clients
from services.core.llm import open_llm
from services.core.settings import NODE_PORTS, Settings
from services.playground.offline import offline_reply
from services.playground.preflight import check_nodes
from services.playground.terminal import _loop, new_chat_id, node_urls
from services.playground.turn import ROUTES, Conversation, Exchange, NodeError, confirmations

T0 = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
MODEL_URL = "http://model.test/v1"


def conversation(client: httpx.AsyncClient, user_id: str, **extra) -> Conversation:
    return Conversation(
        client=client,
        base_urls={n: f"http://{n}" for n in ROUTES},
        user_id=user_id,
        agent_id="deanna",
        chat_id=f"play:{user_id}",
        **extra,
    )


async def test_offline_the_memory_written_in_one_turn_comes_back_in_a_later_one(
    nodes: httpx.AsyncClient, user_id: str
) -> None:
    talk = conversation(nodes, user_id)
    first = await talk.say("My sister Marta lives in Lisbon.", now=T0)
    assert first.source == "offline"
    assert first.answers["memory-upserter"]["plan_source"] == "offline_extractor"
    assert any("Lisbon" in f["text"] for f in first.answers["memory-upserter"]["facts"])

    todo = await talk.say("Remind me to call Marta tomorrow.", now=T0 + timedelta(minutes=1))
    assert todo.confirmations == ['✓ Added "Call Marta" to your reminders (due 2026-03-03 09:00).']

    later = await talk.say("How is Marta doing?", now=T0 + timedelta(minutes=2))
    assert "Lisbon" in later.reply and "• to do: Call Marta (due 2026-03-03 09:00)" in later.reply
    envelope = later.answers["envelope-validator"]
    assert "Lisbon" in envelope["messages"][0]["content"]  # the model would have been told


async def test_offline_the_reply_answers_what_was_asked_and_is_never_recalled(
    nodes: httpx.AsyncClient, user_id: str
) -> None:
    """Issue 28 §5–6: "what do I still have to do?" puts the pending todo first, "who is
    Marta?" the colleague; no earlier readout comes back as a recalled turn."""
    talk = conversation(nodes, user_id)
    told = [
        "My colleague Marta Silva works at Acme.",
        "I live in Porto.",
        "I'm allergic to peanuts.",
        "Remind me to send the poster on Friday.",
    ]
    for n, text in enumerate(told):
        await talk.say(text, now=T0 + timedelta(minutes=n))
    todo = await talk.say("what do I still have to do?", now=T0 + timedelta(minutes=5))
    assert todo.reply.splitlines()[1:] == ["• to do: Send the poster (due 2026-03-06 09:00)"]
    who = await talk.say("who is Marta?", now=T0 + timedelta(minutes=6))
    assert "Marta" in who.reply.splitlines()[1] and "peanuts" not in who.reply
    recalled = who.answers["rag-gate"]["EPISODE"]["turns"]
    assert not any("(offline:" in t["text"] for t in recalled)


async def test_with_a_model_its_answer_is_the_reply_and_its_plan_is_written(
    nodes: httpx.AsyncClient, user_id: str
) -> None:
    llm = open_llm(base_url=MODEL_URL, api_key=None, model="test-model", timeout=5)
    answer = {
        "reply": "Noted, you love climbing.",
        "plan": {
            "facts": [
                {
                    "memory_type": "PROFILE",
                    "subject": "user",
                    "predicate": "LIKES",
                    "value": "climbing",
                    "text": "The user loves climbing.",
                }
            ]
        },
    }
    with respx.mock(base_url=MODEL_URL) as model:
        route = model.post("/chat/completions").respond(
            json={
                "id": "c1",
                "object": "chat.completion",
                "created": 0,
                "model": "test-model",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": json.dumps(answer)},
                    }
                ],
            }
        )

        async def ask(messages: list[dict], response_format: dict) -> str:
            return await llm.chat(messages, 5, response_format)

        exchange = await conversation(nodes, user_id, ask_model=ask).say("I love climbing", now=T0)
    await llm.close()
    sent = json.loads(route.calls.last.request.content)
    assert sent["response_format"]["type"] == "json_schema"
    assert sent["messages"][0]["role"] == "system" and sent["messages"][-1]["role"] == "user"
    assert exchange.source == "model" and exchange.reply == "Noted, you love climbing."
    commit = exchange.answers["memory-upserter"]
    assert commit["plan_source"] == "answer"
    assert [f["text"] for f in commit["facts"]] == ["The user loves climbing."]


async def test_a_model_answer_in_a_fence_is_read_as_the_commit_reads_it(
    nodes: httpx.AsyncClient, user_id: str
) -> None:
    """A small model wraps its JSON in a fence and a sentence: ``twin chat`` does not crash on
    it; the reply is the one the commit read (wt8/audit)."""
    answer = {"reply": "Faro, lovely!", "plan": {"facts": [
        {"memory_type": "PROFILE", "predicate": "lives_in", "value": "Faro",
         "text": "User lives in Faro"}]}}  # fmt: skip

    async def ask(messages: list[dict], response_format: dict) -> str:
        return f"Sure! Here you go:\n```json\n{json.dumps(answer)}\n```"

    exchange = await conversation(nodes, user_id, ask_model=ask).say("i live in faro", now=T0)
    assert exchange.source == "model" and exchange.reply == "Faro, lovely!"
    assert [f["text"] for f in exchange.answers["memory-upserter"]["facts"]] == [
        "User lives in Faro"
    ]


async def test_a_refused_turn_names_the_node_and_its_problem(nodes: httpx.AsyncClient) -> None:
    with pytest.raises(NodeError) as refused:
        await conversation(nodes, "@not-a-user").say("hello")
    assert refused.value.node == "pulse-decay" and refused.value.status == 422


async def test_the_terminal_loop_prints_replies_and_shows_what_was_written(
    nodes: httpx.AsyncClient, user_id: str
) -> None:
    lines = iter(["My brother Tom lives in Oslo.", "/written", "/envelope", "/quit"])
    out = io.StringIO()
    await _loop(conversation(nodes, user_id), lambda _prompt: next(lines), out, show=False)
    text = out.getvalue()
    assert "deanna> (offline" in text
    assert "-- written" in text and "Oslo" in text.split("-- written")[1]
    assert "-- envelope" in text and "[system]" in text


def test_node_urls_follow_the_port_offset() -> None:
    urls = node_urls(Settings(port_offset=1000, host="0.0.0.0"))
    assert urls["pulse-decay"] == "http://127.0.0.1:9101"
    assert urls["memory-upserter"] == "http://127.0.0.1:9106"


def test_the_offline_reply_lists_what_bears_on_the_message_once() -> None:
    envelope = {
        "GRAPH": {
            "relevant_facts": [{"text": "Marta lives in Lisbon."}],
            "foundation": [{"text": "Marta lives in Lisbon."}],
            "commitments": [{"text": "call Marta"}],
        },
        "EPISODE": {
            "hits": [
                {
                    "ts": "2026-03-01T10:00:00Z",
                    "day": "2026-03-01",
                    "one_liner": "Talked about the trip",
                    "reflection": "x",
                }
            ]
        },
    }
    reply = offline_reply(envelope, "how is Marta?")
    assert reply.startswith("(offline: no model configured)")
    assert reply.count("Marta lives in Lisbon.") == 1
    assert "• to do: call Marta" in reply and "2026-03-01: Talked about the trip" in reply
    assert "Nothing in memory" in offline_reply({"GRAPH": {}})
    asked = {"role": "user", "ts": "2026-03-01T10:00:00Z", "text": "who is Marta?"}
    said = {**asked, "text": "Marta moved to Madrid."}
    turns = offline_reply({"EPISODE": {"turns": [asked, said]}}, "Marta?")
    assert "you said: Marta moved to Madrid." in turns and "who is Marta" not in turns


def test_the_offline_reply_puts_what_the_question_is_about_first() -> None:
    """Issue 28 §6: the same eight profile lines whatever the question hid the pending todo."""
    foundation = [{"text": f"User profile line {i}."} for i in range(10)]
    graph = {
        "foundation": foundation,
        "commitments": [{"text": "Send the poster", "due_at": "2026-12-12T00:00:00Z"}],
        "entities": [{"name": "Marta Silva", "aliases": ["Marta"], "seed": "mention"}],
        "edges": [{"text": "Marta Silva is the user's colleague."}],
        "relevant_facts": [{"text": "User works at Acme."}],
    }
    todo = offline_reply({"GRAPH": graph}, "what do I still have to do?").splitlines()
    assert todo[1:3] == [
        "• to do: Send the poster (due 2026-12-12)",
        "• Marta Silva is the user's colleague.",
    ]
    assert "profile line" not in "\n".join(todo)
    who = offline_reply({"GRAPH": graph}, "who is marta?").splitlines()
    assert who[0].endswith("What I know about Marta Silva:")
    assert who[1] == "• Marta Silva is the user's colleague."
    assert "to do" not in "\n".join(who)
    me = offline_reply({"GRAPH": graph}, "What do you know about me?").splitlines()
    assert me[0].endswith("What I know about you:") and me[1] == "• User profile line 0."
    nothing = offline_reply({"GRAPH": {"foundation": foundation}}, "what do I have to do?")
    assert nothing == "(offline: no model configured) Nothing is pending to do."


def test_the_product_s_own_questions_follow_the_reply() -> None:
    commit = {"todos": [], "questions": ["Which one is done: 'call Marta' or 'call Mum'?"]}
    assert confirmations(commit) == ["? Which one is done: 'call Marta' or 'call Mum'?"]


def test_a_card_fact_that_names_its_person_is_read_out_once() -> None:
    graph = {
        "entities": [{"name": "Marta", "seed": "mention"}],
        "relevant_facts": [{"text": "Marta lives in Madrid"}],
        "entity_cards": [{"label": "Marta", "facts": ["Marta lives in Madrid", "plays chess"]}],
    }
    lines = offline_reply({"GRAPH": graph}, "who is marta?").splitlines()[1:]
    assert lines == ["• Marta lives in Madrid", "• Marta: plays chess"]


def test_a_question_the_reply_already_asked_is_not_asked_again() -> None:
    asked = "Which marta do you mean — Marta (lives in Madrid) or Marta Silva (works at Globex)?"
    commit = {
        "todos": [],
        "questions": [
            "Which Marta do you mean — Marta (sister) or Marta Silva (colleague)?",
            "Which one is done: 'Call Marta' or 'Call Mum'?",
        ],
    }
    assert confirmations(commit, asked=asked) == [
        "? Which one is done: 'Call Marta' or 'Call Mum'?"
    ]
    assert len(confirmations(commit)) == 2


def test_a_todo_the_turn_closed_is_confirmed_to_the_person() -> None:
    commit = {
        "todos": [],
        "completions": [
            {"todo_id": "t1", "kind": "REMINDER", "text": "Call Marta", "outcome": "completed"},
            {"todo_id": "t2", "kind": "REMINDER", "text": "Dentist", "outcome": "dropped"},
        ],
    }
    assert confirmations(commit) == ['✓ Done: "Call Marta".', '✓ Dropped: "Dentist".']


def test_the_offline_reply_shows_due_dates_and_times() -> None:
    envelope = {
        "GRAPH": {
            "commitments": [
                {"text": "Call Marta", "due_at": "2026-03-03T00:00:00Z"},
                {"text": "Dentist", "due_at": "2026-03-04T15:30:00+01:00"},
                {"text": "Read the book"},
            ]
        }
    }
    reply = offline_reply(envelope, "anything due?")
    assert "• to do: Call Marta (due 2026-03-03)" in reply
    assert "• to do: Dentist (due 2026-03-04 15:30)" in reply
    assert "• to do: Read the book\n" in reply + "\n"


async def test_new_starts_a_fresh_session_that_still_remembers_the_person(
    nodes: httpx.AsyncClient, user_id: str
) -> None:
    """``/new``: a new chat id, so a new session (row and working memory); the facts stay."""
    talk = conversation(nodes, user_id)
    seen: list[Exchange] = []
    say = talk.say

    async def recording(text: str, **kwargs) -> Exchange:
        seen.append(await say(text, **kwargs))
        return seen[-1]

    talk.say = recording  # type: ignore[method-assign]
    lines = iter(
        [
            "My sister Marta lives in Lisbon.",
            "How are you?",
            "/new",
            "Where does Marta live?",
            "/quit",
        ]
    )
    out = io.StringIO()
    await _loop(talk, lambda _prompt: next(lines), out, show=False)
    first, second, third = seen
    assert "(new session in chat play:" in out.getvalue()
    assert talk.chat_id.startswith(f"play:{user_id}~")
    commits = [e.answers["memory-upserter"] for e in seen]
    assert commits[0]["session_id"] == commits[1]["session_id"]
    assert commits[2]["session_id"] != commits[0]["session_id"] and commits[2]["new_session"]
    assert [e.answers["pulse-decay"]["session"]["msg_count"] for e in seen] == [1, 2, 1]
    assert third.answers["pulse-decay"]["session"]["turns"] == []  # fresh working memory
    assert "Lisbon" in third.reply  # the person is still remembered


def test_a_new_chat_id_derives_from_the_first_and_never_grows() -> None:
    once = new_chat_id("play:alice")
    twice = new_chat_id(once)
    assert once.startswith("play:alice~") and twice.startswith("play:alice~") and once != twice
    assert len(new_chat_id("x" * 128)) <= 128


async def test_the_check_at_start_passes_when_every_node_answers_as_itself(
    nodes: httpx.AsyncClient,
) -> None:
    assert await check_nodes(nodes, {n: f"http://{n}" for n in ROUTES}, 0) is None


async def test_a_wrong_offset_that_reaches_another_node_is_named(nodes: httpx.AsyncClient) -> None:
    """Nodes that answer as each other but imply no one offset: the port named, not a guess."""
    urls = {n: f"http://{n}" for n in ROUTES} | {"pulse-decay": "http://graph-hydrator:8101"}
    problem = await check_nodes(nodes, urls, 1)
    assert problem == (
        "http://graph-hydrator:8101 is not pulse-decay (it is graph-hydrator): "
        "`twin chat` and `twin up` need the same TWIN_PORT_OFFSET (here: 1)."
    )


async def test_a_wrong_offset_that_reaches_another_program_is_named() -> None:
    """Another program on the port answers /version with a 404 page, not as a node."""

    def other_program(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, text="<h1>Not Found</h1>")

    async with httpx.AsyncClient(transport=httpx.MockTransport(other_program)) as client:
        problem = await check_nodes(
            client, {n: f"http://other:{8600 + i}" for i, n in enumerate(ROUTES)}, 500
        )
    assert problem is not None and problem.startswith(
        "http://other:8600 is not pulse-decay (it answered 404 to GET /version)"
    )
    assert "TWIN_PORT_OFFSET (here: 500)" in problem


def test_twin_chat_without_a_stack_says_in_one_line_to_run_twin_up() -> None:
    """The real command, at an offset where nothing listens: one line, exit 1, no prompt."""
    offset = _free_offset()
    env = {**os.environ, "TWIN_PORT_OFFSET": str(offset)}
    env.pop("OPENAI_BASE_URL", None)
    env.pop("OPENAI_API_KEY", None)
    done = subprocess.run(
        [sys.executable, "-m", "services.cli", "chat", "--user", "alice", "--agent", "deanna"],
        env=env,
        input="hello\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"twin chat: No Twin Core node answers at 127.0.0.1:{8101 + offset}")
    assert f"`TWIN_PORT_OFFSET={offset} uv run twin up`" in lines[0]


def _free_offset() -> int:
    for _ in range(50):
        offset = random.randrange(30_000, 50_000, 10)
        if all(_port_free(port + offset) for port in NODE_PORTS.values()):
            return offset
    raise RuntimeError("no free block of ports")


def _port_free(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


async def test_forget_and_help_in_the_terminal_and_no_unknown_command_is_sent(
    nodes: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    lines = iter(["My sister Marta lives in Lisbon.", "/forget Lisbon", "/help", "/start", "/quit"])
    out = io.StringIO()
    await _loop(conversation(nodes, user_id), lambda _prompt: next(lines), out, show=False)
    text = out.getvalue()
    assert "(forgotten: " in text and "facts" in text.split("(forgotten: ")[1].splitlines()[0]
    assert "/forget <text>" in text  # the help
    assert "(unknown command /start: not sent" in text
    async with resources.db.acquire() as conn:
        live = await conn.fetch(
            "SELECT text FROM relations WHERE user_id = $1 AND status = 'ACTIVE'", user_id
        )
        logged = await conn.fetch("SELECT text FROM messages WHERE user_id = $1", user_id)
    assert not [r for r in live if "Lisbon" in r["text"]]
    assert not [m for m in logged if m["text"].startswith("/")]


async def test_forget_and_correct_in_the_conversation_are_confirmed_in_the_reply(
    nodes: httpx.AsyncClient, user_id: str
) -> None:
    lines = iter(
        [
            "My colleague Marta Silva lives in Porto.",
            "I'm allergic to peanuts and shellfish.",
            "Please forget that I told you about Marta Silva",
            "That's wrong, I'm only allergic to peanuts",
            "Who is Marta Silva? What am I allergic to?",
            "/envelope",
            "/quit",
        ]
    )
    out = io.StringIO()
    await _loop(conversation(nodes, user_id), lambda _prompt: next(lines), out, show=False)
    text = out.getvalue()
    assert 'deanna> ✓ Forgotten, as you asked: "Marta Silva".' in text
    assert "deanna> ✓ No longer noted:" in text and "shellfish" in text.split("No longer")[1]
    envelope = text.split("-- envelope")[1].split("[user]")[0].lower()
    assert "porto" not in envelope  # known only as where Marta lives: forgotten with her
    assert "shellfish" not in envelope and "peanuts" in envelope


def test_a_todo_ask_typed_the_telegram_way_puts_the_todos_first() -> None:
    graph = {"commitments": [{"text": "Call Marta"}], "relevant_facts": [{"text": "User is 30"}]}
    for asked in ["wat do i have to do", "whats on my todo list", "so whats left to do"]:
        lines = offline_reply({"GRAPH": graph}, asked).splitlines()
        assert lines[0].endswith("What you still have to do:"), asked
        assert lines[1] == "• to do: Call Marta", asked


def test_the_offline_reply_reads_out_what_touches_the_question_before_the_rest() -> None:
    """ "where do i work?" puts the job first, whatever order the gate found things in; "who is
    Marta?" reads out nothing that does not name her (an unrelated turn is no answer)."""
    graph = {
        "relevant_facts": [
            {"text": "User is allergic to peanuts"},
            {"text": "User eats fish"},
            {"text": "User works at Globex"},
        ],
        "entities": [{"name": "Marta", "aliases": [], "seed": "mention"}],
        "edges": [{"text": "Marta is the user's colleague"}],
    }
    turns = [
        {"role": "user", "ts": "2026-11-27T10:00:00Z", "text": "hey! im ana, i live in porto"},
        {"role": "user", "ts": "2026-11-27T10:01:00Z", "text": "my colleague Marta is lovely"},
    ]
    where = offline_reply({"GRAPH": {**graph, "entities": []}}, "where do i work?").splitlines()
    assert where[1] == "• User works at Globex"
    assert "• User is allergic to peanuts" in where  # still read out, after what answers
    who = offline_reply({"GRAPH": graph, "EPISODE": {"turns": turns}}, "who is Marta?")
    assert "Marta is lovely" in who and "i live in porto" not in who
    assert "peanuts" not in who


def test_the_person_named_by_me_is_no_one_the_message_asks_about() -> None:
    """ "the rain reminds me to slow down": "me" finds the person's own entity (named after
    them), which is no one the message is about — no "What I know about Joao:"."""
    graph = {
        "entities": [
            {"name": "Joao", "aliases": ["me"], "entity_ref": "self:user", "seed": "mention"}
        ],
        "relevant_facts": [{"text": "User lives in Lisbon"}, {"text": "User's name is Joao"}],
    }
    reply = offline_reply({"GRAPH": graph}, "the rain reminds me to slow down").splitlines()
    assert reply[0].endswith("What I remember that bears on this:")
    assert "• User lives in Lisbon" in reply
