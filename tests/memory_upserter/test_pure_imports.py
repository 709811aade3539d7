"""The pure modules of memory-upserter load no driver: importing them (in a fresh interpreter)
pulls neither asyncpg, redis nor litestar. The offline judge (``extract/``) is pure as a whole."""

from __future__ import annotations

import json
import subprocess
import sys

PURE_PACKAGES = ["extract"]  # every module under them, whatever is added later
PURE = [
    "commit.fact_writes",
    "commit.judge",
    "commit.known",
    "commit.names",
    "commit.plan",
    "commit.read",
    "commit.response",
    "commit.session",
    "commit.todos",
    "commit.todo_rows",
    "commit.turn",
    "forget.check",
    "forget.receipt",
    "forget.types",
    "person.chunking",
]
DRIVERS = ("asyncpg", "redis", "litestar")


def test_the_pure_modules_import_no_driver() -> None:
    script = (
        "import importlib, json, pkgutil, sys\n"
        "root = 'services.memory_upserter.'\n"
        f"for name in {PURE!r}:\n"
        "    importlib.import_module(root + name)\n"
        f"for package in {PURE_PACKAGES!r}:\n"
        "    path = importlib.import_module(root + package).__path__\n"
        "    for info in pkgutil.walk_packages(path, root + package + '.'):\n"
        "        importlib.import_module(info.name)\n"
        f"print(json.dumps(sorted(m for m in {DRIVERS!r} if m in sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert json.loads(out.stdout) == []


def test_the_check_sees_a_driver_when_one_is_imported() -> None:
    """The probe itself works: a module that does import asyncpg is caught."""
    script = "import sys, services.memory_upserter.commit.write; print('asyncpg' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "True"
