"""Database work of the websocket consumers, off the event loop.

On PostgreSQL a call crosses to a small pool of this process's own threads by a plain
``loop.run_in_executor`` (issue 31). asgiref's ``sync_to_async`` (Channels'
``database_sync_to_async``) did the same crossing with much more around it, per call: a
``shield``ed future, the whole context copied and every ``contextvars`` variable compared
and set again on the way in and on the way out (each asgiref ``Local`` re-homed, a new
object each), and ``close_old_connections`` over every connection before and after; with
the loop's default executor (six threads on two cores) as the pool. In a profile of uvicorn
at 200 live battles those hand-offs were a visible part of the web process's CPU. What the
consumers' work needs of it is kept:

* the context: each call runs in a copy of the caller's (``contextvars.copy_context``), so
  nothing a call sets leaks into the next call on that thread;
* the database: a connection is taken from Django's pool (``settings``: PostgreSQL's
  ``OPTIONS["pool"]``) by the call's first query and given back at its end
  (``connections.close_all``, as before). A thread therefore holds no connection between
  calls, and ``close_old_connections`` before a call, which only looks at connections held,
  had nothing to do;
* ``async_to_sync`` in a call still runs on the caller's event loop (asgiref's thread-local
  ``main_event_loop``, which ``play.live.notify`` also reads): the in-memory layer's queues
  belong to that loop.

SQLite keeps Channels' default: one shared thread (SQLite serialises writers anyway; the
tests' in-memory database and its connection live there).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from channels.db import database_sync_to_async
from django.db import connection, connections

# Threads of the pool, per process. The work is short and mostly waits for PostgreSQL; a few
# threads let sockets not queue behind one another's queries, while each extra thread on a
# two-core machine only adds wake-ups and GIL hand-offs. At most this many of the process's
# pooled connections (``settings``: max_size 10) are held by the sockets at once.
THREADS = int(os.environ.get("EAGLES_LIVE_DB_THREADS", "4"))


class _Pool:
    """The process's pool of database threads, made on first use and made again in a forked
    child (the parent's threads are not there: work given to them would wait for ever)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        self._pid = 0

    def executor(self) -> ThreadPoolExecutor:
        executor = self._executor
        if executor is not None and self._pid == os.getpid():
            return executor
        with self._lock:
            if self._executor is None or self._pid != os.getpid():
                self._executor = ThreadPoolExecutor(max_workers=THREADS,
                                                    thread_name_prefix="live-db")
                self._pid = os.getpid()
            return self._executor


_pool = _Pool()


def _in_thread(loop: asyncio.AbstractEventLoop, pid: int, fn: Callable, args: tuple,
               kwargs: dict) -> Any:
    """``fn`` on a pool thread (within the caller's copied context)."""
    local = SyncToAsync.threadlocal
    # async_to_sync in ``fn`` goes back to the caller's loop, as under sync_to_async
    local.main_event_loop, local.main_event_loop_pid = loop, pid
    try:
        return fn(*args, **kwargs)
    finally:  # the connection back to the pool now: nothing held between calls
        connections.close_all()


def hop(fn: Callable, *args, **kwargs) -> Awaitable:
    """One crossing from the event loop to a database thread: ``fn(*args, **kwargs)`` there
    (every ``in_db_thread`` call goes through here; a test counts them)."""
    if connection.vendor == "sqlite":
        return database_sync_to_async(fn)(*args, **kwargs)
    loop = asyncio.get_running_loop()
    return loop.run_in_executor(
        _pool.executor(), contextvars.copy_context().run, _in_thread, loop, os.getpid(), fn,
        args, kwargs)


def in_db_thread(fn: Callable) -> Callable[..., Awaitable]:
    """``fn`` run in a worker thread with database access. On PostgreSQL each call may take any
    thread of the pool (sockets do not queue behind one another's queries); SQLite keeps
    Channels' default, one shared thread."""
    return functools.partial(hop, fn)
