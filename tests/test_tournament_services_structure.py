"""The shape of ``tournaments/services/``: no module takes another's private names, and the
imports between the modules form no cycle (lifecycle at the centre, nothing below it imports
it back). Read from the source (AST), so a lazy import inside a function counts too."""

import ast
from pathlib import Path

SERVICES = Path(__file__).resolve().parent.parent / "tournaments" / "services"
MODULES = sorted(p.stem for p in SERVICES.glob("*.py") if p.stem != "__init__")


def _imports(name: str) -> list[tuple[str, list[str]]]:
    """(sibling module, names) for every ``from .x import ...`` in ``name``, at any depth."""
    tree = ast.parse((SERVICES / f"{name}.py").read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            found.append((node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.ImportFrom) and node.level == 1:  # from . import x
            found += [(a.name, []) for a in node.names if a.name in MODULES]
    return found


def test_the_modules_are_found():
    assert "lifecycle" in MODULES and "results" in MODULES and len(MODULES) >= 10


def test_no_module_imports_another_modules_private_names():
    private = [f"{name}: from .{module} import {n}" for name in MODULES
               for module, names in _imports(name) for n in names if n.startswith("_")]
    assert private == []


def test_the_imports_form_no_cycle():
    graph = {name: {m for m, _ in _imports(name) if m in MODULES} for name in MODULES}
    assert graph["lifecycle"], "lifecycle imports the shared modules"
    for other in ("registration", "results", "setup", "clock"):
        assert "lifecycle" in graph[other]
    done: set = set()

    def visit(name, path):
        assert name not in path, "import cycle: " + " -> ".join([*path, name])
        if name in done:
            return
        for dep in sorted(graph[name]):
            visit(dep, [*path, name])
        done.add(name)

    for name in MODULES:
        visit(name, [])

