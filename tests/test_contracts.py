"""Contracts are the product's API: the committed JSON Schemas must match the code."""

from __future__ import annotations

from contracts.export import SCHEMA_DIR, rendered


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
