"""Export every contract to ``contracts/schema/<name>.json`` (run: ``twin export-schema``).

The committed files are what n8n designers read; ``tests/test_contracts.py`` fails when they
drift from the code. A contract module publishes its
Structs by listing them in a module-level ``EXPORTS = {schema name: Struct}``.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from pathlib import Path

import msgspec

import contracts
from contracts.common import SLOT_CONTRACT_VERSION

SCHEMA_DIR = Path(__file__).parent / "schema"


def all_contracts() -> dict[str, type]:
    """Every contract module's ``EXPORTS`` (``{schema name: Struct}``), merged."""
    found: dict[str, type] = {}
    for module_info in pkgutil.iter_modules(contracts.__path__):
        module = importlib.import_module(f"contracts.{module_info.name}")
        for name, typ in getattr(module, "EXPORTS", {}).items():
            if name in found and found[name] is not typ:
                raise ValueError(f"two contracts export the schema name {name!r}")
            found[name] = typ
    return found


def render(name: str, typ: type) -> str:
    schema = msgspec.json.schema(typ)
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://twin-core.dev/contracts/{SLOT_CONTRACT_VERSION}/{name}.json",
        "x-slot-contract-version": SLOT_CONTRACT_VERSION,
        **schema,
    }
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def rendered() -> dict[str, str]:
    return {f"{name}.json": render(name, typ) for name, typ in sorted(all_contracts().items())}


def export(directory: Path = SCHEMA_DIR) -> list[str]:
    """Write every schema; remove files of contracts that no longer exist. Returns the names."""
    directory.mkdir(parents=True, exist_ok=True)
    files = rendered()
    for stale in set(p.name for p in directory.glob("*.json")) - set(files):
        (directory / stale).unlink()
    for filename, text in files.items():
        path = directory / filename
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
    return sorted(files)


if __name__ == "__main__":
    print("\n".join(export()))
