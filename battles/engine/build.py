"""Compile the engine with mypyc into ``native.builds_dir()/<stamp>`` (see native.py).

    EAGLES_ENGINE=pure python -m battles.engine.build [--python PY] [--optional]

(``pure``: running this imports the package first, and ``compiled`` would fail there after
an edit, the build being stale.)

``PY``: a Python of the same version that can import mypy (default this one, or
``$EAGLES_MYPYC_PYTHON``). Nothing is done when the build of the current sources exists.
``--optional`` (``make test``): a failed build (no mypy, no C compiler) is reported and
exits 0, the pure engine being used without it. Not imported by the package.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from .native import (
    BOT_MODULES,
    BOT_SOURCES,
    BOTS,
    HERE,
    MODULES,
    ROOT,
    builds_dir,
    ext_suffix,
    is_complete,
    source_stamp,
)


def build(python: str = sys.executable, quiet: bool = False) -> Path:
    """Compile the current sources into ``builds_dir()/<stamp>`` unless already there."""
    stamp = source_stamp()
    target = builds_dir() / stamp
    if is_complete(target):
        if not quiet:
            print(f"engine build {stamp}: up to date ({target})")
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="build-", dir=target.parent) as tmp:
        work = Path(tmp) / "src"
        # The sources and what mypy must read to type them (game is read, not checked).
        shutil.copytree(HERE, work / "battles" / "engine",
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "README.md"))
        shutil.copytree(ROOT / "game", work / "game", ignore=shutil.ignore_patterns(
            "__pycache__"))
        (work / "battles" / "bots").mkdir()
        for name in BOT_SOURCES:  # the bots compiled with the engine, and what they import
            shutil.copy2(BOTS / name, work / "battles" / "bots" / name)
        # mypyc names modules by their package (the real bots/__init__ imports every bot)
        (work / "battles" / "__init__.py").touch()
        (work / "battles" / "bots" / "__init__.py").touch()
        (work / "mypy.ini").write_text("[mypy]\n[mypy-game.*]\nignore_errors = True\n")
        run = subprocess.run([python, "-m", "mypyc", "--config-file", "mypy.ini",
                              *(f"battles/engine/{m}.py" for m in MODULES),
                              *(f"battles/bots/{m}.py" for m in BOT_MODULES)],
                             cwd=work, capture_output=True, text=True)
        if run.returncode:
            raise RuntimeError(f"mypyc failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
        out = Path(tmp) / "out"
        (out / "battles" / "engine").mkdir(parents=True)
        (out / "battles" / "bots").mkdir()
        for so in work.glob(f"*{ext_suffix()}"):  # mypyc's shared library
            shutil.copy2(so, out / so.name)
        for m in MODULES:
            so = work / "battles" / "engine" / f"{m}{ext_suffix()}"
            shutil.copy2(so, out / "battles" / "engine" / so.name)
        for m in BOT_MODULES:
            so = work / "battles" / "bots" / f"{m}{ext_suffix()}"
            shutil.copy2(so, out / "battles" / "bots" / so.name)
        # Only the extensions are kept: the pure modules come from the sources.
        (out / "STAMP").write_text(stamp + "\n")
        if source_stamp() != stamp:
            raise RuntimeError("the engine sources changed during the build; run it again")
        try:
            out.rename(target)
        except OSError:  # another build finished first
            if not is_complete(target):
                raise
    for old in target.parent.iterdir():  # builds of other sources are stale for good
        if old != target and (old / "STAMP").is_file():
            shutil.rmtree(old, ignore_errors=True)
    if not quiet:
        print(f"engine build {stamp}: compiled {len(MODULES)} modules into {target}")
    return target


def main(argv: list[str]) -> int:
    python = os.environ.get("EAGLES_MYPYC_PYTHON") or sys.executable
    if "--python" in argv:
        python = argv[argv.index("--python") + 1]
    try:
        build(python)
    except (RuntimeError, OSError) as e:
        print(f"engine build failed, the pure engine will be used: {e}", file=sys.stderr)
        return 0 if "--optional" in argv else 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
