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


@pytest.mark.skipif(not Path("/usr/bin/make").exists(), reason="no make")
def test_make_run_waits_only_for_migrate_then_serve_prepares_the_demo():
    """Two Django start-ups fewer before the first page: the catalogue and the demo account
    are `serve --demo`'s (in-process, while the web server starts); migrate skips the system
    checks that serve runs anyway."""
    venv = Path(sys.executable).parent.parent
    out = subprocess.run(["make", "-n", "run", f"VENV={venv}"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    assert "load_catalogue" not in out and "create_demo_user" not in out
    assert "manage.py migrate --noinput --skip-checks" in out
    assert "manage.py serve --port 8000 --demo" in out


@pytest.mark.parametrize("debug", [True, False])
def test_serve_demo_loads_the_catalogue_and_the_demo_account_after_starting_the_children(
        db, settings, monkeypatch, debug):
    from io import StringIO

    from django.contrib.auth.models import User
    from django.core.management import call_command

    from cards.models import Card
    from frontend.management.commands import serve

    settings.DEBUG = debug
    events: list[str] = []
    # no process started: the children only say when they would have been
    def start(self, env, out):
        events.append(self.name)
        self.proc = object()  # "running" for the loop; reap, stop and finish do nothing

    monkeypatch.setattr(serve.Child, "start", start)
    for name in ("reap", "stop", "finish"):
        monkeypatch.setattr(serve.Child, name, lambda self, *args: None)
    monkeypatch.setattr(serve.subprocess, "run",
                        lambda argv, **kw: events.append(" ".join(argv[2:4])))

    def stop(seconds):  # the supervising loop's first nap: Ctrl-C
        events.append(f"cards {Card.objects.count()}")
        raise KeyboardInterrupt

    monkeypatch.setattr(serve.time, "sleep", stop)
    monkeypatch.setattr(serve.signal, "signal", lambda *args: None)
    output = StringIO()
    call_command("serve", "--port", "8123", "--demo", stdout=output)
    user = User.objects.get(username="demo")
    assert not user.is_staff and user.has_usable_password()
    # collectstatic only without DEBUG (with it, WhiteNoise serves the apps' static files)
    collect = ["collectstatic --noinput"] if not debug else []
    assert events == [*collect, "web server", "worker", "cards 300"]
    text = output.getvalue()
    assert "demo account: username 'demo'" in text
    assert text.index("Catalogue") < text.index("running at http://127.0.0.1:8123/")


@pytest.mark.skipif(not Path("/usr/bin/make").exists(), reason="no make")
def test_make_run_on_a_fresh_machine_installs_the_runtime_dependencies_only(tmp_path):
    """Without a venv: create it, install pyproject's dependencies (no wheel of the project,
    which has no packages; no bytecode compiled ahead; no pip upgrade), then the background
    build, migrate and serve. `make test` still installs the project with its test extra."""
    venv = tmp_path / "venv"  # does not exist: every install step is in the dry run
    out = subprocess.run(["make", "-n", "run", f"VENV={venv}"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.splitlines()
    create = next(i for i, line in enumerate(out) if "-m venv" in line)
    listed = out.index(f"bin/runtime-requirements {venv}/bin/python > {venv}/requirements.txt")
    install = out.index(f"{venv}/bin/python -m pip install -q --no-compile "
                        f"-r {venv}/requirements.txt")
    background = next(i for i, line in enumerate(out) if "bin/engine-in-background" in line)
    migrate = next(i for i, line in enumerate(out) if "manage.py migrate" in line)
    assert create < listed < install < background < migrate
    assert not any("--upgrade pip" in line or line.endswith("pip install -q .") for line in out)
    test = subprocess.run(["make", "-n", "test", f"VENV={venv}"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    assert f"{venv}/bin/python -m pip install -q '.[test]'" in test
    # the bytecode the install skipped: compiled before the tests, and in `make run`'s
    # background job (before the engine's build), never in the site's way
    assert test.index(f"{venv}/bin/python -m compileall") < test.index("-m pytest")
    assert not any("compileall" in line for line in out)
    assert "make -s bytecode engine" in SCRIPT.read_text()


def test_the_runtime_requirements_are_pyprojects_dependencies_and_the_project_has_no_package():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = subprocess.run([str(ROOT / "bin" / "runtime-requirements"), sys.executable],
                            cwd=ROOT, check=True, capture_output=True, text=True).stdout
    assert listed.splitlines() == project["project"]["dependencies"]
    assert "django>=6.0,<7" in listed.splitlines()
    # installing the project itself would add nothing importable: skipping its wheel is free
    assert project["tool"]["setuptools"]["packages"] == []
