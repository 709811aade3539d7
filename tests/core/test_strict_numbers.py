"""A string where a number (or a bool) belongs is a 422 naming the field, on every node.

The framework converts request bodies leniently (``"40"`` would become 40); every node screens
its body against its contract as sent first. The contract walk below finds every numeric and
boolean field of every route's request — nested Structs and lists of them included — so a field
added later is covered without touching this file.
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

import msgspec
import pytest

from services.core.app import create_app
from services.core.deps import Clients
from services.core.validation import collect_errors, strict_errors
from services.nodes import all_specs


def _routes() -> list[tuple[str, str, type[msgspec.Struct]]]:
    found = []
    for name, spec in all_specs().items():
        for handler in spec.route_handlers:
            data = handler.parsed_fn_signature.parameters.get("data")
            if (
                data is not None
                and isinstance(data.annotation, type)
                and issubclass(data.annotation, msgspec.Struct)
            ):
                found += [(name, path, data.annotation) for path in sorted(handler.paths)]
    return found


def _unwrap(typ: Any) -> list[Any]:
    """The concrete types a field may hold (Annotated and Optional peeled off)."""
    if get_origin(typ) is Annotated:
        return _unwrap(get_args(typ)[0])
    if get_origin(typ) is Union or isinstance(typ, types.UnionType):
        return [t for arg in get_args(typ) for t in _unwrap(arg)]
    return [typ]


def _scalar_paths(struct: type[msgspec.Struct], depth: int = 0) -> list[tuple[list, str]]:
    """(JSON path as keys/indexes, kind) of every int, float or bool field reachable."""
    out: list[tuple[list, str]] = []
    if depth > 4:
        return out
    hints = get_type_hints(struct, include_extras=True)
    for field in msgspec.structs.fields(struct):
        options = _unwrap(hints[field.name])
        kinds = {t for t in options if t in (int, float, bool)}
        if kinds and not ({str} & set(options)):
            out.append(([field.encode_name], "bool" if kinds == {bool} else "number"))
        for option in options:
            inner = option
            index: list = []
            if get_origin(option) in (list, tuple) and get_args(option):
                inner, index = _unwrap(get_args(option)[0])[0], [0]
            if isinstance(inner, type) and issubclass(inner, msgspec.Struct):
                out += [
                    ([field.encode_name, *index, *sub], kind)
                    for sub, kind in _scalar_paths(inner, depth + 1)
                ]
    return out


def _body(path: list, value: Any) -> Any:
    """The smallest JSON value putting ``value`` at ``path``."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    return [_body(rest, value)] if head == 0 else {head: _body(rest, value)}


def _json_path(path: list) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


CASES = [
    (node, route, struct, path, kind)
    for node, route, struct in _routes()
    for path, kind in _scalar_paths(struct)
]


def test_every_node_has_numeric_request_fields_to_check() -> None:
    nodes = {node for node, *_ in CASES}
    assert {
        "graph-hydrator",
        "rag-gate",
        "pulse-decay",
        "memory-upserter",
        "reflection-writer",
    } <= nodes
    assert ("graph-hydrator", "/v1/hydrate", ["edge_cap"]) in [(n, r, p) for n, r, _, p, _ in CASES]


@pytest.mark.parametrize(
    ("node", "route", "struct", "path", "kind"),
    CASES,
    ids=[f"{n}{r}:{_json_path(p)}" for n, r, _, p, _ in CASES],
)
def test_a_string_in_a_numeric_or_bool_field_is_refused_at_its_path(
    node: str, route: str, struct: type, path: list, kind: str
) -> None:
    """The body holds only this field: the route's own report (every field, checked strictly)
    names it beside the missing ones; alone in a valid body, the screen does."""
    sent = "true" if kind == "bool" else "40"
    body = _body(path, sent)
    errors = strict_errors(msgspec.json.encode(body), struct) or collect_errors(body, struct)
    named = [e for e in errors if e.path == _json_path(path)]
    assert named and "str" in named[0].reason, (node, route, errors)


def test_a_well_typed_body_passes_untouched() -> None:
    from contracts.hydrate import HydrateRequest

    body = {"user_id": "u1", "agent_id": "a", "chat_id": "c", "message": "hi", "edge_cap": 40}
    assert strict_errors(msgspec.json.encode(body), HydrateRequest) == []
    assert strict_errors(b"{not json", HydrateRequest) == []  # the route reports malformed JSON
    coerced = {**body, "edge_cap": "40"}
    assert [e.path for e in strict_errors(msgspec.json.encode(coerced), HydrateRequest)] == [
        "$.edge_cap"
    ]
    # what even lenient conversion refuses is the route's to report, every problem its own way
    assert strict_errors(msgspec.json.encode({**coerced, "message": 5}), HydrateRequest) == []


@pytest.mark.parametrize(
    ("node", "route", "field", "sent"),
    [
        ("graph-hydrator", "/v1/hydrate", "edge_cap", "40"),
        ("graph-hydrator", "/v1/hydrate", "edge_cap", 40.5),
        ("memory-upserter", "/v1/reindex", "limit", "10"),
        ("memory-upserter", "/v1/forget", "hard", "true"),
    ],
)
async def test_through_the_app_a_mistyped_field_is_a_422_problem_naming_it(
    app_client,
    settings,
    resources: Clients,
    user_id: str,
    node: str,
    route: str,
    field: str,
    sent: Any,
) -> None:
    body = {
        "user_id": user_id,
        "agent_id": "deanna",
        "chat_id": "tg:1",
        "message": "hi",
        "scope": "global",
        "everything": True,
        field: sent,
    }
    body = {
        k: v
        for k, v in body.items()
        if k in {f.encode_name for f in msgspec.structs.fields(_struct(node, route))}
    }
    async with app_client(create_app(all_specs()[node], settings, resources)) as client:
        answer = await client.post(route, json=body)
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert [e["path"] for e in answer.json()["errors"]] == [f"$.{field}"]


def _struct(node: str, route: str) -> type[msgspec.Struct]:
    return next(s for n, r, s in _routes() if (n, r) == (node, route))
