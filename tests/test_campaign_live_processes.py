"""A campaign's live updates across processes (issue 13): a web process (the Procfile's
web line) serving
``config.asgi`` (its websocket router includes ``ws/campaigns/<id>/``) and a Celery worker on
PostgreSQL + Redis. alice's socket is held by the web process; the computer's decisions, made
by the worker (``campaigns.bot_move``), reach it through the Redis Channels layer alone (the
consumers' safety-net poll is set to a minute, longer than the test waits)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from celery import current_app
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from campaigns import services

from .campaign.helpers import small_pools
from .kinds import campaign_tasks as tasks
from .procfile import web_command
from .test_live_processes import _receive_until
from .test_production_layout import ROOT, _call, _env, _free_port

pytestmark = [pytest.mark.postgres, pytest.mark.worker,
              pytest.mark.django_db(transaction=True)]
WAIT = 30  # seconds; the poll would take 60


@pytest.fixture(autouse=True)
def needs_postgresql_and_redis(catalogue):
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        pytest.skip("needs PostgreSQL and Redis (set DATABASE_URL and REDIS_URL)")


def test_the_workers_campaign_moves_reach_a_socket_of_the_web_process(tmp_path, monkeypatch):
    from websockets.sync.client import connect

    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    asked: list[tuple[int, int]] = []
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: asked.append(args))
    alice = User.objects.create_user("alice", password="unused-1815")
    token = Token.objects.create(user=alice).key
    client = Client()
    client.force_login(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    # The computer (French) splits first; its task is held back until alice listens.
    c = services.create_campaign(alice, "allied", bot="random", settings={"turn_cap": 2})
    assert asked == [(c.pk, 0)]

    env = {**_env(tmp_path), "EAGLES_LIVE_POLL_SECONDS": "60", "SECRET_KEY": settings.SECRET_KEY}
    port = _free_port()
    procs = [
        subprocess.Popen(web_command(port), cwd=ROOT, env=env, start_new_session=True,
                         stdout=open(tmp_path / "web.log", "w"), stderr=subprocess.STDOUT),
        subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "--pool",
                          "solo", "--loglevel", "INFO", "--hostname", "camplive@%h",
                          "--without-gossip", "--without-mingle", "--without-heartbeat"],
                         cwd=ROOT, env=env, start_new_session=True,
                         stdout=open(tmp_path / "worker.log", "w"), stderr=subprocess.STDOUT)]
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if _call(port, "GET", "/api/", token)[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the web process did not come up"
            time.sleep(0.3)
        origin = f"http://127.0.0.1:{port}"
        with connect(f"ws://127.0.0.1:{port}/ws/campaigns/{c.pk}/", origin=origin,
                     additional_headers={"Cookie": cookie}) as ws:
            ws.send(json.dumps({"type": "hello", "since": 0}))
            first = json.loads(ws.recv(timeout=WAIT))
            assert first["type"] == "campaign" and first["my_side"] == "allied"
            assert first["seq"] == 0 and first["waiting_for"] == "computer"
            current_app.send_task("campaigns.bot_move", args=[c.pk, 0])  # now, to the worker
            msg = _receive_until(ws, lambda m: m.get("seq", 0) >= 1, time.monotonic() + WAIT)
            assert msg["type"] == "campaign" and msg["since"] == 0 and msg["events"]
            assert any(e.get("type") == "split" and e.get("side") == "french"
                       for e in msg["events"])
            assert not any("decks" in e for e in msg["events"])  # the French split: counts
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
