"""The engine compiled by mypyc (``bench/engine.py --mypyc``) plays exactly as the pure one:
the same actions and events, byte for byte, over 20 random battles of each battle.

It runs with this Python when ``mypy`` is installed (the test extras have it; ``make test``
builds the engine first, and the build in var/engine-mypyc is reused while the sources are
unchanged), or with the Python ``EAGLES_MYPYC_PYTHON`` names; ``test_native.py`` replays
the golden digests with the build."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MYPYC_PYTHON = os.environ.get("EAGLES_MYPYC_PYTHON") or (
    sys.executable if importlib.util.find_spec("mypy") else None)


@pytest.mark.skipif(not MYPYC_PYTHON,
                    reason="no Python with mypy (the test extras, or EAGLES_MYPYC_PYTHON)")
def test_compiled_engine_plays_the_same_actions_and_events():
    run = subprocess.run([sys.executable, "bench/engine.py", "--mypyc", "--mypyc-python",
                          str(MYPYC_PYTHON), "--seconds", "0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    from battles.engine.native import MODULES

    assert f"mypyc: {len(MODULES)} modules compiled" in run.stdout
    assert "compiled and pure engines: the same actions and events" in run.stdout
    assert " NO " not in run.stdout  # every timed chunk played the same games too
