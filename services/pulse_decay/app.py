"""HTTP surface of pulse-decay: ``POST /v1/pulse`` (load → decay → save → return).

The step, its round trips and how it degrades: :mod:`services.pulse_decay.step`.
"""

from __future__ import annotations

from litestar import post
from litestar.params import JSONBody

from contracts.pulse import PulseRequest, PulseResponse
from services.core.app import NodeSpec
from services.core.clock import request_clock
from services.core.deps import Inject
from services.core.logs import bind_ids
from services.core.settings import Settings
from services.core.working_memory import WorkingMemory
from services.pulse_decay.step import count_turn


@post(
    "/v1/pulse",
    status_code=200,
    tags=["pulse-decay"],
    summary="Count the message and decay (or explicitly boost) the AFFECT state",
    description=(
        "Every turn, before graph-hydrator. Loads the working memory of (user, agent, chat), "
        "applies 003 §8 (temporal decay, pulse decay every N messages, forced flush under 0.3), "
        "raises AFFECT only from explicit markers or a first-person statement such as "
        '"I\'m furious", counts the message, and returns `session` + `AFFECT` as saved. '
        "`applied` lists the rules that fired. A retry carrying the `message_id` of the turn "
        'last counted is answered from the saved state (`applied: ["replayed"]`), with '
        "`replay_reply` = the reply that turn got when it was committed. With Redis "
        "unreachable the answer is a neutral AFFECT, `degraded: true`, nothing saved."
    ),
)
async def pulse(
    data: JSONBody[PulseRequest], memory: Inject[WorkingMemory], settings: Inject[Settings]
) -> PulseResponse:
    bind_ids(user_id=data.user_id, agent_id=data.agent_id, chat_id=data.chat_id)
    return await count_turn(memory, settings, data, request_clock(data.now))


SPEC = NodeSpec(
    name="pulse-decay",
    summary="Loads the working memory of (user, agent, chat), decays the AFFECT state "
    "(003 §8), counts the message.",
    route_handlers=[pulse],
)
