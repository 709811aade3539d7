"""The pure modules of memory-upserter load no driver: importing them (in a fresh interpreter)
pulls neither asyncpg, redis nor litestar."""

from __future__ import annotations

import json
import subprocess
import sys

PURE = [
    "assertion",
    "chunking",
    "due",
    "emitter",
    "extractor",
    "forget_check",
    "forget_types",
    "forget_receipt",
    "judge",
    "people",
    "plan_logic",
    "rules",
    "rules_life",
    "rules_profile",
    "rules_self",
    "rules_todos",
    "temporal",
    "turn",
    "turn_plan",
    "turn_response",
    "turn_session",
    "vocabulary",
]
DRIVERS = ("asyncpg", "redis", "litestar")


def test_the_pure_modules_import_no_driver() -> None:
    script = (
        "import importlib, json, sys\n"
        f"for name in {PURE!r}:\n"
        "    importlib.import_module('services.memory_upserter.' + name)\n"
        f"print(json.dumps(sorted(m for m in {DRIVERS!r} if m in sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(out.stdout) == []


def test_the_check_sees_a_driver_when_one_is_imported() -> None:
    """The probe itself works: a module that does import asyncpg is caught."""
    script = "import sys, services.memory_upserter.commit; print('asyncpg' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "True"
