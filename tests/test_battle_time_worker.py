"""Flag fall on a real broker with a real worker process (REQUIRED on PostgreSQL; SQLite's
in-memory test database cannot be shared with another process, so these skip there).

* the service books ``battles.flag_fall(battle_id, seq)`` with ``eta=deadline``; the worker
  runs it at the deadline and the side out of time loses; a doubled task changes nothing;
* the worker is down and the flag-fall message is lost: once a worker is back, the beat's
  ``battles.tick`` finds the battle past its deadline and ends it.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from celery import current_app
from django.utils import timezone

from battles import services, setup
from battles.engine import from_json, legal_actions
from battles.models import Battle, Status

from .kinds import battle_tasks as tasks
from .tournament_helpers import wait_for, worker_session

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

LIVE = {"kind": "live", "base": 900, "increment": 0}
SECONDS_LEFT = 3


@pytest.fixture
def worker(tmp_path, monkeypatch):
    for w in worker_session(tmp_path, monkeypatch):
        w.env_extra["EAGLES_PLAY_QUEUE"] = w.queue  # a re-booked task comes back here too
        monkeypatch.setenv("EAGLES_PLAY_QUEUE", w.queue)  # play.enqueue reads it at each send
        yield w


def _battle_about_to_flag(user, other_user) -> Battle:
    """A live battle between two people whose clocks hold SECONDS_LEFT each; the side to move
    plays one action, so the service books the next flag fall for a few seconds away."""
    b = services.create_battle(user, "quatre-bras", "french", opponent="open",
                               time_control=LIVE)
    services.join_battle(b.pk, other_user)
    Battle.objects.filter(pk=b.pk).update(
        clocks={"french": SECONDS_LEFT, "allied": SECONDS_LEFT},
        clock_started_at=timezone.now())
    b = Battle.objects.get(pk=b.pk)
    who = user if b.to_move == "french" else other_user
    state = from_json(b.state, setup.engine_cards(b))
    services.act(b.pk, who, b.seq, legal_actions(state, b.to_move)[0])
    b = Battle.objects.get(pk=b.pk)
    assert b.status == Status.ACTIVE and b.deadline is not None
    assert b.deadline - timezone.now() < timedelta(seconds=SECONDS_LEFT + 1)
    return b


def _ended(pk):
    def check():
        return Battle.objects.get(pk=pk).status == Status.FINISHED
    return check


def test_flag_fall_by_the_booked_task_then_a_doubled_task_changes_nothing(
        catalogue, user, other_user, worker):
    worker.start()
    b = _battle_about_to_flag(user, other_user)
    loser = b.to_move
    wait_for(_ended(b.pk), 30, "the flag-fall task at the deadline", worker)
    done = Battle.objects.get(pk=b.pk)
    assert timezone.now() >= b.deadline  # not before the deadline
    winner = "allied" if loser == "french" else "french"
    assert done.outcome == {"winner": winner, "reason": "time", "loser": loser,
                            "turn": b.turn}
    assert done.clocks[loser] == 0 and done.deadline is None
    again = current_app.send_task("battles.flag_fall", args=[b.pk, b.seq], queue=worker.queue)
    assert again.get(timeout=30) is False  # the same seq once more: nothing
    assert Battle.objects.get(pk=b.pk).finished_at == done.finished_at


def test_flag_fall_while_the_worker_is_down_is_ended_by_the_tick(
        catalogue, user, other_user, worker, monkeypatch):
    lost = []
    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: lost.append(args))
    b = _battle_about_to_flag(user, other_user)  # no worker runs; the message is lost
    assert lost[-1] == (b.pk, b.seq, b.deadline)  # (the join booked one for seq 0)
    time.sleep(max(0.0, (b.deadline - timezone.now()).total_seconds()) + 0.5)
    assert Battle.objects.get(pk=b.pk).status == Status.ACTIVE  # nobody ended it
    worker.start()  # the worker is back; beat fires the tick
    tick = current_app.send_task("play.tick", queue=worker.queue)
    tick.get(timeout=60)
    done = Battle.objects.get(pk=b.pk)
    assert done.status == Status.FINISHED and done.outcome["reason"] == "time"
    assert done.outcome["winner"] != b.to_move
    assert current_app.send_task("play.tick", queue=worker.queue).get(timeout=30) == []
    assert Battle.objects.get(pk=b.pk).finished_at == done.finished_at  # ended once
