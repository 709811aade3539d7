"""The one app factory every node is built with.

A node is a :class:`NodeSpec` (its name, its ``/v1`` routes, and any providers of its own);
what stores it needs is read off its handlers (:mod:`services.core.deps`). ``create_app``
adds what every node shares: health, readiness, version, OpenAPI at ``/schema/openapi.json``,
problem+json errors, request ids with one log line per request, bearer auth on ``/v1/*``, a
body size limit, the capabilities' providers, and the clients' lifespan.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, replace
from typing import Any

import msgspec
from litestar import Litestar, Request, Response, get
from litestar.datastructures import State
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.plugins import JsonRenderPlugin

from contracts.common import SLOT_CONTRACT_VERSION, Health, Readiness, Version
from services.core import problems
from services.core.auth import bearer_auth_middleware
from services.core.deps import Clients
from services.core.errors import InvalidInput
from services.core.injection import needs_of, providers
from services.core.logs import request_log_middleware
from services.core.migrate import latest_version
from services.core.readiness import DEGRADES_WITHOUT, RouteNeeds, check_dependencies, judge
from services.core.refusals import exception_handlers
from services.core.settings import Settings
from services.core.validation import nul_errors, strict_errors
from services.core.version import package_version


@dataclass(frozen=True)
class NodeSpec:
    """What makes a node itself; everything else comes from ``create_app``."""

    name: str
    summary: str
    route_handlers: Sequence[Any]
    dependencies: dict[str, Provide] | None = None
    # work of the node's own for as long as it serves (entered once the clients are open,
    # left before they close): memory-upserter's index sweep
    lifespan: Sequence[Callable[[Litestar], AbstractAsyncContextManager[None]]] = ()

    @property
    def stores(self) -> frozenset[str]:
        """The stores this node opens and ``/readyz`` checks, read off its handlers."""
        return needs_of(self.route_handlers, self.dependencies or {})

    @property
    def routes(self) -> tuple[RouteNeeds, ...]:
        """Each route's needs, and those it answers without (what ``/readyz`` judges by)."""
        return tuple(
            RouteNeeds(
                path,
                needs_of([handler], self.dependencies or {}),
                frozenset(handler.opt.get(DEGRADES_WITHOUT, ())),
            )
            for handler in self.route_handlers
            for path in sorted(handler.paths)
        )

    def mounting(self, handlers: Sequence[Any], summary: str) -> NodeSpec:
        """This node also serving ``handlers`` (composed by the entry point, which says what
        they add in ``summary``); the node's own package stays a leaf."""
        return replace(
            self,
            summary=f"{self.summary} {summary}",
            route_handlers=[*self.route_handlers, *handlers],
        )


@get("/healthz", tags=["health"], summary="The process is alive")
async def healthz(state: State) -> Health:
    return Health(status="ok", node=state.node)


@get(
    "/readyz",
    tags=["health"],
    summary="Every route has the dependencies it cannot answer without; `degraded` names the "
    "routes serving on without one (still 200)",
    responses={503: ResponseSpec(data_container=Readiness, description="not ready")},
)
async def readyz(state: State) -> Response[Readiness]:
    checks = await check_dependencies(state.clients, state.needs)
    verdict = judge(checks, state.routes)
    modes = {
        store: mode for store, mode in state.settings.store_modes.items() if store in state.needs
    }
    body = Readiness(
        status="ready" if verdict.blocking is None else "unavailable",
        node=state.node,
        checks=checks,
        modes=modes,
        degraded=verdict.degraded,
    )
    if verdict.blocking is None:
        return Response(body)
    return Response(
        body,
        status_code=503,
        headers={"Retry-After": str(state.settings.retry_after_s), "X-Unready": verdict.blocking},
    )


@get(
    "/version",
    tags=["health"],
    summary="Node, package and contract versions, and the Postgres schema version this code "
    "needs (the newest migration; /readyz is 503 until the database has it)",
)
async def version(state: State) -> Version:
    return Version(
        node=state.node,
        version=package_version(),
        slot_contract_version=SLOT_CONTRACT_VERSION,
        schema_version=state.schema_version,
    )


async def screen_body(request: Request[Any, Any, State]) -> None:
    """Before any handler: a body that is not JSON is a 415, one holding NUL characters (which
    no store keeps and no person types) a 422 naming each field, and so is one whose values
    do not match the route's contract as sent (the framework would coerce ``"40"`` to 40)."""
    if request.method not in ("POST", "PUT", "PATCH"):
        return
    body = await request.body()
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if body and not (media_type == "application/json" or media_type.endswith("+json")):
        raise problems.ProblemError(
            415,
            "Unsupported media type",
            f"send the body as application/json (got {media_type or 'no content type'})",
        )
    errors = nul_errors(body)
    if not errors and body:
        errors = strict_errors(body, contract) if (contract := _body_contract(request)) else []
    if errors:
        raise InvalidInput(errors)


def _body_contract(request: Request[Any, Any, State]) -> type[msgspec.Struct] | None:
    """The Struct the route decodes its JSON body into, if it has one."""
    data = request.route_handler.parsed_fn_signature.parameters.get("data")
    typ = data.annotation if data is not None else None
    return typ if isinstance(typ, type) and issubclass(typ, msgspec.Struct) else None


def create_app(spec: NodeSpec, settings: Settings, clients: Clients | None = None) -> Litestar:
    """Build the node's ASGI app. Pass ``clients`` to share them (``twin up``, tests);
    otherwise the app opens the stores its handlers need in its lifespan and closes them."""

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        if app.state.clients is not None:  # shared: whoever opened them closes them
            yield
            return
        app.state.clients = await Clients.open(settings, spec.stores)
        try:
            yield
        finally:
            await app.state.clients.close()
            app.state.clients = None

    app = Litestar(
        route_handlers=[healthz, readyz, version, *spec.route_handlers],
        lifespan=[lifespan, *spec.lifespan],
        state=State(
            {
                "node": spec.name,
                "needs": spec.stores,
                "routes": spec.routes,
                "settings": settings,
                "clients": clients,
                "schema_version": latest_version(),
            }
        ),
        dependencies={
            **providers(),
            **(spec.dependencies or {}),
        },
        middleware=[bearer_auth_middleware(settings.node_token)],
        before_request=screen_body,
        exception_handlers=exception_handlers(settings),
        request_class=problems.BodyKeepingRequest,
        openapi_config=OpenAPIConfig(
            title=f"Twin Core — {spec.name}",
            version=package_version(),
            description=spec.summary,
            path="/schema",
            render_plugins=[JsonRenderPlugin()],
        ),
        request_max_body_size=settings.max_body_bytes,
        logging_config=None,  # the entry point configured logging once (services.core.logs)
        debug=False,
    )
    # Around litestar's own exception handling, not per route: a request no route matches
    # (404, 405) gets a request id, its problem names it, and it has its log line too.
    app.asgi_handler = request_log_middleware(spec.name)(app.asgi_handler)
    closed_objects(app)
    return app


def closed_objects(app: Litestar) -> None:
    """Say in the OpenAPI what the contracts enforce: no field beyond the documented ones.

    Every body is a contract Struct with ``forbid_unknown_fields`` (an unknown field is a 422
    naming it, so a typo in an n8n expression is caught, not ignored), and the exported
    contract schemas say ``additionalProperties: false``; litestar's generated components do
    not, so a client reading the OpenAPI would think extra fields are fine.
    """
    for component in (app.openapi_schema.components.schemas or {}).values():
        if component.properties is not None and component.additional_properties is None:
            component.additional_properties = False
