"""Issue 30, when Redis goes away: a Redis of this test's own (``redis-server`` on a free port,
its files in tmp_path) serves the cache, the log-in limits' counters, the Celery broker and the
Channels layer; it is killed mid-battle, and the site must degrade, never break:

* a logged-in player's pages and API keep working (sessions are in the database too);
* a new log-in is refused with a 503 that says why (its limits fail closed); sign-up and the
  expensive endpoints' limits stay open;
* a move that hands the turn to the computer is answered at once with its success although
  its enqueue cannot reach the broker; once Redis is back the beat's tick sends it again;
* a new websocket opens and answers (the live poller carries it).

The figures (each request's wall time with Redis gone) are printed."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time

import pytest
import redis
from celery import current_app
from channels.layers import channel_layers
from django.contrib.auth.models import User
from django.test import Client

from battles.models import Battle
from play import enqueue

from .kinds import battle_tasks
from .test_live import connect, hello, run

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.skipif(shutil.which("redis-server") is None,
                                 reason="needs redis-server")]
PASSWORD = "Bravest-0f-brave"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class OwnRedis:
    def __init__(self, tmp_path, port: int) -> None:
        self.tmp_path, self.port, self.proc = tmp_path, port, None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir",
             str(self.tmp_path), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
            self.proc = None


@pytest.fixture
def own_redis(tmp_path, settings, catalogue):
    server = OwnRedis(tmp_path, _free_port())
    server.start()
    options = {"socket_connect_timeout": 1, "socket_timeout": 2}
    settings.CACHES = {  # as config/settings.py sets them with REDIS_URL
        "default": {"BACKEND": "config.cache.DegradingRedisCache", "LOCATION": server.url,
                    "OPTIONS": options},
        "counters": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                     "LOCATION": server.url, "OPTIONS": options}}
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "config.channel_layer.DegradingPubSubChannelLayer",
        "CONFIG": {"hosts": [{"address": server.url}], "prefix": f"eagles-loss-{server.port}"}}}
    channel_layers.backends.clear()
    conf = current_app.conf
    saved = (conf.broker_url, conf.broker_transport_options, current_app._pool,
             current_app.amqp._producer_pool)
    conf.broker_url, conf.broker_transport_options = server.url, {}
    current_app._pool = current_app.amqp._producer_pool = None
    yield server
    server.kill()
    if current_app._pool is not None:
        current_app._pool.force_close_all()
    conf.broker_url, conf.broker_transport_options = saved[:2]
    current_app._pool, current_app.amqp._producer_pool = saved[2:]
    channel_layers.backends.clear()


def timed(figures: dict, name: str, fn):
    start = time.perf_counter()
    result = fn()
    figures[name] = time.perf_counter() - start
    return result


def login(client: Client, username: str):
    return client.post("/api/auth/login/", {"username": username, "password": PASSWORD},
                       content_type="application/json")


def to_the_computer(client: Client, data: dict) -> dict:
    """Play the player's part until the turn is the computer's (the last move's answer)."""
    while data["waiting_for"] == "you":
        done = [a for a in data["legal_actions"] if a["type"] == "deployment_done"]
        r = client.post(f"/api/battles/{data['id']}/act/",
                        {"seq": data["seq"], "action": (done or data["legal_actions"])[0]},
                        content_type="application/json")
        assert r.status_code == 200, r.content
        data = r.json()
    return data


def test_losing_redis_mid_battle_degrades_and_never_breaks(own_redis, caplog):
    figures: dict[str, float] = {}
    alice = User.objects.create_user("alice", "", PASSWORD)
    User.objects.create_user("bob", "", PASSWORD)
    player = Client()
    assert login(player, "alice").status_code == 200  # a session in Redis and the database
    r = player.post("/api/battles/", {"battle": "quatre-bras", "side": "allied", "bot": "random"},
                    content_type="application/json")
    assert r.status_code == 201
    battle = r.json()
    deployed = battle["legal_actions"]
    assert deployed and battle["waiting_for"] == "you"

    own_redis.kill()  # mid-battle

    # The player's pages and API: the session comes from the database.
    page = timed(figures, "page of a logged-in player", lambda: player.get(
        f"/battles/{battle['id']}/"))
    assert page.status_code == 200 and b"alice" in page.content
    assert player.get("/api/auth/me/").json()["username"] == "alice"

    # The move that hands the turn to the computer: its answer is its success.
    data = timed(figures, "moves up to the computer's turn", lambda: to_the_computer(
        player, battle))
    assert data["waiting_for"] == "computer"
    stored = Battle.objects.get(pk=battle["id"])
    assert stored.seq == data["seq"]
    assert any("could not send play.bot_move" in rec.getMessage() for rec in caplog.records)

    # A new log-in: closed, saying why; sign-up and the expensive endpoints: open.
    r = timed(figures, "log-in (refused)", lambda: login(Client(), "bob"))
    assert r.status_code == 503 and r["Retry-After"] == "30"
    assert "cannot be reached" in r.json()["detail"]
    r = Client().post("/accounts/login/", {"username": "bob", "password": PASSWORD})
    assert r.status_code == 503 and b"cannot be reached" in r.content
    r = timed(figures, "sign-up", lambda: Client().post(
        "/api/auth/signup/", {"username": "ney", "password": PASSWORD},
        content_type="application/json"))
    assert r.status_code == 201, r.content
    r = timed(figures, "new battle (expensive, limit open)", lambda: player.post(
        "/api/battles/", {"battle": "quatre-bras", "side": "allied"},
        content_type="application/json"))
    assert r.status_code == 201, r.content

    # A new websocket opens and answers.
    async def socket_scenario():
        c = await connect(battle["id"], alice)
        m = await hello(c)
        await c.disconnect()
        return m

    start = time.perf_counter()
    m = run(socket_scenario)
    figures["new websocket: connect + hello"] = time.perf_counter() - start
    assert m["seq"] == data["seq"] and m["waiting_for"] == "computer"

    # Redis back: log-in works again, and the tick sends the computer's lost turn.
    own_redis.start()
    assert login(Client(), "bob").status_code == 200
    stalled = battle_tasks.stalled_computer_turns(grace_seconds=0)  # the tick's query
    assert (battle["id"], data["seq"]) in stalled
    enqueue.send_bot_move("battle", battle["id"], data["seq"])  # what the tick then does
    queued = redis.Redis.from_url(own_redis.url).lrange("celery", 0, -1)
    assert len(queued) == 1 and b"play.bot_move" in queued[0]  # in the new Redis's queue

    print("\nwith Redis gone: " + "; ".join(f"{k} {v:.2f} s" for k, v in figures.items()))
    assert all(v < 5 for v in figures.values()), figures
