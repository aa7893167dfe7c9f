"""`make run` serves first (issue 28, "Set-up and access"): the compiled engine's build
(minutes of mypyc on a small machine) no longer holds the site back. The Makefile starts it
with bin/engine-in-background, which returns at once, before migrating and serving; `run`
does not depend on the `engine` target. Measured in the issue note: the time from `make run`
to the first 200 on a fresh clone."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bin" / "engine-in-background"


@pytest.mark.skipif(not Path("/usr/bin/make").exists(), reason="no make")
def test_make_run_starts_the_engine_build_in_the_background_before_serving():
    venv = Path(sys.executable).parent.parent  # its stamps exist: no install in the dry run
    out = subprocess.run(["make", "-n", "run", f"VENV={venv}"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.splitlines()
    background = next(i for i, line in enumerate(out) if "bin/engine-in-background" in line)
    migrate = next(i for i, line in enumerate(out) if "manage.py migrate" in line)
    serve = next(i for i, line in enumerate(out) if "manage.py serve" in line)
    assert background < migrate < serve
    # the build itself is not a step `make run` waits for
    assert not any("battles.engine.build" in line for line in out)


def test_the_background_build_returns_at_once_and_logs(tmp_path):
    env = {**os.environ, "ENGINE_BUILD_COMMAND": "sleep 2; echo built"}
    started = time.monotonic()
    done = subprocess.run([str(SCRIPT)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=10)
    assert done.returncode == 0 and time.monotonic() - started < 1.5
    assert "background" in done.stdout
    log = tmp_path / "var" / "engine-build.log"
    deadline = time.monotonic() + 10
    while "built" not in (log.read_text() if log.exists() else "") and \
            time.monotonic() < deadline:
        time.sleep(0.2)
    assert log.read_text().strip() == "built"


def test_the_battles_page_says_which_engine_the_computer_uses(client, db, settings):
    from battles.engine import BUILD

    page = client.get("/").content.decode()
    assert 'data-testid="computer-engine"' in page
    assert ("compiled engine" if BUILD == "compiled" else "pure Python engine") in page
