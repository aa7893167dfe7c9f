"""The live safety net does not build a message that is merely in flight (issue 31: at 1,000
battles every poll round found most sockets "behind" a change whose prebuilt message was
still queued, and each built its own, so the servers' work grew with their lag). A socket is
rebuilt only when a round finds it still behind the change an earlier round saw; a message
that arrives meanwhile means no build at all; the in-memory layer (``make run``, where the
poll is the only way a worker's moves arrive) and a match that is over (its last round) build
at once."""

from __future__ import annotations

import asyncio

from channels.layers import InMemoryChannelLayer

from play.live.consumers import GameConsumer


def consumer(layer) -> tuple[GameConsumer, list]:
    """A consumer as ``connect`` leaves it, whose builds are recorded, not made."""
    c = object.__new__(GameConsumer)
    c.channel_layer, c.sent, c.behind, c.tasks = layer, (3, "active", False), None, set()
    built: list = []

    async def send_own(since=None, seen=None):
        built.append(seen)
        c.sent = (*seen, False)

    c._send_own = send_own
    return c, built


async def rounds(c, *seen) -> None:
    for now in seen:
        c.polled(now)
        await asyncio.sleep(0)  # the build's task, if any, runs
        await asyncio.gather(*c.tasks)


class RedisLike:
    """Any layer but the in-memory one (the Redis layers carry every change)."""


def test_a_socket_behind_for_one_round_only_is_not_built():
    c, built = consumer(RedisLike())
    asyncio.run(rounds(c, (4, "active")))
    assert built == []  # its message may be on its way
    c.sent = (4, "active", False)  # ... and it came
    asyncio.run(rounds(c, (5, "active")))  # a newer change, seen once
    assert built == []


def test_a_socket_still_behind_a_round_later_is_built_once():
    c, built = consumer(RedisLike())
    asyncio.run(rounds(c, (4, "active"), (4, "active")))
    assert built == [(4, "active")]  # lost: sent one round later
    asyncio.run(rounds(c, (4, "active"), (4, "active")))
    assert built == [(4, "active")]  # and only once


def test_a_newer_change_does_not_hide_an_older_lost_one():
    c, built = consumer(RedisLike())
    asyncio.run(rounds(c, (4, "active"), (6, "active")))  # still at 3: 4 never came
    assert built == [(6, "active")]


def test_a_status_change_without_a_new_seq_is_waited_for_too():
    c, built = consumer(RedisLike())
    c.sent = (3, "waiting", False)
    asyncio.run(rounds(c, (3, "active")))
    assert built == []
    asyncio.run(rounds(c, (3, "active")))
    assert built == [(3, "active")]


def test_a_match_over_is_built_at_once():
    """The poller stops polling a match that is over after this round: no round later."""
    c, built = consumer(RedisLike())
    asyncio.run(rounds(c, (3, "finished")))
    assert built == [(3, "finished")]


def test_the_in_memory_layer_builds_at_once():
    c, built = consumer(InMemoryChannelLayer())
    asyncio.run(rounds(c, (4, "active")))
    assert built == [(4, "active")]


def test_nothing_before_a_hello_or_when_nothing_moved():
    c, built = consumer(RedisLike())
    asyncio.run(rounds(c, (3, "active"), (3, "active"), None))
    c.sent = None
    asyncio.run(rounds(c, (4, "active"), (4, "active")))
    assert built == []
