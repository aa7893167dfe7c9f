"""The safety net of the websockets, one per process (event loop) and kind of match rather
than one per socket.

A nudge can be lost (a Redis hiccup), and with the in-memory layer (``make run``) a worker's
changes never reach the web process at all. So every ``period`` seconds ONE query reads the
``(seq, status, ...)`` of every match of a kind with an open socket in this process
(``messages.current``); a socket whose match moved past what it last sent builds and sends
the change. For a kind that keeps presence (``LiveHooks.presence``: battles and campaigns,
``play/presence.py``) the same rows also write the players' last visit for the sockets
whose last write is ``Presence.every`` old (no read per socket). Before: every socket read
its match every 3 s (400 sockets: ~130 queries/s) and a battle socket its presence every 10 s.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from play import registry

from . import messages
from .hooks import live_hooks
from .threads import in_db_thread

log = logging.getLogger(__name__)
LIVE_STATUSES = ("waiting", "active")  # a match that may still change
# event loop -> {kind of match: its poller on that loop}
_pollers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class Poller:
    """The matches of one kind with open sockets on one event loop, checked together every
    ``period``. A consumer has ``viewer`` (``messages.Viewer``), ``touched`` (the loop's
    clock at its last presence write) and ``polled((seq, status) | None)``."""

    def __init__(self, kind: str, period: float):
        self.kind = kind
        self.period = period
        self.presence = live_hooks(registry.get(kind)).presence
        self.sockets: dict[int, set] = {}  # match id -> its consumers here
        self.task: asyncio.Task | None = None

    def read(self, match_ids: list[int]) -> dict[int, tuple]:
        """Each match's ``(seq, status, ...)`` in one query (run in a database thread)."""
        return messages.current(self.kind, match_ids)

    def due(self, match_id: int, row: tuple, consumer, clock: float):
        """The presence write this round owes ``consumer`` (None: nothing)."""
        side = consumer.viewer.side
        if self.presence is None or side is None or \
                clock - consumer.touched < self.presence.every:
            return None
        consumer.touched = clock  # the kind writes at most every ``presence.every`` s
        return (match_id, side, row)

    def write(self, due: list) -> None:
        """This round's presence writes, from the rows (run in a database thread)."""
        messages.present_many(self.kind, due)

    def add(self, consumer) -> None:
        self.sockets.setdefault(consumer.viewer.match_id, set()).add(consumer)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    def discard(self, consumer) -> None:
        key = consumer.viewer.match_id
        group = self.sockets.get(key)
        if group is not None:
            group.discard(consumer)
            if not group:
                del self.sockets[key]

    async def _run(self) -> None:
        while self.sockets:
            await asyncio.sleep(self.period)
            try:
                await self.check()
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("live poll of %s failed", self.kind)

    async def check(self) -> None:
        """One round: one query for all matches, then each socket whose match moved sends (or
        stops being polled once its match is over), then the writes due (``write``)."""
        if not self.sockets:
            return
        rows = await in_db_thread(self.read)(list(self.sockets))
        clock = asyncio.get_running_loop().time()
        due = []
        for match_id, group in list(self.sockets.items()):
            row = rows.get(match_id)
            for consumer in list(group):
                if row is not None:
                    item = self.due(match_id, row, consumer, clock)
                    if item is not None:
                        due.append(item)
                consumer.polled(None if row is None else row[:2])
                if row is None or row[1] not in LIVE_STATUSES:
                    self.discard(consumer)  # over (or gone): nothing more will change
        if due:
            await in_db_thread(self.write)(due)


def poller_for(period: float, kind: str) -> Poller:
    """This event loop's poller of ``kind`` (made with ``period`` the first time)."""
    loop = asyncio.get_running_loop()
    mine = _pollers.setdefault(loop, {})
    poller = mine.get(kind)
    if poller is None:
        poller = mine[kind] = Poller(kind, period)
    return poller
