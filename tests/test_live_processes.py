"""Live updates across processes (issue 12): two web processes (the Procfile's web line) and a
Celery worker on PostgreSQL + Redis, as in docs/deploy.md. alice's socket is held by one web
process; bob's move posted to the other web process, and the computer's moves made by the
worker, reach it through the Redis Channels layer alone (the consumers' safety-net poll is set
to a minute, longer than the test waits). An idle socket outlives the Redis layer's 5 s blocking
pop (with redis-py's default 5 s socket timeout the consumer died: config/settings.py sets 30
s)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from rest_framework.authtoken.models import Token

from battles import services

from .procfile import web_command
from .test_production_layout import ROOT, _call, _env, _free_port

pytestmark = [pytest.mark.postgres, pytest.mark.worker,
              pytest.mark.django_db(transaction=True)]
WAIT = 20  # seconds; the poll would take 60


@pytest.fixture(autouse=True)
def needs_postgresql_and_redis(catalogue):
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        pytest.skip("needs PostgreSQL and Redis (set DATABASE_URL and REDIS_URL)")


def _receive_until(ws, check, deadline: float, seen: list | None = None) -> dict:
    while True:
        msg = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if seen is not None:
            seen.append(msg)
        if check(msg):
            return msg


def test_moves_cross_processes_through_redis(tmp_path):
    from websockets.sync.client import connect

    alice = User.objects.create_user("alice", password="unused-1815")
    bob = User.objects.create_user("bob", password="unused-1815")
    token = Token.objects.create(user=bob).key
    client = Client()
    client.force_login(alice)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    human = services.create_battle(alice, "quatre-bras", "french", opponent="open")
    services.join_battle(human.pk, bob)

    # The same SECRET_KEY as this process: the session's auth hash is checked with it.
    env = {**_env(tmp_path), "EAGLES_LIVE_POLL_SECONDS": "60", "SECRET_KEY": settings.SECRET_KEY}
    ports = [_free_port(), _free_port()]
    procs = []
    try:
        for port in ports:
            procs.append(subprocess.Popen(
                web_command(port), cwd=ROOT, env=env, start_new_session=True,
                stdout=open(tmp_path / f"web{port}.log", "w"), stderr=subprocess.STDOUT))
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
             "--loglevel", "INFO", "--hostname", "live@%h", "--without-gossip",
             "--without-mingle", "--without-heartbeat"], cwd=ROOT, env=env,
            start_new_session=True, stdout=open(tmp_path / "worker.log", "w"),
            stderr=subprocess.STDOUT))
        deadline = time.monotonic() + 90
        for port in ports:
            while True:
                try:
                    if _call(port, "GET", "/api/", token)[0] == 200:
                        break
                except OSError:
                    pass
                assert time.monotonic() < deadline, "a web process did not come up"
                time.sleep(0.3)

        a, b = ports
        origin = f"http://127.0.0.1:{a}"
        with connect(f"ws://127.0.0.1:{a}/ws/battles/{human.pk}/", origin=origin,
                     additional_headers={"Cookie": cookie}) as ws:
            ws.send(json.dumps({"type": "hello", "since": 0}))
            first = json.loads(ws.recv(timeout=WAIT))
            assert first["my_side"] == "french" and first["seq"] == 0
            time.sleep(7)  # idle past the layer's 5 s blocking pop: the socket stays open
            status, view = _call(b, "GET", f"/api/battles/{human.pk}/", token)
            assert status == 200 and view["waiting_for"] == "you"
            status, _ = _call(b, "POST", f"/api/battles/{human.pk}/act/", token,
                              {"seq": 0, "action": view["legal_actions"][0]})
            assert status == 200
            msg = _receive_until(ws, lambda m: m.get("seq", 0) >= 1, time.monotonic() + WAIT)
            assert msg["seq"] == 1 and msg["events"]

        # Against the computer: alice (the Allies) deploys first over her socket; the worker
        # answers with the computer's moves, which reach her socket in the other process.
        computer = services.create_battle(alice, "quatre-bras", "allied", bot="random")
        with connect(f"ws://127.0.0.1:{a}/ws/battles/{computer.pk}/", origin=origin,
                     additional_headers={"Cookie": cookie}) as ws:
            ws.send(json.dumps({"type": "hello", "since": 0}))
            msg = json.loads(ws.recv(timeout=WAIT))
            assert msg["waiting_for"] == "you" and msg["seq"] == 0
            computer_moved = False
            for _ in range(40):  # deploy until the computer's turn, then hear its moves
                ends = [x for x in msg["legal_actions"] if x["type"] == "deployment_done"]
                ws.send(json.dumps({"type": "act", "seq": msg["seq"],
                                    "action": (ends or msg["legal_actions"])[0]}))
                # (my move again, or over: the secret seed may end a battle in a few moves).
                # The computer's moves come in messages of their own before that one: look at
                # every message, not only the last (a computer's move that ended the battle
                # left only the outcome in the last message and the test failed).
                seen: list[dict] = []
                msg = _receive_until(ws, lambda m: m["type"] == "battle" and
                                     m["waiting_for"] in ("you", None), time.monotonic() + WAIT,
                                     seen)
                if any(e.get("side") == "french"
                       for m in seen if m["type"] == "battle" for e in m.get("events", [])):
                    computer_moved = True
                    break
                assert msg["status"] == "active", msg["outcome"]
            assert computer_moved
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
