"""``twin chat``: talk to the running nodes from a terminal as Telegram would.

Type a message and get the reply of the configured model (or the offline readout). Commands:
``/envelope`` shows the chat messages the model got for the last turn, ``/written`` what the
commit wrote, ``/show`` toggles printing both after every turn, ``/new`` starts a new session,
``/forget <text>`` forgets it (:mod:`services.playground.commands`), ``/help`` lists them,
``/quit`` leaves; any other ``/word`` is not sent. Before the first message every node of the
chain must answer as itself (:mod:`services.playground.preflight`); if one does not, one line
says what to run and the command exits 1.

A session is keyed by (user, agent, chat): its working memory in Redis and its row in Postgres.
``/new`` moves to a fresh chat id, so the next turn opens a new session with empty working
memory while everything remembered about the person stays; the session left behind closes after
``TWIN_SESSION_IDLE_MINUTES`` and is consolidated like any other.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

import httpx

from services.core.settings import Settings
from services.playground import commands
from services.playground.ids import message_problem
from services.playground.preflight import check_nodes
from services.playground.turn import ROUTES, AskModel, Conversation, Exchange, NodeError

if TYPE_CHECKING:
    from services.core.llm import LLM

PROMPT = "you> "
HELP = "/help lists the commands (/forget <text>, /new, /quit, ...)"
MAX_CHAT_ID = 128


def node_urls(settings: Settings) -> dict[str, str]:
    """Where ``twin up`` (or ``twin serve``) listens for each node of the chain."""
    host = "127.0.0.1" if settings.host in ("0.0.0.0", "::") else settings.host
    return {node: f"http://{host}:{settings.port_of(node)}" for node in ROUTES}


async def run_chat(
    settings: Settings,
    *,
    user_id: str,
    agent_id: str,
    chat_id: str,
    persona_prompt: str = "",
    show: bool = False,
    shared_chat: bool = False,
    read: Callable[[str], str] = input,
    out: TextIO = sys.stdout,
) -> int:
    async with httpx.AsyncClient(timeout=settings.llm_timeout_s + 30) as client:
        urls = node_urls(settings)
        problem = await check_nodes(client, urls, settings.port_offset)
        if problem is not None:
            print(f"twin chat: {problem}", file=sys.stderr)
            return 1
        llm = _open_model(settings)
        talk = Conversation(
            client=client,
            base_urls=urls,
            user_id=user_id,
            agent_id=agent_id,
            chat_id=chat_id,
            persona_prompt=persona_prompt,
            token=settings.node_token,
            ask_model=_asker(llm, settings),
        )
        engine = f"model {settings.llm_model}" if llm else "offline (no model configured)"
        print(f"Talking to {agent_id} as {user_id}; replies: {engine}.", file=out)
        print(_chat_line(chat_id, shared=shared_chat), HELP, sep="\n", file=out)
        try:
            await _loop(talk, read, out, show)
        finally:
            if llm is not None:
                await llm.close()
    return 0


COMMANDS = ("/new", "/show", "/envelope", "/written")


def _chat_line(chat_id: str, *, shared: bool) -> str:
    """Which chat the turns go to, and whether the other personas share it."""
    if not shared:
        return f"Chat {chat_id} (--chat)."
    return (
        f"Chat {chat_id}: every persona you talk to as this user shares it, as a Telegram "
        "private chat id is shared by bots (each persona keeps its own session); --chat picks "
        "another."
    )


async def read_line(read: Callable[[str], str], prompt: str) -> str:
    """``read(prompt)`` in a daemon thread: Ctrl-C at the prompt ends ``twin chat`` at once,
    where a worker of the loop's executor would be waited for until Enter is pressed."""
    loop = asyncio.get_running_loop()
    line: asyncio.Future[str] = loop.create_future()

    def settle(result: str | None, error: BaseException | None) -> None:
        if line.done():  # the prompt was abandoned (Ctrl-C): nobody waits for the line
            return
        if error is not None:
            line.set_exception(error)
        else:
            line.set_result(result or "")

    def work() -> None:
        try:
            result, error = read(prompt), None
        except BaseException as exc:  # EOFError (Ctrl-D) goes back to the loop as it came
            result, error = None, exc
        try:
            loop.call_soon_threadsafe(settle, result, error)
        except RuntimeError:  # the loop is closed: twin chat is already ending
            pass

    threading.Thread(target=work, name="twin-chat-input", daemon=True).start()
    return await line


