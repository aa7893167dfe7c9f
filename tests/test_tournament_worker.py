"""The clock on a real broker with a real worker process (REQUIRED on PostgreSQL; SQLite's
in-memory test database cannot be shared with another process, so these skip there).

* a whole 16-player, 5-round Swiss runs by the clock with random results (3-second rounds:
  unreported matches get the time-limit result);
* a worker killed (SIGKILL) while pairing: after the redelivery and the tick, exactly one round;
* doubled tasks change nothing;
* webhooks: a local server fails twice, then succeeds; Celery retries with backoff.
"""

import json
import random
import signal
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from django.conf import settings
from django.utils import timezone

from tournaments import enqueue, services, tasks
from tournaments.models import Entry, Match, Round, StandingSnapshot, Status, Tournament
from tournaments.models import WebhookDelivery as Delivery
from tournaments.services.webhooks import verify

from .tournament_helpers import field, organiser, wait_for, worker_session

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(tmp_path, monkeypatch):
    yield from worker_session(tmp_path, monkeypatch)


def _report_some(t, rng, seen: set) -> None:
    """Report random results for most matches of the current round (each match once);
    about a third get one report or none and are left to the time limit."""
    for m in Match.objects.filter(tournament=t, round__number=t.current_round,
                                  allied__isnull=False).select_related("french", "allied"):
        if m.pk in seen:
            continue
        seen.add(m.pk)
        result = {"result": rng.choice(["french", "allied", "draw"])}
        roll = rng.random()
        reporters = [m.french, m.allied] if roll < 0.65 else [m.french] if roll < 0.8 else []
        for entry in reporters:
            try:
                services.report_result(m.pk, entry.user, result)
            except services.Conflict:  # the time limit came first
                pass


def test_whole_swiss_runs_by_the_clock(catalogue, worker):
    org = organiser()
    t, users = field(org, 16, rounds=5, round_seconds=3,
                     starts_at=timezone.now() + timedelta(seconds=2))
    worker.start()
    rng = random.Random(1815)
    seen: set = set()
    deadline = time.monotonic() + 75
    while time.monotonic() < deadline:
        t.refresh_from_db()
        if t.status == Status.FINISHED:
            break
        if t.status == Status.RUNNING:
            _report_some(t, rng, seen)
        time.sleep(0.2)
    else:
        raise AssertionError(f"not finished: {t.status} round {t.current_round}\n"
                             + worker.log_text()[-4000:])
    assert Round.objects.filter(tournament=t).count() == 5
    assert Round.objects.filter(tournament=t, state="finished").count() == 5
    pairs = list(Match.objects.filter(tournament=t).values_list("french_id", "allied_id"))
    assert len(pairs) == 5 * 8 and all(a is not None for _, a in pairs)
    assert len({frozenset(p) for p in pairs}) == 40  # no rematch
    assert not Match.objects.filter(tournament=t).exclude(state="settled").exists()
    sources = set(Match.objects.filter(tournament=t).values_list("source", flat=True))
    assert "agreement" in sources and "time_limit" in sources
    assert StandingSnapshot.objects.filter(tournament=t).count() == 5
    for e in Entry.objects.filter(tournament=t):
        sides = [("F" if m.french_id == e.pk else "A") for m in
                 Match.objects.filter(tournament=t).filter(french=e) | Match.objects.filter(
                     tournament=t, allied=e)]
        assert abs(sides.count("F") - sides.count("A")) <= 2
    assert t.wake_at is None


def _restore_unacked() -> None:
    """What Redis does after the visibility timeout (1 h by default): messages a dead worker
    had taken but not acknowledged go back to the queue."""
    if not settings.REDIS_URL:
        return
    from kombu import Connection

    with Connection(settings.CELERY_BROKER_URL,
                    transport_options={"visibility_timeout": 0}) as conn:
        conn.default_channel.qos.restore_visible(num=100)


