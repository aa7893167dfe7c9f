"""Database work of the websocket consumers, off the event loop."""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.db import connection, connections


def in_db_thread(fn):
    """``fn`` run in a worker thread with database access. On PostgreSQL each call may take any
    thread of the pool (sockets do not queue behind one another's queries); SQLite keeps
    Channels' default, one shared thread (it serialises writers anyway)."""
    if connection.vendor == "sqlite":
        return database_sync_to_async(fn)

    def pooled(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        finally:  # back to the pool now: the pool's threads come and go with event loops
            connections.close_all()

    return database_sync_to_async(pooled, thread_sensitive=False)
