"""The list-based Redis Channels layer (``EAGLES_LIVE_LAYER=lists``; the default is the
pub/sub layer, see settings) with a connection pool that waits instead of failing.

channels_redis builds a plain ``redis.asyncio.ConnectionPool`` (100 connections at most per
event loop, redis-py's default), which raises ``MaxConnectionsError`` as soon as 101 commands
are in flight at once. Under load (200 sockets opening together, every consumer's
``group_add``, every nudge's ``group_send``) that happened and daphne closed the sockets with
1011 (internal error): the close seen in ``bench/online.py``. Here each host gets a
``BlockingConnectionPool``: a command waits up to ``POOL_TIMEOUT`` s for a free connection.
"""

from __future__ import annotations

from channels_redis.core import RedisChannelLayer
from redis import asyncio as aioredis

POOL_SIZE = 100  # connections per process and event loop (redis-py's default ceiling)
POOL_TIMEOUT = 20  # seconds a command waits for a free connection before it fails


def blocking_pool(host: dict) -> aioredis.BlockingConnectionPool:
    """``host`` as channels_redis reads it (``{"address": url, **connection options}``)."""
    options = dict(host)
    address = options.pop("address")
    options.setdefault("max_connections", POOL_SIZE)
    options.setdefault("timeout", POOL_TIMEOUT)
    return aioredis.BlockingConnectionPool.from_url(address, **options)


class WaitingRedisChannelLayer(RedisChannelLayer):
    """``RedisChannelLayer`` whose pools wait for a connection (hosts given by ``address``)."""

    def create_pool(self, index):
        host = self.hosts[index]
        if "address" not in host:
            return super().create_pool(index)
        return blocking_pool(host)
