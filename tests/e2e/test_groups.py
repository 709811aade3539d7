"""Group chats are not private (issue 30): an addressed reply in a group is made without the
person's private memory — no foundation, relations, episodes or facts reach the model — unless
the designer opted that persona in (``group_memory`` on its Persona node; the E2E turns it on
for Anaketa only)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from tests.e2e.stack import ANAKETA_ALLOWED, ONE_MODE, Stack
from tests.e2e.stub_llm import memory_seen
from tests.e2e.telegram import Person, deliver, say, update

NOW = datetime.now(UTC).replace(microsecond=0)
EARLIER = NOW - timedelta(days=1)


def _model_saw(stack: Stack) -> tuple[str, str]:
    """The memory blocks of the last model call, and all its messages as one text."""
    messages = stack.llm.requests[-1]["body"]["messages"]
    seen = memory_seen(messages[0]["content"])
    memory = "\n".join(
        f"{k}: {v}" for k, items in seen.items() for v in items if k != "SESSION STATE"
    )
    return memory, json.dumps(messages)


@ONE_MODE
def test_a_group_reply_has_no_private_memory_unless_the_persona_opts_in(stack: Stack) -> None:
    gia = Person("Gia", id=ANAKETA_ALLOWED[1])
    say(stack, gia, "my sister Marta lives in Lisbon", EARLIER)
    say(stack, gia, "where does Marta live?", EARLIER + timedelta(minutes=1))
    memory, _ = _model_saw(stack)
    assert "Lisbon" in memory, memory  # in private, the person's memory is there

    group = {"id": -1_000_000_000_000 - gia.id, "type": "group", "title": "Friends"}
    asked = update(gia, NOW, text="@deanna_twin_bot where does Marta live?", chat=group)
    sent = deliver(stack, gia, asked)
    assert sent and sent[0]["shown"].startswith("Heard: where does Marta live?"), sent
    memory, everything = _model_saw(stack)
    assert "Lisbon" not in everything and "sister" not in everything, memory

    opted_in = update(
        gia, NOW + timedelta(minutes=1), text="@anaketa_twin_bot where does Marta live?", chat=group
    )
    sent = deliver(stack, gia, opted_in, agent="anaketa")
    assert sent and sent[0]["shown"].startswith("Heard: where does Marta live?"), sent
    memory, _ = _model_saw(stack)
    assert "Lisbon" in memory, memory
