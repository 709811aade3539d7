"""Issue 28 §5: the offline readout is the product talking, never memory. A turn whose reply is
a readout (``services.core.readout``) is logged, but the readout is not recalled as a turn or a
turn's context, and the episode the slow brain writes of the session does not quote it."""

from __future__ import annotations

import uuid
from datetime import timedelta

from services.core.readout import MARKER, readout
from tests.chain.conversation import LATER, T0, ok

SAID = "My sister Marta plays the xylophone in Madrid."
READOUT = readout("What I remember that bears on this:\n• Marta plays the xylophone.")


async def test_a_readout_is_logged_but_never_recalled_nor_quoted(nodes) -> None:
    ids = {"user_id": f"reader-{uuid.uuid4().hex[:8]}", "agent_id": "deanna", "chat_id": "c1"}
    for n, reply in enumerate(["Lovely!", READOUT]):
        await ok(
            nodes["memory"],
            "/v1/commit",
            {
                **ids,
                "turn_id": uuid.uuid4().hex,
                "now": (T0 + timedelta(minutes=n)).isoformat(),
                "messages": [{"role": "user", "text": SAID}, {"role": "assistant", "text": reply}],
            },
        )
    recalled = await ok(
        nodes["retrieve"],
        "/v1/retrieve",
        {**ids, "message": "xylophone Marta", "force": "open", "now": LATER.isoformat()},
    )
    texts = [t["text"] for t in recalled["EPISODE"]["turns"]]
    texts += [(t.get("context") or {}).get("text", "") for t in recalled["EPISODE"]["turns"]]
    assert SAID in texts and not any(MARKER in t for t in texts)

    done = await ok(
        nodes["reflect"], "/v1/consolidate", {"user_id": ids["user_id"], "now": LATER.isoformat()}
    )
    assert done["totals"]["episodes_created"] == 1, done
    document = await nodes["memory"].get("/v1/export", params={"user_id": ids["user_id"]})
    tables = document.json()["tables"]
    assert any(MARKER in m["text"] for m in tables["messages"])  # logged: the chat stays whole
    assert tables["episodes"] and not any(MARKER in str(e) for e in tables["episodes"])
