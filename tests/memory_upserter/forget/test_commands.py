"""A slash command is logged with its turn but never becomes a memory: the shadow judge
extracts nothing from it, and does not read earlier commands as context either."""

from __future__ import annotations

import httpx
import pytest

from services.core.deps import Clients
from services.memory_upserter.text import is_command
from tests.memory_upserter.conftest import commit, later, rows, turn


@pytest.mark.parametrize(
    "text", ["/forget Lisbon", "/help", "/start", "/start@twin_bot", "/remember my sister Ana"]
)
async def test_a_slash_command_is_logged_and_never_remembered(
    client: httpx.AsyncClient, resources: Clients, user_id: str, text: str
) -> None:
    answer = await commit(client, turn(user_id, text))
    assert answer["plan_source"] == "offline_extractor"
    assert (answer["facts"], answer["entities"], answer["todos"]) == ([], [], [])
    assert "slash_command" in {w["code"] for w in answer["warnings"]}
    assert await rows(resources, "SELECT 1 FROM relations WHERE user_id = $1", user_id) == []
    logged = await rows(resources, "SELECT text FROM messages WHERE user_id = $1", user_id)
    assert text in [m["text"] for m in logged]


async def test_the_turn_after_a_command_is_judged_as_usual(
    client: httpx.AsyncClient, resources: Clients, user_id: str
) -> None:
    await commit(client, turn(user_id, "/forget Lisbon"))
    answer = await commit(client, turn(user_id, "My sister Marta lives in Lisbon.", at=later(1)))
    assert any("Lisbon" in f["text"] for f in answer["facts"])


def test_what_is_a_command() -> None:
    assert is_command("/help") and is_command("  /forget x") and is_command("/start@bot")
    assert not is_command("/ not a command") and not is_command("and/or") and not is_command("")
    assert not is_command("1/2 of it")


async def test_an_assistant_only_turn_carries_no_slash_command_warning(
    client: httpx.AsyncClient, user_id: str
) -> None:
    """An import of the assistant's side alone (BEAM, LoCoMo) is no command."""
    answer = await commit(client, turn(user_id, None, reply="Here is your plan for the week."))
    assert "slash_command" not in {w["code"] for w in answer["warnings"]}
