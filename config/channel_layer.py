"""The pub/sub layer that survives a lost Redis (``DegradingPubSubChannelLayer``, the default),
and the list-based Redis Channels layer (``EAGLES_LIVE_LAYER=lists``; the default is the
pub/sub layer, see settings) with a connection pool that waits instead of failing.

channels_redis builds a plain ``redis.asyncio.ConnectionPool`` (100 connections at most per
event loop, redis-py's default), which raises ``MaxConnectionsError`` as soon as 101 commands
are in flight at once. Under load (200 sockets opening together, every consumer's
``group_add``, every nudge's ``group_send``) that happened and daphne closed the sockets with
1011 (internal error): the close seen in ``bench/online.py``. Here each host gets a
``BlockingConnectionPool``: a command waits up to ``POOL_TIMEOUT`` s for a free connection.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any

from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from redis import asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

POOL_SIZE = 100  # connections per process and event loop (redis-py's default ceiling)
POOL_TIMEOUT = 20  # seconds a command waits for a free connection before it fails
UNREACHABLE_SECONDS = 2.0  # the pub/sub layer's wait for a Redis that may be gone


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


class DegradingPubSubChannelLayer(RedisPubSubChannelLayer):
    """The default pub/sub layer, for when Redis goes away (issue 30): a socket still opens
    and keeps working, carried by the live poller (play/live/poller.py) instead of pushed
    messages. Subscribing (a new socket's channel, its group) and publishing give up after
    ``UNREACHABLE_SECONDS`` with a log line instead of failing the socket; the channel is
    still this process's, so the consumer runs as usual and hears nothing from Redis."""

    async def _quietly(self, what: str, call) -> None:
        try:
            await asyncio.wait_for(call, UNREACHABLE_SECONDS)
        except (TimeoutError, RedisError, OSError) as exc:
            log.warning("channel layer: could not %s (%s): the live poller carries it", what,
                        exc)

    # The layer is a per-event-loop proxy: the work is done by ``_get_layer()``'s methods.
    async def new_channel(self, prefix="specific."):
        layer = self._get_layer()
        channel = f"{layer.prefix}{prefix}{uuid.uuid4().hex}"
        layer.channels[channel] = asyncio.Queue()  # as the layer does, before subscribing
        await self._quietly("subscribe", layer._get_shard(channel).subscribe(channel))
        return channel

    async def group_add(self, group, channel):
        await self._quietly("join a group", self._get_layer().group_add(group, channel))

    async def group_discard(self, group, channel):
        await self._quietly("leave a group", self._get_layer().group_discard(group, channel))

    async def send(self, channel, message):
        await self._quietly("send", self._get_layer().send(channel, message))

    async def group_send(self, group, message):
        await self._quietly("send to a group", self._get_layer().group_send(group, message))

    async def group_send_many(self, sends: list[tuple[str, dict]]) -> dict[str, int | None]:
        """``group_send`` of each ``(group, message)`` in order, in ONE round trip per Redis
        shard (a pipeline of PUBLISHes; issue 31): a change goes to its three viewer classes'
        groups, and three round trips were ~11 % of a web process's CPU under play. Returns
        how many subscribers (processes with a member of the group) each group's last
        message reached, as Redis answered (``play.live.watchers``); None where not known
        (Redis unreachable)."""
        counts: dict[str, int | None] = dict.fromkeys((group for group, _ in sends), None)
        await self._quietly("send to groups", self._publish_many(sends, counts))
        return counts

    async def _publish_many(self, sends: list[tuple[str, dict]],
                            counts: dict[str, int | None]) -> None:
        # channels_redis 4.3's own parts, as its group_send and shard.publish use them
        layer = self._get_layer()
        shards: dict[int, tuple[Any, list[tuple[str, str, bytes]]]] = {}
        for group, message in sends:
            channel = layer._get_group_channel_name(group)
            shard = layer._get_shard(channel)
            shards.setdefault(id(shard), (shard, []))[1].append(
                (group, channel, self.serialize(message)))
        for shard, items in shards.values():
            async with shard._lock:
                shard._ensure_redis()
                async with shard._redis.pipeline(transaction=False) as pipe:
                    for _, channel, data in items:
                        pipe.publish(channel, data)
                    answers = await pipe.execute()
            for (group, _, _), answer in zip(items, answers, strict=True):
                counts[group] = answer if isinstance(answer, int) else None