async def _loop(talk: Conversation, read: Callable[[str], str], out: TextIO, show: bool) -> None:
    last: Exchange | None = None
    while True:
        try:
            text = (await read_line(read, PROMPT)).strip()
        except EOFError:
            return
        if text in ("/quit", "/exit"):
            return
        if text in COMMANDS or not text:
            last, show = _command(text, talk, last, show, out)
            continue
        if commands.is_command(text):
            print(await _slash(talk, text), file=out)
            continue
        if (too_long := message_problem(text)) is not None:
            print(f"!! {too_long}", file=out)
            continue
        try:
            last = await talk.say(text)
        except NodeError as exc:
            print(f"!! {exc}", file=out)
            continue
        print(f"{talk.agent_id}> {last.reply}", file=out)
        for line in last.confirmations:
            print(f"{talk.agent_id}> {line}", file=out)
        if show:
            print(_detail(last, "envelope"), _detail(last, "written"), sep="\n", file=out)


def _command(
    text: str, talk: Conversation, last: Exchange | None, show: bool, out: TextIO
) -> tuple[Exchange | None, bool]:
    """One of :data:`COMMANDS` (an empty line does nothing); the last exchange and the show
    toggle afterwards."""
    if text == "/new":
        talk.chat_id = new_chat_id(talk.chat_id)
        print(
            f"(new session in chat {talk.chat_id}; what you told me before stays remembered)",
            file=out,
        )
        return None, show
    if text == "/show":
        show = not show
        print(f"(showing envelope and writes: {'on' if show else 'off'})", file=out)
    elif text in ("/envelope", "/written") and last is not None:
        print(_detail(last, text[1:]), file=out)
    return last, show


async def _slash(talk: Conversation, text: str) -> str:
    """The line a slash command prints (``/help``, ``/forget <text>``, or an unknown one)."""
    name, _, rest = text.partition(" ")
    if name == "/help":
        return commands.HELP
    if name == "/forget":
        return await commands.forget(
            talk.client,
            talk.base_urls["memory-upserter"],
            user_id=talk.user_id,
            text=rest,
            token=talk.token,
        )
    return f"(unknown command {name}: not sent, nothing remembered; /help lists the commands)"


def new_chat_id(chat_id: str) -> str:
    """A fresh chat id derived from ``chat_id`` (``play:alice`` → ``play:alice~3f9a1c``)."""
    base = chat_id.split("~", 1)[0][: MAX_CHAT_ID - 7]
    return f"{base}~{uuid.uuid4().hex[:6]}"


def _detail(exchange: Exchange, what: str) -> str:
    if what == "envelope":
        envelope = exchange.answers.get("envelope-validator")
        if envelope is None:
            return "-- no envelope this turn (graph-hydrator asked which one was meant)"
        messages = "\n".join(f"[{m['role']}]\n{m['content']}" for m in envelope["messages"])
        warnings = envelope.get("warnings") or []
        listed = "".join(f"\n  ! {_warning(w)}" for w in warnings)
        count = f"{len(warnings)} warning{'' if len(warnings) == 1 else 's'}"
        return f"-- envelope ({count}){listed}\n{messages}"
    commit = exchange.answers.get("memory-upserter", {})
    written = {
        key: commit.get(key)
        for key in ("plan_source", "entities", "facts", "todos", "completions", "warnings")
        if commit.get(key)
    }
    return "-- written\n" + json.dumps(written, indent=2, ensure_ascii=False)


def _warning(warning: dict[str, Any]) -> str:
    """One envelope warning in a line (``EnvelopeWarning``: code, section, detail)."""
    return f"{warning.get('code')} in {warning.get('section')}: {warning.get('detail')}"


def _open_model(settings: Settings) -> LLM | None:
    from services.core.llm import open_llm

    return open_llm(
        base_url=settings.openai_base_url,
        api_key=settings.openai_api_key,
        model=settings.llm_model,
        timeout=settings.llm_timeout_s,
    )


def _asker(llm: LLM | None, settings: Settings) -> AskModel | None:
    if llm is None:
        return None

    async def ask(messages: list[dict[str, Any]], response_format: dict[str, Any]) -> str:
        return await llm.chat(messages, settings.llm_timeout_s + 25, response_format)

    return ask
