"""The site's cache when Redis goes away (issue 30): a miss, not an error.

Everything the default cache holds can be rebuilt or done without: sessions are written
through to the database (``cached_db``), the play reads it caches are recomputed, a thinking
mark that cannot be taken makes the worker leave the turn to the next tick. So
``DegradingRedisCache`` answers a Redis that cannot be reached as an empty cache (a get
misses, a set or add stores nothing, a delete deletes nothing) and logs it once per outage;
after a failure it does not try Redis again for ``RETRY_SECONDS``, so a page does not wait for
a connection timeout on every cache call. ``incr`` and ``clear`` still raise.

The log-in limits need to know when their counters are gone (they fail closed): they use the
``counters`` alias, Redis without this forgiveness (config/throttling.py).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0  # after a failure, how long the cache is taken as empty without asking
UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)


class DegradingRedisCache(RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._down_until = 0.0  # monotonic time before which Redis is not asked
        self._down = False

    def _call(self, fallback: Any, name: str, *args: Any) -> Any:
        now = time.monotonic()
        if now < self._down_until:
            return fallback
        try:
            result = getattr(super(), name)(*args)
        except UNREACHABLE as exc:
            if not self._down:
                log.warning("cache unreachable (%s): serving without it", exc)
            self._down, self._down_until = True, now + RETRY_SECONDS
            return fallback
        if self._down:
            log.warning("cache reachable again")
            self._down = False
        return result

    def get(self, key, default=None, version=None):
        return self._call(default, "get", key, default, version)

    def get_many(self, keys, version=None):
        return self._call({}, "get_many", keys, version)

    def has_key(self, key, version=None):
        return self._call(False, "has_key", key, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(None, "set", key, value, timeout, version)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(list(data), "set_many", data, timeout, version)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(False, "add", key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call(False, "touch", key, timeout, version)

    def delete(self, key, version=None):
        return self._call(False, "delete", key, version)

    def delete_many(self, keys, version=None):
        return self._call(None, "delete_many", keys, version)