def test_worker_killed_while_pairing_leaves_exactly_one_round(catalogue, worker, tmp_path):
    org = organiser()
    marker = tmp_path / "pairing.started"
    t, _ = field(org, 16, starts_at=timezone.now() + timedelta(seconds=1))
    first = worker.start(pause_pairing=(60, marker))  # stops inside the pairing transaction
    wait_for(marker.exists, 30, "the first worker to start pairing", worker)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=10)
    assert not Round.objects.filter(tournament=t).exists()  # its transaction rolled back
    worker.start()
    _restore_unacked()  # the redelivery (acks_late: the killed task was never acknowledged)
    time.sleep(5.5)  # past tick's grace period: the booked wake is overdue
    tasks.tick()  # and the safety net sends another advance: a doubled task
    wait_for(lambda: Round.objects.filter(tournament=t, number=1).exists(), 30,
             "round 1 after the retry", worker)
    time.sleep(2)  # let any doubled task run too
    assert Round.objects.filter(tournament=t).count() == 1
    assert Match.objects.filter(tournament=t).count() == 8
    assert Tournament.objects.get(pk=t.pk).status == Status.RUNNING


def test_doubled_tasks_change_nothing(catalogue, worker):
    org = organiser()
    t, _ = field(org, 8)
    worker.start()
    services.start_tournament(t.pk, org)
    for m in Match.objects.filter(tournament=t):
        services.record_result(m.pk, {"result": "french"}, source="online")
    # the last result enqueued an advance; send the same work three more times
    for _ in range(2):
        enqueue.send("advance", t.pk)
        enqueue.send("pair_round", t.pk, 2)
    wait_for(lambda: Round.objects.filter(tournament=t, number=2).exists(), 30, "round 2",
             worker)
    time.sleep(2)
    assert Round.objects.filter(tournament=t).count() == 2
    assert Match.objects.filter(tournament=t, round__number=2).count() == 4
    assert Match.objects.filter(tournament=t, round__number=1, state="settled").count() == 4


class _Flaky(BaseHTTPRequestHandler):
    calls: list = []

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.calls.append((time.monotonic(), dict(self.headers), body))
        self.send_response(500 if len(self.calls) <= 2 else 200)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def flaky_server():
    _Flaky.calls = []
    server = HTTPServer(("127.0.0.1", 0), _Flaky)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server, _Flaky.calls
    server.shutdown()


def test_webhook_retried_with_backoff_by_a_real_worker(catalogue, worker, flaky_server,
                                                       settings):
    server, calls = flaky_server
    org = organiser()
    # the receiver is on 127.0.0.1: allowed here (saving) and in the worker (delivering)
    settings.EAGLES_WEBHOOK_ALLOW_PRIVATE = True
    worker.env_extra["EAGLES_WEBHOOK_ALLOW_PRIVATE"] = "1"
    worker.env_extra["EAGLES_WEBHOOK_BACKOFF"] = "0.5"
    t, _ = field(org, 4, webhook_url=f"http://127.0.0.1:{server.server_port}/hook")
    worker.start()
    services.start_tournament(t.pk, org)
    delivery = Delivery.objects.get(tournament=t, key="round.paired:1")
    wait_for(lambda: Delivery.objects.get(pk=delivery.pk).state == "delivered", 40,
             "the webhook delivery", worker)
    delivery.refresh_from_db()
    assert delivery.attempts == 3 and len(calls) == 3
    gaps = [calls[k + 1][0] - calls[k][0] for k in range(2)]
    assert gaps[0] >= 0.4 and gaps[1] >= 0.9  # 0.5 s, then 1 s: exponential
    secret = Tournament.objects.get(pk=t.pk).webhook_secret
    for _, headers, body in calls:
        assert verify(secret, body, headers["X-Eagles-Signature"])
        assert headers["X-Eagles-Event"] == "round.paired"
        assert headers["X-Eagles-Delivery"] == str(delivery.pk)
    assert json.loads(calls[-1][2])["round"] == 1
