"""No file-level import cycle in production code, and no private name taken from another module.

Read from the sources (``ast``), never imported, so an import inside a function or a method
counts like one at the top of the file: a lazy import is exactly what holds a cycle open
unseen. Production code is every ``.py`` of the project's packages (the top-level directories
with an ``__init__.py``, and ``manage.py``), less ``tests/``, ``bench/``, ``docs/``,
``migrations/`` and ``.venv``.

The file graph
--------------
- Every ``import`` and ``from ... import`` statement counts, at any depth, except in the body
  of an ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``) block, which never runs (its
  ``else`` does run, and counts). Relative imports are resolved against the file's package.
- ``import a.b.c`` and ``from a.b.c import x`` give an edge to ``a/b/c.py`` (or
  ``a/b/c/__init__.py``); ``from a.b import c`` gives an edge to ``a/b/c.py`` when ``c`` is a
  submodule, else to ``a/b/__init__.py``.
- The parent packages that Python initialises on the way (``a/__init__.py`` and
  ``a/b/__init__.py`` for ``import a.b.c``) are not edges: with them every submodule of a
  package whose ``__init__`` imports a submodule would sit in a cycle with it, a loop that
  Python resolves by design (the package is initialised first, whatever imports it).
- Re-exports, from outside the package: a ``from a.b import f`` where ``a/b/__init__.py``
  only re-exports ``f`` (``from .impl import f`` or ``from a.b.impl import f``) gives an
  edge to ``a/b/impl.py``, not to the ``__init__``, so that the facade and the defining
  module are the same dependency (the parents being left out, ``from a.b.impl import f``
  would not see the ``__init__``'s other imports either). One level: a name the ``__init__``
  defines itself, or takes with ``import *``, stays an edge to the ``__init__``.
- Re-exports, from inside the package: a submodule of ``a.b`` that imports a name from
  ``a.b`` (its own package's ``__init__``) keeps the edge to the ``__init__``, unresolved.
  Python initialises ``a/b/__init__.py`` before any of its submodules, so when that
  ``__init__`` imports the submodule back, the submodule runs against a half-made package
  and finds the name or not depending on the ``__init__``'s order: a cycle, and reported.
  A submodule imports from the module that defines the name.
- Not seen: ``importlib.import_module``, Celery's ``send_task`` by name, and Django's
  dotted strings (settings, ``include("x.urls")``): those are the decoupling, by design.

The cycles are the strongly connected components of that graph (Tarjan's algorithm,
iterative) of more than one file (a file importing itself gets itself back: not an edge).

Private names
-------------
``from a.b import _x`` where ``a.b`` is a production module other than the importer fails,
wherever the two files are (same package or not): a module's ``_name`` is its own, and a
name another module needs is public, in the module that owns it (or moved to a module both
use). Dunder names (``__version__``) are not private. ``import a._b`` of a private *module*
from within its own package is allowed (``_b`` is private to the package, not to a file);
from outside that package it fails like a private name.

``KNOWN`` (cycles) and ``KNOWN_PRIVATE``: exceptions allowed by exact file set (none today);
anything else fails, and a listed entry that is gone fails too, so that the lists only
shrink.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP_DIRS = {"tests", "bench", "docs", "migrations", "__pycache__", "node_modules"}

# Being removed by the play/ service rewrite (the battle and campaign service layer: services
# enqueue tasks, tasks call services, held open by imports inside functions). Each entry is
# the exact set of files of one strongly connected component: when the rewrite breaks a cycle
# the test names the entry to delete, or the smaller set to put in its place. Never add one.
# Cycles and private imports allowed by exact file set: none (the play/ service removed the
# battle and campaign services' own). A new entry needs a reason here.
KNOWN: set[frozenset[str]] = set()
KNOWN_PRIVATE: set[tuple[str, str, str]] = set()


@dataclass(frozen=True)
class Imported:
    """One import statement's target: ``module`` (absolute) and, for ``from module import
    names``, the names (``None`` for ``import module``) and what they are bound to (``as``)."""

    module: str
    names: tuple[str, ...] | None = None
    bound: tuple[str, ...] | None = None


def production_files(root: Path = ROOT) -> dict[str, Path]:
    """Dotted module name -> file, for every production ``.py``."""
    files: dict[str, Path] = {}
    tops = [p for p in sorted(root.iterdir())
            if p.is_dir() and p.name not in SKIP_DIRS and not p.name.startswith(".")
            and (p / "__init__.py").exists()]
    paths = sorted(root.glob("*.py"))
    for top in tops:
        for path in sorted(top.rglob("*.py")):
            parts = path.relative_to(root).parts
            if any(part in SKIP_DIRS or part.startswith(".") for part in parts[:-1]):
                continue
            paths.append(path)
    for path in paths:
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        files[".".join(parts)] = path
    return files


def _is_type_checking(test: ast.expr) -> bool:
    return ((isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
            or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"))


# The fields holding statements (an import is a statement: expressions are not searched).
BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _import_nodes(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, at any depth (functions, methods, classes, ``try``, ``with``,
    ``match``...), but for an ``if TYPE_CHECKING:`` body."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
            continue
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        for field in BLOCKS:
            stack.extend(getattr(node, field, ()))


@cache
def _tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _imported(module: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[Imported]:
    """``node``'s targets, relative imports resolved against ``module``'s package."""
    if isinstance(node, ast.Import):
        return [Imported(a.name) for a in node.names]
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    if node.level:
        base = package[:len(package) - (node.level - 1)]
        target = ".".join([*base, *([node.module] if node.module else [])])
    else:
        target = node.module or ""
    return [Imported(target, tuple(a.name for a in node.names),
                     tuple(a.asname or a.name for a in node.names))]


@cache
def imports(module: str, path: Path) -> tuple[Imported, ...]:
    """The targets of every import statement of ``module`` (at ``path``), at any depth."""
    return tuple(imp for node in _import_nodes(_tree(path))
                 for imp in _imported(module, path, node))


def _reexports(module: str, path: Path) -> dict[str, str]:
    """Bound name -> defining module, for the names a package ``__init__`` takes at its top
    level with ``from x import name [as bound]`` (one level; ``import *`` is not followed)."""
    out: dict[str, str] = {}
    for node in _tree(path).body:
        if isinstance(node, ast.ImportFrom):
            for imp in _imported(module, path, node):
                for name, bound in zip(imp.names or (), imp.bound or (), strict=True):
                    if name != "*":
                        out[bound] = imp.module
    # a name the __init__ assigns or defines itself (after the import) stays its own
    for node in _tree(path).body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.pop(node.name, None)
        elif isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        for t in targets:
            if isinstance(t, ast.Name):
                out.pop(t.id, None)
    return out


def _in_package(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def graph(files: dict[str, Path] | None = None) -> dict[str, set[str]]:
    """Module -> the production modules it imports (see the module's docstring)."""
    files = production_files() if files is None else files
    reexports = {m: _reexports(m, p) for m, p in files.items() if p.name == "__init__.py"}
    edges: dict[str, set[str]] = {m: set() for m in files}
    for module, path in files.items():
        for imp in imports(module, path):
            targets: list[str] = []
            if imp.names is None:
                targets.append(imp.module)
            else:
                for name in imp.names:
                    sub = f"{imp.module}.{name}"
                    if sub in files:
                        targets.append(sub)
                    elif (imp.module in reexports and name in reexports[imp.module]
                          and not _in_package(module, imp.module)
                          and reexports[imp.module][name] in files):
                        targets.append(reexports[imp.module][name])
                    else:
                        targets.append(imp.module)
            # (a module importing itself gets itself back, half-made or not: no cycle)
            edges[module].update(t for t in targets if t in files and t != module)
    return edges


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iterative (no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
    return components


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The components of more than one module, sorted."""
    return sorted(c for c in strongly_connected(edges) if len(c) > 1)


def _file(files: dict[str, Path], module: str, root: Path = ROOT) -> str:
    return files[module].relative_to(root).as_posix()


def _shortest_loop(edges: dict[str, set[str]], component: list[str]) -> list[str]:
    """One shortest loop through the component's first module (for the failure message)."""
    inside = set(component)
    start = component[0]
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        nxt = []
        for node in frontier:
            for child in sorted(edges[node] & inside):
                if child == start:
                    loop = [node]
                    while loop[-1] != start:
                        loop.append(previous[loop[-1]])
                    return [*reversed(loop), start]
                if child not in previous:
                    previous[child] = node
                    nxt.append(child)
        frontier = nxt
    return [start]


def file_cycles() -> tuple[dict[str, Path], dict[str, set[str]], list[list[str]]]:
    files = production_files()
    edges = graph(files)
    return files, edges, cycles(edges)


def private_imports(root: Path = ROOT) -> set[tuple[str, str, str]]:
    """(importing file, module imported from, private name) across production modules."""
    files = production_files(root)
    found = set()
    for module, path in files.items():
        here = _file(files, module, root)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for imp in imports(module, path):
            if imp.names is None:  # import a._b: a private module, from outside its package
                parts = imp.module.split(".")
                for i, part in enumerate(parts):
                    owner = ".".join(parts[:i])
                    if (part.startswith("_") and not part.startswith("__") and owner
                            and imp.module in files and not _in_package(package, owner)):
                        found.add((here, imp.module, part))
                continue
            if imp.module not in files or imp.module == module:
                continue
            for name in imp.names:
                private = name.startswith("_") and not (name.startswith("__")
                                                         and name.endswith("__"))
                if private and f"{imp.module}.{name}" in files:  # from a import _b: a module
                    private = not _in_package(package, imp.module)
                if private:
                    found.add((here, imp.module, name))
    return found


# -- the tests ------------------------------------------------------------------------------


def test_the_graph_sees_imports_inside_functions_and_skips_type_checking(tmp_path):
    for name, text in {
        "p/__init__.py": "from .a import f\nfrom .c import thing as h\nVERSION = 1\n",
        "p/a.py": "def f():\n    from p import b\n    return b\n",
        "p/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.c import C\n"
                  "def g():\n    from .a import f\n    return f\n",
        "p/c.py": "import p.b\n",
        "q/__init__.py": "",
        "q/d.py": "from p import f\n",
        "q/e.py": "from p import a\n",
        "q/f.py": "from p import h, VERSION\n",
        "p/sub/__init__.py": "from .x import y\n",
        "p/sub/x.py": "from p.sub import y\ny = 1\n",
        "tests/__init__.py": "",
        "tests/t.py": "import q.d\n",
        "p/migrations/__init__.py": "",
        "p/migrations/m.py": "import q.e\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    files = production_files(tmp_path)
    assert set(files) == {"p", "p.a", "p.b", "p.c", "q", "q.d", "q.e", "q.f", "p.sub",
                          "p.sub.x"}
    edges = graph(files)
    assert edges["p.a"] == {"p.b"}  # inside a function, a submodule
    assert edges["p.b"] == {"p.a"}  # inside a function; TYPE_CHECKING not counted
    assert edges["p.c"] == {"p.b"}
    assert edges["q.d"] == {"p.a"}  # a re-export, from outside the package, resolved
    assert edges["q.e"] == {"p.a"}
    assert edges["q.f"] == {"p.c", "p"}  # `as` followed; a name of the __init__'s own
    assert edges["p.sub.x"] == {"p.sub"}  # its own package's __init__: kept
    assert cycles(edges) == [["p.a", "p.b"], ["p.sub", "p.sub.x"]]


def test_private_names_are_found_across_modules(tmp_path):
    for name, text in {
        "p/__init__.py": "from ._impl import run\n",
        "p/_impl.py": "def run():\n    from .a import _helper, public\n    return public\n",
        "p/a.py": "_helper = public = __version__ = 1\n",
        "p/b.py": "from p.a import __version__\nimport p._impl\n",
        "q/__init__.py": "",
        "q/c.py": "def f():\n    from p import _impl\n    import p._impl\n"
                  "    from os import _exit\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert private_imports(tmp_path) == {
        ("p/_impl.py", "p.a", "_helper"),  # in a function, and in the same package
        ("q/c.py", "p", "_impl"),  # a private module, from outside its package
        ("q/c.py", "p._impl", "_impl"),
    }


def test_the_production_files_are_found():
    files = production_files()
    assert {"battles.engine.combat", "game.chart", "tournaments.services", "manage"} <= set(files)
    assert not any(m.startswith(("tests", "bench")) or ".migrations." in m for m in files)


def test_no_file_level_import_cycle():
    files, edges, found = file_cycles()
    as_files = {frozenset(_file(files, m) for m in c): c for c in found}
    new = [c for key, c in as_files.items() if key not in KNOWN]
    gone = [sorted(key) for key in KNOWN if key not in as_files]
    message = []
    for component in new:
        loop = _shortest_loop(edges, component)
        names = {_file(files, m) for m in component}
        within = [sorted(k) for k in KNOWN if names < k]
        message.append(f"import cycle of {len(component)} files: " + ", ".join(sorted(names))
                       + "\n    e.g. " + " -> ".join(loop)
                       + (f"\n    (what is left of the KNOWN entry {within[0]}: put this set"
                          " in its place)" if within else ""))
    for key in gone:
        message.append(f"KNOWN lists a cycle that is gone (delete it, or shrink it as said "
                       f"above): {key}")
    assert not message, "\n".join(message)


def test_no_private_name_imported_from_another_module():
    found = private_imports()
    new = sorted(found - KNOWN_PRIVATE)
    gone = sorted(KNOWN_PRIVATE - found)
    message = [f"{here}: from {module} import {name}" for here, module, name in new]
    message += [f"KNOWN_PRIVATE lists an import that is gone (delete it): {g}" for g in gone]
    assert not message, "\n".join(message)
