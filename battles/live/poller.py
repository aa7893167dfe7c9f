"""The safety net of the websockets, one per process (event loop) rather than one per socket.

A nudge can be lost (a Redis hiccup), and with the in-memory layer (``make run``) a worker's
changes never reach the web process at all. So every ``period`` seconds ONE query reads the
``(seq, status, seen)`` of every battle with an open socket in this process; a socket whose
battle moved past what it last sent builds and sends the change, and the players' presence
(``battles/presence.py``) is written for the sockets whose last visit is ``TOUCH_EVERY`` old,
from the same rows (no read per socket). Before: every socket read its battle every 3 s
(400 sockets: ~130 queries/s) and its presence every 10 s.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from battles.presence import TOUCH_EVERY

from . import messages
from .threads import in_db_thread

log = logging.getLogger(__name__)
LIVE_STATUSES = ("waiting", "active")  # a battle that may still change
_pollers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # event loop -> Poller


class Poller:
    """The battles with open sockets on one event loop, checked together every ``period``."""

    def __init__(self, period: float):
        self.period = period
        self.sockets: dict[int, set] = {}  # battle id -> its consumers here
        self.task: asyncio.Task | None = None

    def add(self, consumer) -> None:
        self.sockets.setdefault(consumer.viewer.battle_id, set()).add(consumer)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    def discard(self, consumer) -> None:
        group = self.sockets.get(consumer.viewer.battle_id)
        if group is not None:
            group.discard(consumer)
            if not group:
                del self.sockets[consumer.viewer.battle_id]

    async def _run(self) -> None:
        while self.sockets:
            await asyncio.sleep(self.period)
            try:
                await self.check()
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("live poll failed")

    async def check(self) -> None:
        """One round: one query for all battles, presence for the players due, then each
        socket whose battle moved sends (or stops being polled once its battle is over)."""
        if not self.sockets:
            return
        rows = await in_db_thread(messages.current)(list(self.sockets))
        clock = asyncio.get_running_loop().time()
        due = []
        for battle_id, group in list(self.sockets.items()):
            row = rows.get(battle_id)
            for consumer in list(group):
                side = consumer.viewer.side
                if row is not None and side is not None and \
                        clock - consumer.touched >= TOUCH_EVERY:
                    consumer.touched = clock
                    due.append((battle_id, side, row[1], row[2]))
                consumer.polled(None if row is None else row[:2])
                if row is None or row[1] not in LIVE_STATUSES:
                    self.discard(consumer)  # over (or gone): nothing more will change
        if due:
            await in_db_thread(messages.present_many)(due)


def poller_for(period: float) -> Poller:
    """This event loop's poller (made with ``period`` the first time)."""
    loop = asyncio.get_running_loop()
    poller = _pollers.get(loop)
    if poller is None:
        poller = _pollers[loop] = Poller(period)
    return poller
