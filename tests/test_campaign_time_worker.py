"""A campaign's flag fall on a real broker with a real worker process (REQUIRED on
PostgreSQL; SQLite's in-memory test database cannot be shared with another process, so these
skip there), as ``tests/test_battle_time_worker.py`` for battles:

* the service books ``campaigns.flag_fall(campaign_id, seq)`` with ``eta=deadline``; the
  worker runs it at the deadline and the side out of time loses the campaign; a doubled task
  changes nothing;
* the message is lost while no worker runs: the beat's ``campaigns.tick`` ends it later.
"""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from celery import current_app
from django.utils import timezone

from campaigns import selectors, services
from campaigns.models import Campaign, Status

from .campaign.helpers import passive, small_pools
from .kinds import campaign_tasks as tasks
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


@pytest.fixture
def small(monkeypatch):
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])


def _campaign_about_to_flag(user, other_user) -> Campaign:
    """A live campaign between two people whose clocks hold SECONDS_LEFT each; the French
    split, so the service books the Allies' flag fall for a few seconds away."""
    c = services.create_campaign(user, "french", opponent="open", time_control=LIVE)
    services.join_campaign(c.pk, other_user)
    Campaign.objects.filter(pk=c.pk).update(
        clocks={"french": SECONDS_LEFT, "allied": SECONDS_LEFT},
        clock_started_at=timezone.now())
    c = Campaign.objects.get(pk=c.pk)
    services.act(c.pk, user, c.seq, passive(selectors.campaign_view(c, user)["legal_actions"]))
    c = Campaign.objects.get(pk=c.pk)
    assert c.status == Status.ACTIVE and c.to_move == "allied" and c.deadline is not None
    assert c.deadline - timezone.now() < timedelta(seconds=SECONDS_LEFT + 1)
    return c


def _ended(pk):
    def check():
        return Campaign.objects.get(pk=pk).status == Status.FINISHED
    return check


def test_campaign_flag_fall_by_the_booked_task_then_a_doubled_task_changes_nothing(
        catalogue, user, other_user, small, worker):
    worker.start()
    c = _campaign_about_to_flag(user, other_user)
    wait_for(_ended(c.pk), 30, "the campaign flag-fall task at the deadline", worker)
    done = Campaign.objects.get(pk=c.pk)
    assert timezone.now() >= c.deadline  # not before the deadline
    assert done.outcome["winner"] == "french" and done.outcome["reason"] == "time"
    assert done.outcome["loser"] == "allied" and done.seq == c.seq
    assert done.clocks["allied"] == 0 and done.deadline is None
    again = current_app.send_task("campaigns.flag_fall", args=[c.pk, c.seq],
                                  queue=worker.queue)
    assert again.get(timeout=30) is False  # the same seq once more: nothing
    assert Campaign.objects.get(pk=c.pk).finished_at == done.finished_at


def test_campaign_flag_fall_while_the_worker_is_down_is_ended_by_the_tick(
        catalogue, user, other_user, small, worker, monkeypatch):
    lost = []
    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: lost.append(args))
    c = _campaign_about_to_flag(user, other_user)  # no worker runs; the message is lost
    assert lost[-1] == (c.pk, c.seq, c.deadline)
    time.sleep(max(0.0, (c.deadline - timezone.now()).total_seconds()) + 0.5)
    assert Campaign.objects.get(pk=c.pk).status == Status.ACTIVE  # nobody ended it
    worker.start()  # the worker is back; beat fires the tick
    current_app.send_task("play.tick", queue=worker.queue).get(timeout=60)
    done = Campaign.objects.get(pk=c.pk)
    assert done.status == Status.FINISHED and done.outcome["reason"] == "time"
    assert done.outcome["winner"] == "french"
