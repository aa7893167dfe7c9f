"""play.live.threads: a socket's database work crosses to a thread once per frame (connect,
hello, act), the opponent's message none at all, nor does any message cross for Channels'
``aclose_old_connections``; on PostgreSQL the crossing is a plain
executor call on the process's own small pool (no asgiref ``SyncToAsync``, issue 31) that
keeps what the consumers need: a fresh copy of the caller's context per call, no connection
held between calls, ``async_to_sync`` back on the caller's loop, a new pool in a forked
child."""

from __future__ import annotations

import asyncio
import contextvars
import threading

import pytest
from asgiref import sync as asgiref_sync
from asgiref.sync import async_to_sync
from django.db import connection, connections

from play.live import consumers, threads

from . import test_live
from .test_live import connect, hello, run, two_people_battle

live_setup, people = test_live.live_setup, test_live.people  # the same fixtures

pytestmark = [pytest.mark.django_db(transaction=True)]
TIMEOUT = 10
on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql",
                                   reason="SQLite keeps Channels' one database thread")


def test_each_socket_frame_crosses_to_a_database_thread_once(people, monkeypatch):
    """Connecting (who, and the presence) is one crossing, a hello one, an act one; the
    opponent's message of that act is forwarded as built, with no crossing."""
    monkeypatch.setattr(consumers.GameConsumer, "poll_seconds", 600)
    monkeypatch.setattr(consumers.GameConsumer, "in_memory_poll_seconds", 600)
    b = two_people_battle(people)
    crossed: list[str] = []
    original = consumers.in_db_thread

    def counting(fn):
        crossed.append(getattr(fn, "__name__", repr(fn)))
        return original(fn)

    monkeypatch.setattr(consumers, "in_db_thread", counting)
    # every asgiref crossing made (Channels' ``aclose_old_connections`` before each message
    # was one per frame and group message; the database work's own is SQLite's only)
    made: list[object] = []
    original_init = asgiref_sync.SyncToAsync.__init__

    def counting_init(self, *args, **kwargs):
        made.append(args[0] if args else kwargs.get("func"))
        original_init(self, *args, **kwargs)

    monkeypatch.setattr(asgiref_sync.SyncToAsync, "__init__", counting_init)

    async def scenario():
        alice = await connect(b.pk, people["alice"])
        assert crossed == ["open_for_socket"]
        bob = await connect(b.pk, people["bob"])
        crossed.clear()
        await hello(alice)
        m = await hello(bob)
        assert crossed == ["own_message", "own_message"]
        crossed.clear()
        made.clear()
        await bob.send_json_to({"type": "act", "seq": 0, "action": m["legal_actions"][0]})
        mine = await bob.receive_json_from(timeout=TIMEOUT)
        theirs = await alice.receive_json_from(timeout=TIMEOUT)
        assert mine["seq"] == theirs["seq"] == 1
        assert crossed == ["act_for_socket"]  # both sockets' messages of it: no other
        await alice.receive_nothing(timeout=0.2)
        await bob.receive_nothing(timeout=0.2)  # its own group's copy arrived too
        assert len(made) == (0 if connection.vendor == "postgresql" else 1), made
        for c in (alice, bob):
            await c.disconnect()

    run(scenario)


@on_postgresql
def test_on_postgresql_a_crossing_is_a_plain_executor_call(monkeypatch):
    made = []
    original_init = asgiref_sync.SyncToAsync.__init__

    def counting_init(self, *args, **kwargs):
        made.append(args[0] if args else kwargs.get("func"))
        original_init(self, *args, **kwargs)

    monkeypatch.setattr(asgiref_sync.SyncToAsync, "__init__", counting_init)
    var: contextvars.ContextVar[str] = contextvars.ContextVar("var", default="unset")

    def work(tag: str) -> tuple[str, str, str, int]:
        seen = var.get()
        var.set(tag)  # must not leak into the next call on this thread
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            one = cursor.fetchone()[0]
        return threading.current_thread().name, seen, var.get(), one

    def held() -> bool:
        return any(c.connection is not None for c in connections.all(initialized_only=True))

    async def scenario():
        var.set("caller")
        results = [await threads.in_db_thread(work)(f"call{i}") for i in range(2 * threads.THREADS)]
        after = await threads.in_db_thread(held)()
        return results, after, var.get()

    results, after, mine = run(scenario)
    assert made == []  # no asgiref SyncToAsync on the way
    for i, (name, seen, tag, one) in enumerate(results):
        assert name.startswith("live-db") and one == 1
        assert seen == "caller" and tag == f"call{i}"  # the caller's context, a copy
    assert mine == "caller"  # nothing set in a call comes back to the caller
    assert after is False  # the connection went back to the pool at the end of each call


@on_postgresql
def test_async_to_sync_in_a_crossing_runs_on_the_callers_loop():
    async def where() -> int:
        return id(asyncio.get_running_loop())

    async def scenario():
        loop = id(asyncio.get_running_loop())
        return loop, await threads.in_db_thread(async_to_sync(where))()

    caller, inside = run(scenario)
    assert inside == caller


def test_a_forked_child_makes_its_own_pool(monkeypatch):
    first = threads._pool.executor()
    assert threads._pool.executor() is first
    monkeypatch.setattr(threads._pool, "_pid", -1)  # as in a child after fork
    second = threads._pool.executor()
    assert second is not first and threads._pool.executor() is second
