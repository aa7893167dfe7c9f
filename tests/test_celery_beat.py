"""The tournament clock runs from a real celery beat (REQUIRED on PostgreSQL; SQLite's
in-memory test database cannot be shared with other processes, so this skips there).

Every message that would do the work on time (the ``advance`` a service books with an ETA) is
lost in this process, as with a broker restart or a worker killed while holding it. Nobody here
calls ``tick`` or ``advance``: only beat, firing ``tournaments.tick`` every second
(``EAGLES_TICK_SECONDS=1``), can make the worker catch up. Within a bounded wait it must
pair round 1 of a tournament whose start time has passed and apply the time-limit results of a
round whose end time has passed; beat must still be ticking afterwards.

Two layouts: ``embedded`` is what ``make run`` / ``manage.py serve`` starts (one
``celery -A config worker --beat`` with the same options); ``standalone`` is a separate
``celery -A config beat`` process beside a worker.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from tournaments import enqueue, services
from tournaments.models import Match, Round, Status, Tournament

from .tournament_helpers import ROOT, Worker, player, register

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

TICK_SECONDS = 1
READY_TIMEOUT = 20  # a worker is usually ready in 2-3 s
WORK_TIMEOUT = 30  # from the processes' start to the last piece of clock work
SENT_TICK = "Sending due task tournaments-tick"


class Clock:
    """Celery processes (a worker, and beat embedded or standalone) on the test database, with
    their own queue, a 1-second tick and a schedule file in a temporary folder."""

    def __init__(self, tmp_path: Path, layout: str):
        self.helper = Worker(tmp_path)  # skips on SQLite; builds the database/broker env
        self.tmp_path = tmp_path
        self.layout = layout
        self.queue = self.helper.queue
        self.procs: dict[str, subprocess.Popen] = {}
        self.logs: dict[str, Path] = {}

    def _spawn(self, name: str, args: list[str]) -> None:
        path = self.tmp_path / f"{name}.log"
        log = open(path, "w")
        try:
            env = self.helper.env({"EAGLES_TICK_SECONDS": str(TICK_SECONDS)})
            self.procs[name] = subprocess.Popen(
                [sys.executable, "-m", "celery", "-A", "config", *args], cwd=ROOT, env=env,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        finally:
            log.close()  # the child has its own descriptor
        self.logs[name] = path

    def start(self) -> None:
        schedule = str(self.tmp_path / "celerybeat-schedule")
        # The worker options of frontend/management/commands/serve.py, with a queue of our own.
        worker = ["worker", "--loglevel", "INFO", "--pool", "threads", "--concurrency", "2",
                  "--hostname", f"{self.queue}@localhost", "--queues", self.queue]
        if self.layout == "embedded":
            self._spawn("worker", [*worker, "--beat", "--schedule", schedule])
        else:
            self._spawn("worker", worker)
            self._spawn("beat", ["beat", "--loglevel", "INFO", "--schedule", schedule])

    def log(self, name: str) -> str:
        path = self.logs.get(name)
        return path.read_text(errors="replace") if path and path.exists() else ""

    def beat_log(self) -> str:
        return self.log("beat" if self.layout == "standalone" else "worker")

    def dump(self) -> str:
        return "\n".join(f"--- {name} (exit {proc.poll()}) ---\n{self.log(name)[-3000:]}"
                         for name, proc in self.procs.items())

    def check_alive(self) -> None:
        dead = {name: proc.returncode for name, proc in self.procs.items()
                if proc.poll() is not None}
        if dead:
            raise AssertionError(f"celery process(es) exited: {dead}\n{self.dump()}")

    def wait_for(self, predicate, timeout: float, what: str):
        deadline = time.monotonic() + timeout
        while True:
            self.check_alive()
            value = predicate()
            if value:
                return value
            if time.monotonic() >= deadline:
                raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}\n"
                                     + self.dump())
            time.sleep(0.2)

    def stop(self) -> None:
        """SIGTERM (Celery's warm shutdown, which also stops an embedded beat), then SIGKILL to
        the process group of whatever is still running after 15 s."""
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        deadline = time.monotonic() + 15
        for proc in self.procs.values():
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)  # its own session: only its children
                except ProcessLookupError:
                    pass
                proc.wait(timeout=10)


@pytest.fixture(params=["embedded", "standalone"])
def clock(request, tmp_path, transactional_db):
    c = Clock(tmp_path, request.param)
    try:
        yield c
    finally:
        c.stop()


@pytest.fixture
def lost_messages(monkeypatch):
    """Every task this process sends is lost (recorded, never reaches the broker)."""
    lost: list[tuple] = []
    monkeypatch.setattr(enqueue, "send", lambda name, *args, eta=None: lost.append((name, *args)))
    return lost


def _players(prefix: str, n: int) -> list:
    return [player(f"{prefix}{k + 1}") for k in range(n)]


def test_beat_drives_the_clock(clock, lost_messages, catalogue):
    from django.contrib.auth.models import User

    org = User.objects.create_user("orga", "orga@example.com", "s3cret-pass-1815")
    # Built before the processes start: the tick must find the work, not a fresh message.
    # B: running, round 1 ends 1 s after it is paired; the time-limit wake never arrives.
    at_time = services.create_tournament(org, name="At time", battle="quatre-bras", rounds=1,
                                         round_seconds=1)
    for user, versions in _players("b", 4):
        register(at_time, user, versions)
    services.start_tournament(at_time.pk, org)
    round_b = Round.objects.get(tournament=at_time, number=1)
    # A: its start time passed 10 s ago and the wake booked for it never arrived.
    late_start = services.create_tournament(
        org, name="Late start", battle="quatre-bras", rounds=1,
        starts_at=timezone.now() - timedelta(seconds=10))
    for user, versions in _players("a", 4):
        register(late_start, user, versions)
    assert ("advance", late_start.pk) in lost_messages
    assert ("advance", at_time.pk) in lost_messages  # the wake at the round's end
    assert Tournament.objects.get(pk=late_start.pk).status == Status.REGISTRATION

    started = time.monotonic()
    clock.start()
    clock.wait_for(lambda: " ready." in clock.log("worker"), READY_TIMEOUT,
                   "the worker's ready signal")
    clock.wait_for(lambda: "beat: Starting..." in clock.beat_log(), READY_TIMEOUT,
                   "beat to start")

    def work_left() -> float:
        return max(1.0, WORK_TIMEOUT - (time.monotonic() - started))

    clock.wait_for(lambda: Round.objects.filter(tournament=late_start, number=1).exists(),
                   work_left(), "beat's tick to start the late tournament and pair round 1")
    clock.wait_for(lambda: Round.objects.get(pk=round_b.pk).timed_out, work_left(),
                   "beat's tick to apply the time-limit results of the round at time")
    clock.wait_for(lambda: not Match.objects.filter(round=round_b).exclude(
        state="settled").exists(), work_left(), "the time-limit results to settle round 1")

    t = Tournament.objects.get(pk=late_start.pk)
    assert t.status == Status.RUNNING and t.current_round == 1
    assert Match.objects.filter(tournament=t, round__number=1).count() == 2
    sources = set(Match.objects.filter(round=round_b).values_list("source", flat=True))
    assert sources == {"time_limit"}, sources
    # The worker did it on ticks sent by beat (to our queue), not on anything this process sent.
    assert SENT_TICK in clock.beat_log(), clock.dump()
    assert "Task tournaments.tick[" in clock.log("worker"), clock.dump()

    # Beat keeps running: alive, and still sending ticks after the work is done.
    sent = clock.beat_log().count(SENT_TICK)
    clock.wait_for(lambda: clock.beat_log().count(SENT_TICK) > sent, 5 * TICK_SECONDS,
                   "another tick from beat")
    clock.check_alive()
    # beat kept its schedule where --schedule said (serve passes var/), not in the cwd
    assert list(clock.tmp_path.glob("celerybeat-schedule*")), clock.dump()
