"""Run the web server and a real Celery worker together, as a small supervisor.

Each child runs in its own process group, so stopping one stops everything it started (the
worker's embedded beat process too) and a Ctrl-C in the terminal reaches only ``serve``, which
then stops the children in order. A child that dies is reaped (its whole group killed) and
started again after a backoff that doubles from 1 s up to 30 s, and starts over once a child
has stayed up for a minute; the web server keeps serving while the worker restarts. Ctrl-C or
SIGTERM stops everything: SIGTERM to each group, SIGKILL to what is left after 10 s. On Linux
the children also get SIGTERM if ``serve`` itself dies (``PR_SET_PDEATHSIG``).

This is the one-machine layout of ``make run``; ``docs/deploy.md`` describes production.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from config.secret_key import require_secret_key

BACKOFF_FIRST = 1.0
BACKOFF_CAP = 30.0
STABLE_AFTER = 60.0  # seconds up after which a restart starts the backoff over
STOP_GRACE = 10.0


def _child_setup() -> None:  # pragma: no cover - runs in the child between fork and exec
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def _kill_group(pgid: int, sig: int) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class Child:
    """One supervised command: its process (None while waiting to restart) and backoff."""

    name: str
    argv: list[str]
    proc: subprocess.Popen | None = None
    started: float = 0.0
    backoff: float = BACKOFF_FIRST
    restart_at: float = 0.0
    restarts: int = field(default=0)

    def start(self, env: dict, out) -> None:
        self.proc = subprocess.Popen(self.argv, env=env, start_new_session=True,
                                     preexec_fn=_child_setup)
        self.started = time.monotonic()
        out(f"{self.name} started (pid {self.proc.pid})")

    def reap(self, out) -> None:
        """If the child died: kill what is left of its group and schedule a restart."""
        if self.proc is None or self.proc.poll() is None:
            return
        code, pgid = self.proc.returncode, self.proc.pid
        _kill_group(pgid, signal.SIGKILL)  # e.g. the worker's beat child, orphaned otherwise
        now = time.monotonic()
        if now - self.started >= STABLE_AFTER:
            self.backoff = BACKOFF_FIRST
        self.restart_at = now + self.backoff
        out(f"{self.name} (pid {pgid}) exited with {code}; restarting in {self.backoff:g} s")
        self.backoff = min(self.backoff * 2, BACKOFF_CAP)
        self.proc = None
        self.restarts += 1

    def stop(self) -> None:
        if self.proc is not None:
            _kill_group(self.proc.pid, signal.SIGTERM)

    def finish(self, deadline: float) -> None:
        """Wait for the group to end by ``deadline``, then SIGKILL what is left."""
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        pgid = self.proc.pid
        while _group_alive(pgid) and time.monotonic() < deadline:
            time.sleep(0.1)
        _kill_group(pgid, signal.SIGKILL)
        if self.proc.poll() is None:
            self.proc.wait(timeout=5)


def engine_build() -> str:
    """'compiled' or 'pure': the engine this process (and so the worker, started with the same
    environment and sources) plays on (EAGLES_ENGINE, battles/engine/native.py)."""
    from battles.engine import BUILD

    return BUILD


class Command(BaseCommand):
    help = ("Start the web server (daphne, ASGI) and a Celery worker (with beat); restart "
            "either if it dies; Ctrl-C stops both.")

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--demo", action="store_true",
                            help="the local demo (`make run`): load the catalogue and create the "
                            "demo account while the web server starts (in this process, "
                            "already set up: no Django start-up of their own)")

    def handle(self, *args, port: int, host: str, demo: bool = False, **options):
        # The web server would refuse to start (config/asgi.py) and be restarted forever:
        # refuse here, once, with its message.
        try:
            require_secret_key()
        except ImproperlyConfigured as exc:
            raise CommandError(str(exc)) from None
        # Ctrl-C (SIGINT) or SIGTERM stops the children, even when started from a script
        # that set SIGINT to be ignored.
        def stop(signum, frame):
            raise KeyboardInterrupt

        signal.signal(signal.SIGINT, stop)
        signal.signal(signal.SIGTERM, stop)
        python = sys.executable
        env = os.environ.copy()
        # With DEBUG on (the demo), WhiteNoise serves the static files from the apps' folders
        # (WHITENOISE_USE_FINDERS defaults to DEBUG): collecting them first is a Django
        # start-up and a copy of every file, seconds before the first page, for nothing.
        if not settings.DEBUG:
            subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                           check=True, env=env)

        def out(message: str) -> None:
            self.stdout.write(message)
            self.stdout.flush()

        # One worker with an embedded beat: the tournament clock's periodic tick runs too.
        schedule = settings.VAR_DIR / "celerybeat-schedule"
        children = [
            Child("web server", [python, "-m", "daphne", "-b", host, "-p", str(port),
                                 "config.asgi:application"]),
            Child("worker", [python, "-m", "celery", "-A", "config", "worker",
                             "--loglevel", "INFO", "--pool", "threads", "--concurrency", "2",
                             "--hostname", f"eagles@{host}", "--beat",
                             "--schedule", str(schedule)]),
        ]
        try:
            for child in children:
                child.start(env, out)
            if demo:
                # While daphne and the worker start up (seconds): the site answers meanwhile,
                # its catalogue pages fill in as soon as the load commits (one transaction).
                call_command("load_catalogue", stdout=self.stdout)
                call_command("create_demo_user", stdout=self.stdout)
            backend = "PostgreSQL" if settings.DATABASE_URL else "SQLite"
            broker = "Redis" if settings.REDIS_URL else "filesystem broker"
            self.stdout.write(self.style.SUCCESS(
                f"Eagles Online is running at http://{host}:{port}/  ({backend}, Celery on "
                f"{broker}, {engine_build()} battle engine). Press Ctrl-C to stop."))
            while True:
                for child in children:
                    child.reap(out)
                    if child.proc is None and time.monotonic() >= child.restart_at:
                        child.start(env, out)
                time.sleep(0.2)
        except KeyboardInterrupt:
            pass
        finally:
            # A second Ctrl-C must not interrupt the shutdown and leave a child behind.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            for child in children:
                child.stop()
            deadline = time.monotonic() + STOP_GRACE
            for child in children:
                child.finish(deadline)
            self.stdout.write("Stopped the web server and the worker.")
