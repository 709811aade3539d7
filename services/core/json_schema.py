"""JSON Schema in the subset OpenAI strict structured output accepts, from a msgspec contract.

``$ref`` inlined (no ``$defs``), every object closed (``additionalProperties: false``) with every
property required, nullable scalars as ``{"type": [T, "null"]}``, and the keywords strict mode
refuses (lengths, ranges, patterns, item counts, defaults, titles) moved into the description.
A field with a non-null default becomes required with its own type — the model writes the
default out — so every answer the schema admits decodes as the contract unchanged; the full
contract (lengths, patterns) is still enforced by whoever receives the answer.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

KEPT = frozenset({"type", "enum", "const", "description", "properties", "items", "anyOf"})


def strict_schema(typ: type) -> dict[str, Any]:
    raw = msgspec.json.schema(typ)
    return _strict(raw, raw.get("$defs", {}), ())


def _strict(node: dict[str, Any], defs: dict[str, Any], seen: tuple[str, ...]) -> dict[str, Any]:
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        if name in seen:
            raise ValueError(f"recursive schema {name!r} cannot be inlined")
        return _strict({**defs[name], **_without(node, "$ref")}, defs, (*seen, name))
    if "anyOf" in node:
        return _nullable(node, [_strict(option, defs, seen) for option in node["anyOf"]])
    out: dict[str, Any] = {key: value for key, value in node.items() if key in KEPT}
    if "enum" in out and "type" not in out:
        kinds = {type(value) for value in out["enum"]}
        if kinds == {str}:
            out["type"] = "string"
    if "const" in out and "type" not in out and isinstance(out["const"], str):
        out["type"] = "string"
    if "items" in out:
        out["items"] = _strict(out["items"], defs, seen)
    if node.get("type") == "object":
        properties = node.get("properties", {})
        out["properties"] = {key: _strict(value, defs, seen) for key, value in properties.items()}
        out["required"] = list(properties)
        out["additionalProperties"] = False
    hints = _hints(node)
    if hints:
        out["description"] = " ".join(filter(None, [out.get("description", ""), hints]))
    return out


def _nullable(node: dict[str, Any], options: list[dict[str, Any]]) -> dict[str, Any]:
    """``[T, null]`` for a nullable scalar; ``anyOf`` otherwise (objects, several types)."""
    others = [o for o in options if o != {"type": "null"}]
    description = node.get("description")
    if (
        len(others) == 1
        and len(options) == 2
        and isinstance(others[0].get("type"), str)
        and others[0]["type"] not in ("object", "array")
    ):
        merged = {**others[0], "type": [others[0]["type"], "null"]}
        if "enum" in merged:
            merged["enum"] = [*merged["enum"], None]
    else:
        merged = {"anyOf": options}
    if description:
        merged["description"] = description
    return merged


def _hints(node: dict[str, Any]) -> str:
    """The refused keywords, said in words the model reads."""
    hints = []
    if node.get("minLength") == 1:
        hints.append("Non-empty.")
    if "maxLength" in node:
        hints.append(f"At most {node['maxLength']} characters.")
    if "minimum" in node and "maximum" in node:
        hints.append(f"From {node['minimum']} to {node['maximum']}.")
    if "pattern" in node:
        hints.append(f"Must match {node['pattern']}.")
    if "maxItems" in node:
        hints.append(f"At most {node['maxItems']} items.")
    if "default" in node and node["default"] is not None and node["default"] != []:
        hints.append(f"Usually {json.dumps(node['default'])}.")
    return " ".join(hints)


def _without(node: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in node.items() if k != key}
