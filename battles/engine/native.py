"""The engine compiled by mypyc, built out of the source tree and chosen explicitly.

    python -m battles.engine.build [--python PY] [--optional]  # compile (build.py)
    EAGLES_ENGINE=compiled|auto|pure          # read once, when battles.engine is imported

A build lives in ``var/engine-mypyc/<stamp>/`` (``EAGLES_ENGINE_BUILD`` overrides the
``var/engine-mypyc`` part), never next to the sources: a ``legal.*.so`` beside ``legal.py``
would be imported instead of it and silently ignore every later edit. ``<stamp>`` is a hash
of every ``.py`` of this package and of the interpreter's extension suffix, so a build is
used only for the exact sources (and Python) it was compiled from; after any edit it is
stale and ``auto`` falls back to the pure engine until the next build.

- ``pure`` (the default): the Python sources.
- ``auto``: the build of the current sources when there is one, else the pure engine.
- ``compiled``: that build, or ImportError (a benchmark must not time the pure engine by
  mistake).

Choosing the build puts its ``battles/engine`` directory first on this package's
``__path__`` (the compiled modules are found there, the rest, e.g. ``dice``, in the
sources) and its root on ``sys.path`` (mypyc's shared library is a top-level module).
This module is plain Python and is never compiled itself.
"""

from __future__ import annotations

import hashlib
import os
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# What mypyc compiles: the hot path. Left out: dice (mypyc's C for SeededDice.__next__ does
# not compile), position and replay_file (not on the hot path), this module, __init__.
MODULES = ("board", "cards", "combat", "effects", "engine", "legal", "morale", "moves",
           "phases", "queries", "rolls", "specials", "state", "random_play", "view")
# Compiled with the engine (one mypyc group): the rollout policy of the search bot. Its
# sources are part of the stamp; the build's battles/bots directory goes first on that
# package's __path__ (battles/bots/__init__.py reads ACTIVE).
BOT_MODULES = ("greedy",)
BOT_SOURCES = ("base.py", "greedy.py")
BOTS = ROOT / "battles" / "bots"
MODES = ("pure", "auto", "compiled")
ACTIVE: Path | None = None  # the build imported (activate), None for the pure engine


def ext_suffix() -> str:
    return str(sysconfig.get_config_var("EXT_SUFFIX") or ".so")


def source_stamp(package: Path = HERE) -> str:
    """Hash of the package's sources (names and bytes), of the compiled bots' and of the
    extension suffix."""
    h = hashlib.sha256(ext_suffix().encode())
    for path in [*sorted(package.glob("*.py")), *(BOTS / name for name in BOT_SOURCES)]:
        h.update(b"\0" + path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()[:20]


def builds_dir() -> Path:
    return Path(os.environ.get("EAGLES_ENGINE_BUILD") or ROOT / "var" / "engine-mypyc")


def is_complete(build: Path) -> bool:
    """Every compiled module is there (a build is written to a scratch directory and renamed
    into place when finished, so a half-built one is never seen under its stamp)."""
    engine, bots = build / "battles" / "engine", build / "battles" / "bots"
    return all((engine / f"{m}{ext_suffix()}").is_file() for m in MODULES) and \
        all((bots / f"{m}{ext_suffix()}").is_file() for m in BOT_MODULES)


def choose(mode: str, builds: Path, stamp: str) -> Path | None:
    """The build to import (None: the pure engine) for ``mode`` and the current ``stamp``."""
    if mode not in MODES:
        raise ImportError(f"EAGLES_ENGINE={mode!r}: one of {', '.join(MODES)}")
    if mode == "pure":
        return None
    build = builds / stamp
    if is_complete(build):
        return build
    if mode == "compiled":
        raise ImportError(f"EAGLES_ENGINE=compiled but no build of the current engine sources "
                          f"in {build} (run: python -m battles.engine.build)")
    return None


def activate(package_path: list[str]) -> str:
    """Called by the package's __init__ before it imports any module: 'compiled' or 'pure'."""
    mode = os.environ.get("EAGLES_ENGINE", "pure").strip() or "pure"
    if mode == "pure":  # the default costs no hashing
        return "pure"
    build = choose(mode, builds_dir(), source_stamp())
    if build is None:
        return "pure"
    global ACTIVE
    ACTIVE = build
    package_path.insert(0, str(build / "battles" / "engine"))
    if str(build) not in sys.path:
        sys.path.append(str(build))
    return "compiled"
