"""The one app factory every node is built with.

A node is a :class:`NodeSpec` (its name, its ``/v1`` routes, the dependencies it needs);
``create_app`` adds what every node shares: health, readiness, version, OpenAPI at
``/schema/openapi.json``, problem+json errors, request ids with one log line per request,
bearer auth on ``/v1/*``, a body size limit, and the resources' lifespan.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from litestar import Litestar, Response, get
from litestar.datastructures import State
from litestar.di import Provide
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.plugins import JsonRenderPlugin

from contracts.common import SLOT_CONTRACT_VERSION, Health, Readiness, Version
from services.core import problems
from services.core.auth import bearer_auth_middleware
from services.core.logs import request_log_middleware
from services.core.readiness import check_dependencies
from services.core.resources import Resources
from services.core.settings import Settings
from services.core.validation import InvalidInput

PACKAGE_VERSION = "0.1.0"


@dataclass(frozen=True)
class NodeSpec:
    """What makes a node itself; everything else comes from ``create_app``."""

    name: str
    summary: str
    route_handlers: Sequence[Any]
    needs: frozenset[str]
    dependencies: dict[str, Callable[..., Any]] | None = None


@get("/healthz", tags=["health"], summary="The process is alive")
async def healthz(state: State) -> Health:
    return Health(status="ok", node=state.node)


@get("/readyz", tags=["health"], summary="Every dependency this node needs answers",
     responses={503: ResponseSpec(data_container=Readiness, description="not ready")})
async def readyz(state: State) -> Response[Readiness]:
    checks = await check_dependencies(state.resources, state.needs)
    ready = all(value == "ok" for value in checks.values())
    body = Readiness(status="ready" if ready else "unavailable", node=state.node, checks=checks)
    if ready:
        return Response(body)
    failing = next(name for name, value in checks.items() if value != "ok")
    return Response(
        body, status_code=503,
        headers={"Retry-After": str(state.settings.retry_after_s), "X-Unready": failing},
    )


@get("/version", tags=["health"], summary="Node, package and contract versions")
async def version(state: State) -> Version:
    return Version(node=state.node, version=PACKAGE_VERSION,
                   slot_contract_version=SLOT_CONTRACT_VERSION)


def provide_resources(state: State) -> Resources:
    return state.resources


def create_app(spec: NodeSpec, settings: Settings, resources: Resources | None = None) -> Litestar:
    """Build the node's ASGI app. Pass ``resources`` to share clients (``twin up``, tests);
    otherwise the app opens the ones ``spec.needs`` in its lifespan and closes them after."""

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        if app.state.resources is not None:  # shared: whoever opened them closes them
            yield
            return
        app.state.resources = await Resources.open(settings, spec.needs)
        try:
            yield
        finally:
            await app.state.resources.close()
            app.state.resources = None

    return Litestar(
        route_handlers=[healthz, readyz, version, *spec.route_handlers],
        lifespan=[lifespan],
        state=State({"node": spec.name, "needs": spec.needs, "settings": settings,
                     "resources": resources}),
        dependencies={"resources": Provide(provide_resources, sync_to_thread=False),
                      **(spec.dependencies or {})},
        middleware=[request_log_middleware(spec.name), bearer_auth_middleware(settings.node_token)],
        exception_handlers={
            problems.ProblemError: problems.handle_problem_error,
            InvalidInput: problems.handle_invalid_input,
            ValidationException: problems.handle_validation,
            HTTPException: problems.handle_http,
            Exception: problems.make_unexpected_handler(settings.retry_after_s),
        },
        openapi_config=OpenAPIConfig(
            title=f"Twin Core — {spec.name}",
            version=PACKAGE_VERSION,
            description=spec.summary,
            path="/schema",
            render_plugins=[JsonRenderPlugin()],
        ),
        request_max_body_size=settings.max_body_bytes,
        logging_config=None,  # the entry point configured logging once (services.core.logs)
        debug=False,
    )

