"""What a new user of ``twin chat`` meets in the first hour (issue 32): the offset that answers
named, the envelope's warnings shown, a message over the limit refused before it is sent, the
shared chat id said, and bad ids refused at start in words instead of a regex."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import httpx
import pytest

from contracts.common import TEXT_MAX
from services.core.settings import NODE_PORTS
from services.playground.preflight import check_nodes
from services.playground.terminal import _chat_line, _loop
from services.playground.turn import ROUTES, Conversation


def conversation(client: httpx.AsyncClient, user_id: str, **extra) -> Conversation:
    urls = {n: f"http://{n}" for n in ROUTES}
    return Conversation(client, urls, user_id, "deanna", f"play:{user_id}", **extra)


async def test_an_offset_one_off_names_the_offset_that_answers(
    nodes: httpx.AsyncClient,
) -> None:
    """The stack runs at offset 0, the chat looks at 1: each of its ports but the last reaches
    the next node of the stack, which implies offset 0; the line says to use it."""
    by_port = {port: node for node, port in NODE_PORTS.items()}
    urls = {
        n: f"http://{by_port.get(NODE_PORTS[n] + 1, 'nobody.invalid')}:{NODE_PORTS[n] + 1}"
        for n in ROUTES
    }
    problem = await check_nodes(nodes, urls, 1)
    assert problem is not None
    assert problem.startswith("The Twin Core nodes answer at TWIN_PORT_OFFSET=0, not 1: ")
    assert "`TWIN_PORT_OFFSET=0 uv run twin chat …`" in problem


async def test_envelope_lists_each_warning_it_counts(
    nodes: httpx.AsyncClient,
    user_id: str,
) -> None:
    long_persona = "You are Deanna, warm and brief. " * 640  # ~20,500 characters of prompt
    lines = iter(["Hello there.", "/envelope", "/quit"])
    out = io.StringIO()
    talk = conversation(nodes, user_id, persona_prompt=long_persona[:19_000])
    await _loop(talk, lambda _prompt: next(lines), out, show=False)
    header = out.getvalue().split("-- envelope (")[1].splitlines()
    assert header[0] == "1 warning)"
    assert header[1].startswith("  ! prompt_large in ")


async def test_a_message_over_the_limit_is_refused_before_it_is_sent(
    nodes: httpx.AsyncClient,
    user_id: str,
) -> None:
    lines = iter(["x" * (TEXT_MAX + 1), "/quit"])
    out = io.StringIO()
    await _loop(conversation(nodes, user_id), lambda _prompt: next(lines), out, show=False)
    assert (
        "!! not sent: this message is 20,001 characters; one message holds at most 20,000"
        in out.getvalue()
    )
    assert "answered 422" not in out.getvalue()


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--agent", "dea nna", "--agent 'dea nna' is not a valid id: 1–64 letters"),
        ("--user", "@alice", "--user '@alice' is not a valid id"),
        ("--chat", "a\tb", "--chat 'a\\tb' is not a valid id"),
    ],
)
def test_twin_chat_refuses_a_bad_id_at_start_in_words(option: str, value: str, said: str) -> None:
    args = {"--user": "alice", "--agent": "deanna"} | {option: value}
    done = subprocess.run(
        [sys.executable, "-m", "services.cli", "chat", *(x for kv in args.items() for x in kv)],
        env={**os.environ, "TWIN_PORT_OFFSET": "39990"},
        input="hello\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"twin chat: {said}"), done.stderr
    assert "regex" not in done.stderr


def test_the_first_lines_say_the_chat_id_is_shared_by_the_personas() -> None:
    assert "every persona you talk to as this user shares it" in _chat_line("play:a", shared=True)
    assert _chat_line("mine", shared=False) == "Chat mine (--chat)."


async def test_a_twin_up_from_before_an_update_is_named_before_the_first_message() -> None:
    """After `git pull`, a `twin up` still running the old code answers every turn with a 422
    on `slot_contract_version`; the check at start says to restart it instead."""

    def old_stack(request: httpx.Request) -> httpx.Response:
        node = request.url.host
        return httpx.Response(200, json={"node": node, "slot_contract_version": "1.0"})

    async with httpx.AsyncClient(transport=httpx.MockTransport(old_stack)) as client:
        problem = await check_nodes(client, {n: f"http://{n}" for n in ROUTES}, 0)
    assert problem is not None
    assert problem.startswith("The running nodes speak contract 1.0, this `twin chat` 1.")
    assert problem.endswith("stop it (Ctrl-C) and run `uv run twin up` again.")
