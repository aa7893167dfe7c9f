"""The production layout of docs/deploy.md: two web processes (the Procfile's web line: uvicorn)
and two Celery workers on PostgreSQL + Redis. A battle against the computer is played through
the API with requests alternating between the two web processes; the workers make the computer's
moves."""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection
from rest_framework.authtoken.models import Token

from .procfile import web_command

pytestmark = [pytest.mark.postgres, pytest.mark.worker,
              pytest.mark.django_db(transaction=True)]
ROOT = Path(settings.BASE_DIR)
BUDGET = 45.0  # seconds of play: battles are played to their end, one after another, until then


@pytest.fixture(autouse=True)
def needs_postgresql_and_redis(catalogue):
    if connection.vendor != "postgresql" or not settings.REDIS_URL:
        pytest.skip("needs PostgreSQL and Redis (set DATABASE_URL and REDIS_URL)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _env(tmp_path: Path) -> dict[str, str]:
    """The processes' environment: this test's database (the committed test database)."""
    parts = urlsplit(settings.DATABASE_URL)
    env = {k: v for k, v in os.environ.items()}
    env.update(DATABASE_URL=urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"])),
               REDIS_URL=settings.REDIS_URL, DEBUG="0", ALLOWED_HOSTS="127.0.0.1",
               SECRET_KEY="layout-test-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
               SECURE_SSL_REDIRECT="0",  # plain HTTP on loopback: no TLS proxy in this test
               EAGLES_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings")
    return env


def _call(port: int, method: str, path: str, token: str, body: dict | None = None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Authorization": f"Token {token}", "Accept": "application/json",
                              "Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        conn.close()


def test_two_web_processes_two_workers_play_a_battle(tmp_path):
    user = User.objects.create_user("layout", password="unused-here-1815")
    token = Token.objects.create(user=user).key
    env = _env(tmp_path)
    ports = [_free_port(), _free_port()]
    procs: list[subprocess.Popen] = []
    logs = []

    def start(name: str, argv: list[str]) -> None:
        log = open(tmp_path / f"{name}.log", "w")
        logs.append(log)
        procs.append(subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log,
                                      stderr=subprocess.STDOUT, start_new_session=True))

    try:
        for port in ports:
            start(f"web{port}", web_command(port))  # the Procfile's own web line
        for n in (1, 2):
            start(f"worker{n}", [sys.executable, "-m", "celery", "-A", "config", "worker",
                                 "--pool", "threads", "--concurrency", "1", "--loglevel",
                                 "INFO", "--hostname", f"layout{n}@%h", "--without-gossip",
                                 "--without-mingle", "--without-heartbeat"])
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

        served = {port: 0 for port in ports}
        rng = random.Random("layout")
        computer_moves, mine, i, battles = 0, 0, 1, 0
        end = time.monotonic() + BUDGET
        # Battles one after another (each seed is the server's secret, so a battle may end in a
        # few moves) until both processes and the workers have done enough, within the budget.
        while (min(served.values()) < 5 or mine < 5 or computer_moves < 3) and \
                time.monotonic() < end:
            port = ports[i % 2]
            i += 1
            status, data = _call(port, "POST", "/api/battles/", token,
                                 {"battle": "quatre-bras", "side": "allied", "bot": "random"})
            assert status == 201, data
            served[port] += 1
            battles += 1
            bid = data["id"]
            while data["status"] == "active" and time.monotonic() < end:
                port = ports[i % 2]
                i += 1
                if data["waiting_for"] == "you":
                    status, data = _call(port, "POST", f"/api/battles/{bid}/act/", token,
                                         {"seq": data["seq"],
                                          "action": rng.choice(data["legal_actions"])})
                    mine += 1
                else:
                    time.sleep(0.1)
                    before = data["seq"]
                    status, data = _call(port, "GET", f"/api/battles/{bid}/", token)
                    computer_moves += data["seq"] > before
                assert status == 200, data
                served[port] += 1
                # One snapshot: the log never holds an action past the answer's own seq.
                assert all(e["seq"] <= data["seq"] for e in data["log"])
        assert min(served.values()) >= 5, served
        assert mine >= 5 and computer_moves >= 3, (mine, computer_moves, battles, data)
        # The computer's moves were made by the workers (both started, one or both busy).
        worker_logs = "".join((tmp_path / f"worker{n}.log").read_text() for n in (1, 2))
        assert "battles.bot_move" in worker_logs and "succeeded" in worker_logs, worker_logs
    finally:
        for proc in procs:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
        for log in logs:
            log.close()
