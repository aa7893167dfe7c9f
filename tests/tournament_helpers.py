"""Shared helpers for the tournament tests (players with collections and valid decks, a real
Celery worker on the test database). No tests here."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from cards.models import CollectionEntry, Printing
from decks import checks as deck_checks
from decks import services as deck_services
from decks.catalogue import cards_by_number
from tournaments import services

ROOT = Path(settings.BASE_DIR)
SIZES = {}


def pool(army: str, battle: str) -> list[int]:
    return [n for n, c in sorted(cards_by_number().items()) if c["army"] == army
            and battle in c["battles"]
            and (c["type"] != "terrain" or c["terrain_battle"] == battle)]


def valid_entries(army: str, battle: str) -> list[tuple]:
    """A valid standard deck for ``army`` at ``battle`` (the first cards of its pool)."""
    key = (army, battle)
    if key not in SIZES:
        cards = pool(army, battle)
        for size in range(8, len(cards) + 1):
            check = deck_checks.check(battle=battle, army=army,
                                        entries=[(n, 1, None) for n in cards[:size]])
            if check.valid:
                SIZES[key] = cards[:size]
                break
        else:  # pragma: no cover
            raise AssertionError(f"no valid {army} deck at {battle}")
    return [(n, 1, None) for n in SIZES[key]]


def give_cards(user, numbers) -> None:
    printing = dict(Printing.objects.filter(card__number__in=numbers, finish="common")
                    .values_list("card__number", "pk"))
    if len(printing) < len(set(numbers)):
        printing = {}
        for number, pk in Printing.objects.filter(card__number__in=numbers).values_list(
                "card__number", "pk"):
            printing.setdefault(number, pk)
    CollectionEntry.objects.bulk_create(
        [CollectionEntry(user=user, printing_id=printing[n], quantity=1) for n in set(numbers)],
        ignore_conflicts=True)


ARMIES = {"quatre-bras": ["french", "british"], "ligny": ["french", "prussian"],
          "wavre": ["french", "prussian"], "waterloo": ["french", "british", "prussian"]}


def player(name: str, battle: str = "quatre-bras", own: bool = True):
    """A user owning every card each army fought ``battle`` with (enough for a deal from the
    collection, 2.0) and one valid custom deck per army; returns (user, {army: version})."""
    user = User.objects.create_user(name, f"{name}@example.com", "s3cret-pass-1815")
    versions = {}
    for army in ARMIES[battle]:
        entries = valid_entries(army, battle)
        if own:
            give_cards(user, pool(army, battle))  # the deck's cards are the pool's first
        deck = deck_services.create_deck(user, name=f"{name} {army}", battle=battle, army=army,
                                         entries=entries)
        versions[army] = deck.latest
    return user, versions


def register(t, user, versions, **extra):
    return services.register(t.pk, user, **{f"{a}_version": v.pk for a, v in versions.items()},
                             **extra)


def organiser() -> User:
    return User.objects.create_user("orga", "orga@example.com", "s3cret-pass-1815")


def tournament(org, **fields):
    defaults = {"name": "Spring Swiss", "battle": "quatre-bras", "round_seconds": 3000}
    return services.create_tournament(org, **{**defaults, **fields})


def field(org, n: int, battle: str = "quatre-bras", **fields):
    """A tournament with ``n`` registered players; returns (tournament, [users])."""
    t = tournament(org, battle=battle, **fields)
    users = []
    for k in range(n):
        user, versions = player(f"p{k + 1:02d}", battle)
        register(t, user, versions)
        users.append(user)
    return t, users


def report_both(match, result):
    from tournaments.models import Entry

    for entry_id in match.players():
        services.report_result(match.pk, Entry.objects.get(pk=entry_id).user, result)


# --- a real worker on the test database ------------------------------------------------------

def _needs_shared_db():
    if connection.vendor == "sqlite":
        pytest.skip("a worker process cannot share SQLite's in-memory test database; the "
                    "clock tests are REQUIRED on PostgreSQL (DATABASE_URL) and run there")


class Worker:
    """A Celery worker subprocess on the test database, with its own queue."""

    def __init__(self, tmp_path, env_extra=None):
        _needs_shared_db()
        self.tmp_path = tmp_path
        self.queue = f"tt-{uuid.uuid4().hex[:8]}"
        self.env_extra = env_extra or {}
        self.procs: list[subprocess.Popen] = []
        self.logs: list[Path] = []

    def env(self, extra=None) -> dict:
        env = os.environ.copy()
        db = connection.settings_dict
        env["DATABASE_URL"] = (f"postgres://{db['USER'] or ''}"
                               f"{(':' + db['PASSWORD']) if db['PASSWORD'] else ''}@"
                               f"{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}")
        env["EAGLES_VAR_DIR"] = str(settings.VAR_DIR)  # the filesystem broker is shared
        env["EAGLES_TOURNAMENT_QUEUE"] = self.queue
        env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        env.update(self.env_extra)
        env.update(extra or {})
        return env

    def start(self, extra=None, *, pause_pairing: tuple[float, Path] | None = None,
              pause_bot: tuple[float, Path] | None = None) -> subprocess.Popen:
        """Start a worker. ``pause_pairing=(seconds, marker)``: its pairing stops inside the
        transaction (``tests/pausing_worker.py``), after writing ``marker``; ``pause_bot``:
        the same inside the computer's move."""
        n = len(self.procs)
        log_path = self.tmp_path / f"worker{n}.log"
        log = open(log_path, "w")
        entry = ["-m", "celery"]
        if pause_pairing is not None:
            entry = ["-m", "tests.pausing_worker", *map(str, pause_pairing)]
        if pause_bot is not None:
            entry = ["-m", "tests.pausing_worker", "--bot", *map(str, pause_bot)]
        proc = subprocess.Popen(
            [sys.executable, *entry, "-A", "config", "worker", "--pool", "solo",
             "--queues", self.queue, "--hostname", f"{self.queue}-{n}@localhost",
             "--loglevel", "INFO", "--without-gossip", "--without-mingle",
             "--without-heartbeat"],
            cwd=ROOT, env=self.env(extra), stdout=log, stderr=subprocess.STDOUT)
        self.procs.append(proc)
        self.logs.append(log_path)
        return proc

    def log_text(self) -> str:
        return "\n".join(p.read_text() for p in self.logs if p.exists())

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def worker_session(tmp_path, monkeypatch):
    """For a ``worker`` fixture: start with ``worker.start()``; tasks sent from this process
    go to its queue; stopped at the end."""
    w = Worker(tmp_path)
    from tournaments import enqueue

    monkeypatch.setattr(enqueue, "QUEUE", w.queue)
    try:
        yield w
    finally:
        w.stop()


def play_worker_session(tmp_path, monkeypatch):
    """``worker_session`` whose worker also takes the play queue (the computer's moves, the
    end's rating and result: ``play.enqueue`` reads EAGLES_PLAY_QUEUE at each send)."""
    for w in worker_session(tmp_path, monkeypatch):
        w.env_extra["EAGLES_PLAY_QUEUE"] = w.queue
        monkeypatch.setenv("EAGLES_PLAY_QUEUE", w.queue)
        yield w


def wait_for(predicate, timeout: float, what: str, worker: Worker | None = None,
             interval: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    logs = worker.log_text()[-4000:] if worker else ""
    raise AssertionError(f"timed out waiting for {what}\n{logs}")


def soon(seconds: float = 1.0):
    return timezone.now() + timedelta(seconds=seconds)
