"""Functions read as named steps (issue 26): at most :data:`MAX_LONG` functions in ``services/``
run over :data:`LIMIT` lines (from ``def`` to the last line, docstring included).

``uv run pytest -q -s -p no:cacheprovider tests/core/test_function_length.py`` prints them,
longest first.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 60
MAX_LONG = 3  # issue 26's bar; on main before its steps: 21


def long_functions(root: Path = ROOT / "services", limit: int = LIMIT) -> list[tuple[int, str]]:
    """``(lines, "path:line name")`` of every function over ``limit`` lines, longest first."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > limit:
                    where = f"{path.relative_to(root.parent)}:{node.lineno} {node.name}"
                    found.append((lines, where))
    return sorted(found, reverse=True)


def test_few_functions_in_services_run_over_sixty_lines() -> None:
    found = long_functions()
    print("\n" + "\n".join(f"{n:4} {where}" for n, where in found))
    assert len(found) <= MAX_LONG, found


def test_the_measure_counts_a_function_from_def_to_its_last_line(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))  # with the def: LIMIT + 1 lines
    short = "\n".join(f"    y{i} = {i}" for i in range(LIMIT - 1))  # LIMIT lines
    (tmp_path / "m.py").write_text(f"def long():\n{body}\n\n\ndef short():\n{short}\n")
    assert long_functions(tmp_path) == [(LIMIT + 1, f"{tmp_path.name}/m.py:1 long")]
