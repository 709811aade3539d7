"""The one-call Twin turn (``fast-brain-one-call.json``) in a real n8n: the same turn as the
four-node flow — memory reaches the model, a commitment is confirmed in the same turn, the
turn is committed — with memory read in one HTTP call; and in company (``private_memory:
false``) the person's private memory stays out."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.e2e.stack import AGENT_ID, ONE_MODE, Stack
from tests.e2e.stub_llm import memory_seen

NOW = datetime.now(UTC).replace(microsecond=0)
_turns = itertools.count(1)


def _turn(stack: Stack, user_id: str, text: str, at: datetime, **extra: Any) -> dict[str, Any]:
    stack.users.add(user_id)
    answer = stack.webhook(
        "twin/one-call",
        {
            "user_id": user_id,
            "agent_id": AGENT_ID,
            "text": text,
            "turn_id": f"one-{stack.run}-{next(_turns)}",
            "now": at.isoformat(),
            "debug": True,
            **extra,
        },
    )
    assert answer.status_code == 200, f"{answer.status_code} {answer.text}\n{stack.n8n.explain()}"
    return answer.json()


def _memory(stack: Stack) -> str:
    seen = memory_seen(stack.llm.requests[-1]["body"]["messages"][0]["content"])
    return "\n".join(
        f"{k}: {v}" for k, items in seen.items() for v in items if k != "SESSION STATE"
    )


@ONE_MODE
def test_the_one_call_turn_remembers_confirms_and_commits(stack: Stack) -> None:
    pia = stack.user("pia")
    first = _turn(stack, pia, "my sister Marta lives in Lisbon", NOW - timedelta(hours=1))
    assert first["reply"].startswith("Heard: my sister Marta lives in Lisbon"), first
    assert first["debug"]["commit"], first["debug"]
    promise = _turn(stack, pia, "remind me to call her Friday", NOW - timedelta(minutes=59))
    assert any("call" in c for c in promise["confirmations"]), promise
    asked = _turn(stack, pia, "where does Marta live?", NOW)
    assert asked["reply"].startswith("Heard: where does Marta live?"), asked
    assert "Lisbon" in _memory(stack)
    assert "Lisbon" in str(asked["debug"]["messages"])


@ONE_MODE
def test_the_one_call_turn_in_company_leaves_private_memory_out(stack: Stack) -> None:
    quin = stack.user("quin")
    _turn(stack, quin, "my sister Marta lives in Lisbon", NOW - timedelta(hours=1))
    shared = _turn(
        stack, quin, "where does Marta live?", NOW, chat_id=f"group-{quin}", private_memory=False
    )
    assert shared["reply"].startswith("Heard: where does Marta live?"), shared
    assert "Lisbon" not in str(stack.llm.requests[-1]["body"]["messages"]), _memory(stack)
