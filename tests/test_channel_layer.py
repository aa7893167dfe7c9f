"""The Redis Channels layer: pub/sub by default, the list-based one with
``EAGLES_LIVE_LAYER=lists``, whose pool waits for a free connection instead of failing
(``config/channel_layer.py``): the websocket close 1011 seen under load in ``bench/online.py``
was channels_redis' plain pool raising ``MaxConnectionsError`` with 100 commands in flight."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid

import pytest
from django.conf import settings
from redis.exceptions import MaxConnectionsError

from config.channel_layer import WaitingRedisChannelLayer
from tests.test_live import run

# The Redis layers, tested on CI's Redis (skipped without REDIS_URL): the backend stage.
pytestmark = pytest.mark.backend

SOCKETS = 40  # consumers joining and nudged at once, over a pool of POOL connections
POOL = 3


def _layer(cls):
    return cls(hosts=[{"address": settings.REDIS_URL, "max_connections": POOL}],
               prefix=f"test-{uuid.uuid4().hex[:8]}")


async def _burst(layer) -> int:
    """SOCKETS channels join one group at once, the group is nudged, each reads its message."""
    group = "battle.1.french"
    channels = [await layer.new_channel() for _ in range(SOCKETS)]
    await asyncio.gather(*(layer.group_add(group, c) for c in channels))
    await layer.group_send(group, {"type": "battle.changed", "seq": 7})
    got = await asyncio.gather(*(asyncio.wait_for(layer.receive(c), 10) for c in channels))
    await asyncio.gather(*(layer.group_discard(group, c) for c in channels))
    await layer.flush()
    return sum(1 for m in got if m["seq"] == 7)


@pytest.fixture
def redis_url():
    if not settings.REDIS_URL:
        pytest.skip("needs Redis (set REDIS_URL)")
    return settings.REDIS_URL


def test_a_burst_over_a_small_pool_waits_and_every_socket_gets_its_message(redis_url):
    async def scenario():
        return await _burst(_layer(WaitingRedisChannelLayer))

    assert run(scenario) == SOCKETS


def test_the_plain_pool_fails_on_the_same_burst(redis_url):
    """What the waiting pool fixes: channels_redis' own pool raises at its ceiling."""
    from channels_redis.core import RedisChannelLayer

    async def scenario():
        return await _burst(_layer(RedisChannelLayer))

    with pytest.raises(MaxConnectionsError):
        run(scenario)


@pytest.mark.parametrize("choice, backend", [
    ("", "config.channel_layer.DegradingPubSubChannelLayer"),  # pub/sub, lost Redis degrades
    ("lists", "config.channel_layer.WaitingRedisChannelLayer"),
])
def test_eagles_live_layer_chooses_the_redis_layer(choice, backend):
    """Settings are read once per process: a fresh interpreter reads them as a server would."""
    env = {**os.environ, "REDIS_URL": "redis://127.0.0.1:6379/4", "EAGLES_LIVE_LAYER": choice,
           "SECRET_KEY": "x" * 50, "DJANGO_SETTINGS_MODULE": "config.settings"}
    out = subprocess.run([sys.executable, "-c", "from django.conf import settings; "
                          "print(settings.CHANNEL_LAYERS['default']['BACKEND'])"],
                         env=env, capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == backend


def test_one_changes_group_sends_are_one_redis_round_trip(redis_url, monkeypatch):
    """A change's messages to its viewer classes' groups (``notify._send_all``) go out as one
    pipeline of PUBLISHes on the pub/sub layer, in order, each to its own group only."""
    from redis.asyncio.connection import AbstractConnection

    from config.channel_layer import DegradingPubSubChannelLayer
    from play.live import notify

    layer = DegradingPubSubChannelLayer(hosts=[{"address": settings.REDIS_URL}],
                                        prefix=f"test-{uuid.uuid4().hex[:8]}")
    groups = ("battle.1.french", "battle.1.allied", "battle.1.watch")
    writes: list[int] = []
    real = AbstractConnection.send_packed_command

    async def counted(self, command, check_health=True):
        writes.append(1)
        return await real(self, command, check_health)

    async def scenario():
        channels = [await layer.new_channel() for _ in groups]
        for group, channel in zip(groups, channels, strict=True):
            await layer.group_add(group, channel)
        await layer.group_send("nobody", {"type": "x"})  # the publishing connection's set-up
        monkeypatch.setattr(AbstractConnection, "send_packed_command", counted)
        await notify._send_all(layer, [(group, {"type": "match.changed", "seq": n})
                                       for n, group in enumerate(groups)])
        monkeypatch.setattr(AbstractConnection, "send_packed_command", real)
        got = [await asyncio.wait_for(layer.receive(c), 10) for c in channels]
        await layer.flush()
        return got

    got = run(scenario)
    assert [m["seq"] for m in got] == [0, 1, 2]  # each group its own message
    assert len(writes) == 1  # one round trip (three PUBLISHes, one per group, before)
