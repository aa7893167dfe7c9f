"""The engine compiled by mypyc (``bench/engine.py --mypyc``) plays exactly as the pure one:
the same actions and events, byte for byte, over 20 random battles of each battle.

Opt-in: compiling needs a Python of the same version with ``mypy`` installed and a minute
or two, so it runs only when ``EAGLES_MYPYC_PYTHON`` names one (the build is kept in
var/engine-mypyc and reused; ``test_native.py`` replays the golden digests with it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MYPYC_PYTHON = os.environ.get("EAGLES_MYPYC_PYTHON")


@pytest.mark.skipif(not MYPYC_PYTHON, reason="EAGLES_MYPYC_PYTHON: a Python with mypy")
def test_compiled_engine_plays_the_same_actions_and_events():
    run = subprocess.run([sys.executable, "bench/engine.py", "--mypyc", "--mypyc-python",
                          str(MYPYC_PYTHON), "--seconds", "0"],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "mypyc: 14 modules compiled" in run.stdout
    assert "compiled and pure engines: the same actions and events" in run.stdout
    assert " NO " not in run.stdout  # every timed chunk played the same games too
