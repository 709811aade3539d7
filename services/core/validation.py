"""Validate untrusted data against a contract and report *every* problem, not the first.

msgspec stops at the first error; a designer fixing an n8n node wants the whole list. The fast
path is one ``msgspec.convert``; only when it fails do we walk the contract field by field.
"""

from __future__ import annotations

import functools
import re
from typing import Any, TypeVar, Union, cast, get_args, get_origin, get_type_hints

import msgspec

from services.core.errors import FieldError, InvalidInput, MalformedJSON

T = TypeVar("T")

_AT_PATH = re.compile(r" - at `\$(.*)`$")


def convert(value: Any, typ: type[T], *, root: str = "$") -> T:
    """Convert ``value`` to ``typ`` or raise :class:`InvalidInput` listing every bad field."""
    try:
        return msgspec.convert(value, typ)
    except msgspec.ValidationError as exc:
        errors = collect_errors(value, typ, root) or [_from_exception(exc, root)]
        raise InvalidInput(errors) from None


def decode(raw: bytes, typ: type[T]) -> T:
    """Decode JSON bytes to ``typ``; malformed JSON is reported at ``$``."""
    try:
        return msgspec.json.decode(raw, type=typ)
    except msgspec.ValidationError:
        pass
    except msgspec.DecodeError as exc:
        raise MalformedJSON([FieldError("$", f"malformed JSON: {exc}")]) from None
    return convert(msgspec.json.decode(raw), typ)


def strict_errors(raw: bytes, typ: type) -> list[FieldError]:
    """The fields of a JSON body the framework's lenient conversion would coerce to ``typ``: a
    string where a number, bool or list belongs (``"edge_cap": "40"``) is an error here, never
    converted. A body that fails even the lenient conversion, or is not JSON, gives no errors
    here: the route reports it (with every problem, its own way). The fast path is one typed
    decode; only a failing body is walked field by field."""
    try:
        msgspec.json.decode(raw, type=typ)
    except msgspec.ValidationError:
        pass
    except msgspec.DecodeError:
        return []
    else:
        return []
    try:
        value = msgspec.json.decode(raw)
        msgspec.convert(value, typ, strict=False)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return []
    return collect_errors(value, typ)


def collect_errors(value: Any, typ: Any, path: str = "$") -> list[FieldError]:
    """Every contract violation in ``value``, each with its path and msgspec's reason."""
    struct = _struct_type(typ)
    if struct is not None and isinstance(value, dict):
        return _struct_errors(value, struct, path)
    item_type = _list_item_type(typ)
    if item_type is not None and isinstance(value, list):
        errors: list[FieldError] = []
        for index, item in enumerate(value):
            errors += collect_errors(item, item_type, f"{path}[{index}]")
        return errors or _check(value, typ, path)  # then the list's own length limits
    return _check(value, typ, path)


def _struct_errors(
    value: dict[str, Any], struct: type[msgspec.Struct], path: str
) -> list[FieldError]:
    errors: list[FieldError] = []
    info = cast(msgspec.inspect.StructType, msgspec.inspect.type_info(struct))
    known: set[str] = set()
    for field in info.fields:
        known.add(field.encode_name)
        field_path = f"{path}.{field.encode_name}"
        if field.encode_name not in value:
            if field.required:
                errors.append(FieldError(field_path, "required field is missing"))
            continue
        field_type = _type_hints(struct).get(field.name, Any)
        errors += collect_errors(value[field.encode_name], field_type, field_path)
    if struct.__struct_config__.forbid_unknown_fields:
        errors += [FieldError(f"{path}.{k}", "unknown field") for k in value if k not in known]
    if not errors:  # field-level checks passed: the struct's own __post_init__ may still object
        errors += _check(value, struct, path)
    return errors


def _check(value: Any, typ: Any, path: str) -> list[FieldError]:
    try:
        msgspec.convert(value, typ)
    except msgspec.ValidationError as exc:
        return [_from_exception(exc, path)]
    return []


def _from_exception(exc: msgspec.ValidationError, path: str) -> FieldError:
    message = str(exc)
    match = _AT_PATH.search(message)
    if match:
        return FieldError(path + match.group(1), message[: match.start()])
    return FieldError(path, message)


def _struct_type(typ: Any) -> type[msgspec.Struct] | None:
    if isinstance(typ, type) and issubclass(typ, msgspec.Struct):
        return typ
    if get_origin(typ) is Union or type(typ).__name__ == "UnionType":
        # ``Annotated[Plan, Meta(...)] | None`` too: unwrap each member
        structs = [s for a in get_args(typ) if (s := _struct_type(a)) is not None]
        return structs[0] if len(structs) == 1 else None
    if get_origin(typ) is not None and type(typ).__name__ == "_AnnotatedAlias":
        return _struct_type(get_args(typ)[0])
    return None


def _list_item_type(typ: Any) -> Any:
    origin = get_origin(typ)
    if type(typ).__name__ == "_AnnotatedAlias":
        return _list_item_type(get_args(typ)[0])
    if origin in (list, tuple) and get_args(typ):
        return get_args(typ)[0]
    return None


@functools.cache
def _type_hints(struct: type) -> dict[str, Any]:
    return get_type_hints(struct, include_extras=True)


_ESCAPED_NUL = b"\\u0000"


def nul_errors(body: bytes) -> list[FieldError]:
    """Every string (or key) of a JSON body holding a NUL character, by path.

    JSON carries NUL only escaped (``\\u0000``); Postgres text cannot store it, and no person
    types it. The scan is a substring search; only a body that has the escape is decoded.
    """
    if _ESCAPED_NUL not in body:
        return []
    try:
        value = msgspec.json.decode(body)
    except (msgspec.DecodeError, RecursionError):
        return []  # malformed: the route's own decoding reports it
    found: list[FieldError] = []
    _walk_nul(value, "$", found)
    return found


def _walk_nul(value: Any, path: str, found: list[FieldError]) -> None:
    if isinstance(value, str):
        if "\x00" in value:
            found.append(FieldError(path, "contains a NUL character (\\u0000)"))
    elif isinstance(value, dict):
        for key, item in value.items():
            if "\x00" in key:
                found.append(FieldError(f"{path}.{key!r}", "key contains a NUL character"))
            _walk_nul(item, f"{path}.{key}", found)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _walk_nul(item, f"{path}[{index}]", found)
