"""The layers the architecture promises (docs/architecture.md): no node package imports another
node package; ``services/core`` imports none; ``contracts/`` imports nothing of the services.
Composition (the fast brain on rag-gate) happens at the entry point, ``services/nodes.py``.

Read from the source (every ``import`` and ``from … import``, at any depth, type-only ones too),
so a lazy import inside a function counts as much as one at the top.
"""

from __future__ import annotations

import ast
from pathlib import Path

from services.nodes import all_specs

ROOT = Path(__file__).resolve().parents[2]


def _node_packages() -> set[str]:
    """The packages the six nodes' own handlers live in (``services.rag_gate``, …)."""
    packages = set()
    for name, spec in all_specs().items():
        own = f"services.{name.replace('-', '_')}"
        modules = {handler.fn.__module__ for handler in spec.route_handlers}
        assert any(m.startswith(own + ".") for m in modules), (name, modules)
        packages.add(own)
    return packages


def _imports(package: str, root: Path = ROOT) -> dict[str, set[str]]:
    """Module path → every module it imports. A package's ``__main__.py`` is left out: it is
    the entry point's shim (``python -m services.rag_gate`` runs ``twin serve rag-gate``)."""
    found: dict[str, set[str]] = {}
    for path in sorted((root / package.replace(".", "/")).rglob("*.py")):
        if path.name == "__main__.py":
            continue
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
                names |= {f"{node.module}.{alias.name}" for alias in node.names}
        found[str(path.relative_to(root))] = names
    return found


def _inside(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def test_there_are_six_node_packages() -> None:
    assert len(_node_packages()) == 6


def test_no_node_package_imports_another_node_package() -> None:
    nodes = _node_packages()
    crossings = [
        f"{module} imports {name}"
        for package in sorted(nodes)
        for module, names in _imports(package).items()
        for name in sorted(names)
        for other in nodes - {package}
        if _inside(name, other)
    ]
    assert crossings == []


def test_no_node_imports_the_composition_above_it() -> None:
    above = ("services.fast_brain", "services.playground", "services.nodes", "services.cli")
    crossings = [
        f"{module} imports {name}"
        for package in sorted(_node_packages())
        for module, names in _imports(package).items()
        for name in sorted(names)
        if any(_inside(name, top) for top in above)
    ]
    assert crossings == []


def test_core_imports_no_node_and_contracts_import_no_service() -> None:
    core = [
        f"{module} imports {name}"
        for module, names in _imports("services.core").items()
        for name in sorted(names)
        if _inside(name, "services") and not _inside(name, "services.core")
    ]
    contracts = [
        f"{module} imports {name}"
        for module, names in _imports("contracts").items()
        for name in sorted(names)
        if _inside(name, "services")
    ]
    assert core == [] and contracts == []


def test_the_walk_sees_a_crossing_at_any_depth(tmp_path: Path) -> None:
    package = tmp_path / "services" / "some_node"
    package.mkdir(parents=True)
    (package / "late.py").write_text(
        "import json\n\ndef late():\n    from services.rag_gate.pipeline import retrieve\n"
    )
    (package / "__main__.py").write_text("from services.cli import main\n")
    found = _imports("services.some_node", tmp_path)
    assert found == {"services/some_node/late.py": {"json", *_names("services.rag_gate")}}


def _names(package: str) -> set[str]:
    return {f"{package}.pipeline", f"{package}.pipeline.retrieve"}


def test_only_the_http_layer_imports_problems() -> None:
    """Steps raise domain errors (``services.core.errors``) and ask ``services.core.outage``
    which dependency failed; statuses are the HTTP layer's: a node's ``app.py`` and core's
    app factory, refusals, guard, exposure and drain import ``services.core.problems``, nothing
    else."""
    http = {
        "services/core/app.py",
        "services/core/drain.py",
        "services/core/exposure.py",
        "services/core/guard.py",
        "services/core/problems.py",
        "services/core/refusals.py",
    }
    importers = [
        module
        for module, names in _imports("services").items()
        if "services.core.problems" in names
        and module not in http
        and not module.endswith("/app.py")
    ]
    assert importers == []
