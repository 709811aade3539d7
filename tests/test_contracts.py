"""Contracts are the product's API: the committed JSON Schemas must match the code."""

from __future__ import annotations

import msgspec
import pytest
from msgspec import inspect as mi

from contracts.export import SCHEMA_DIR, all_contracts, rendered
from contracts.privacy import ImportResponse
from contracts.recall import EpisodeSlot
from contracts.reflection import ConsolidateResponse


def test_exported_schemas_match_the_code() -> None:
    expected = rendered()
    on_disk = {path.name: path.read_text() for path in SCHEMA_DIR.glob("*.json")}
    stale = sorted(set(on_disk) - set(expected))
    missing = sorted(set(expected) - set(on_disk))
    drifted = sorted(
        name for name in expected if name in on_disk and on_disk[name] != expected[name]
    )
    assert not (stale or missing or drifted), (
        f"contracts/schema is out of date (run `uv run twin export-schema` and bump "
        f"SLOT_CONTRACT_VERSION if a contract changed): stale={stale} missing={missing} "
        f"drifted={drifted}"
    )


def test_every_schema_names_the_contract_version() -> None:
    from contracts.common import SLOT_CONTRACT_VERSION

    for text in rendered().values():
        assert f'"x-slot-contract-version": "{SLOT_CONTRACT_VERSION}"' in text


def _contract_structs() -> set[type[msgspec.Struct]]:
    """Every Struct class defined in a ``contracts`` module, nested parts included."""
    all_contracts()  # imports every contract module
    found: set[type[msgspec.Struct]] = set()
    todo = [msgspec.Struct]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return {c for c in found if c.__module__.partition(".")[0] == "contracts"}


def test_every_contract_is_frozen() -> None:
    """No node fills in a contract after building it: each is built once, complete, and a
    changed copy comes from ``msgspec.structs.replace``."""
    structs = _contract_structs()
    assert set(all_contracts().values()) <= structs
    assert sorted(c.__qualname__ for c in structs if not c.__struct_config__.frozen) == []


@pytest.mark.parametrize(
    ("built", "field"),
    [
        (EpisodeSlot(), "turns"),
        (ImportResponse(user_id="alice", inserted={}), "warnings"),
        (ConsolidateResponse(), "totals"),
    ],
)
def test_the_answers_once_filled_in_refuse_assignment(built: msgspec.Struct, field: str) -> None:
    with pytest.raises(AttributeError):
        setattr(built, field, getattr(built, field))
    assert msgspec.structs.replace(built, **{field: getattr(built, field)}) == built


_COLLECTIONS = (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType, mi.DictType)


def _uncapped(kind: mi.Type, where: str, seen: set[type]) -> list[str]:
    """The paths under ``kind`` of a list, set, variable tuple or map with no ``max_length``."""
    if isinstance(kind, mi.StructType):
        if kind.cls in seen:
            return []
        seen.add(kind.cls)
        return [
            path
            for field in kind.fields
            for path in _uncapped(field.type, f"{kind.cls.__qualname__}.{field.name}", seen)
        ]
    if isinstance(kind, mi.UnionType):
        return [path for part in kind.types for path in _uncapped(part, where, seen)]
    if isinstance(kind, mi.TupleType):
        return [path for part in kind.item_types for path in _uncapped(part, where, seen)]
    if isinstance(kind, _COLLECTIONS):
        inner = kind.value_type if isinstance(kind, mi.DictType) else kind.item_type
        own = [where] if kind.max_length is None else []
        return own + _uncapped(inner, where + "[]", seen)
    return []


def test_every_list_in_every_contract_has_a_cap() -> None:
    """A caller can send no list a node has to walk without bound, and every response says how
    long its lists get (issue 31 §1: 10,000 plan entities held the loop for 23 s)."""
    structs = sorted(_contract_structs(), key=lambda c: (c.__module__, c.__qualname__))
    seen: set[type] = set()
    uncapped = [path for info in mi.multi_type_info(structs) for path in _uncapped(info, "", seen)]
    assert uncapped == []
