"""HTTP surface of envelope-validator: one pure route, no I/O (load → logic → return)."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request, Response, post
from litestar.exceptions import ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import JSONBody

from contracts.envelope_io import EnvelopeRequest, EnvelopeResponse
from services.core import problems
from services.core.app import NodeSpec
from services.core.clock import request_clock
from services.core.errors import FieldError, InvalidInput, MalformedJSON
from services.core.logs import bind_ids
from services.envelope_validator.checks import errors_in
from services.envelope_validator.logic import build


def refuse_with_every_problem(
    request: Request[Any, Any, Any], exc: ValidationException
) -> Response[Any]:
    """A body that does not decode: list its contract errors *and* the semantic errors of the
    slots that do decode (a GRAPH of another user is reported beside a bad AFFECT label).

    Litestar calls exception handlers synchronously; the body it failed to decode is kept
    for them by then (``problems.raw_body``)."""
    try:
        body = msgspec.json.decode(problems.raw_body(request) or b"")
    except msgspec.DecodeError:
        malformed = [FieldError("$", "malformed JSON body")]
        return problems.handle_invalid_input(request, MalformedJSON(malformed))
    errors = errors_in(body) or [FieldError("$", exc.detail or "invalid request")]
    return problems.handle_invalid_input(request, InvalidInput(errors, "Invalid envelope"))


@post(
    "/v1/envelope",
    status_code=200,
    tags=["envelope"],
    summary="Check the slots and render the chat messages for the LLM call",
    description="Takes AFFECT, GRAPH, EPISODE, KNOWLEDGE (and FACTS) exactly as the earlier "
    "nodes answered, plus the prompt context. Answers the checked envelope, the chat "
    "`messages` in the fixed order of the prompt contract, the strict "
    "`response_format` of the answer, warnings for everything cut, and sizes. "
    "Refuses a bad envelope with every problem listed.",
    exception_handlers={ValidationException: refuse_with_every_problem},
    responses={
        422: ResponseSpec(
            data_container=problems.Problem,
            description="invalid envelope: every problem in `errors`",
        )
    },
)
async def envelope(data: JSONBody[EnvelopeRequest]) -> EnvelopeResponse:
    bind_ids(user_id=data.user_id, agent_id=data.agent_id)
    answer = build(data, request_clock(data.now))
    bind_ids(
        user_id=data.user_id,
        agent_id=data.agent_id,
        prompt_chars=answer.stats.total_chars,
        warnings=sorted({warning.code for warning in answer.warnings}),
    )
    return answer


SPEC = NodeSpec(
    name="envelope-validator",
    summary="Assembles, validates and renders the inference envelope for the LLM. No I/O.",
    route_handlers=[envelope],
)
