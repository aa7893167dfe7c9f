"""The safety net of the websockets, one per process (event loop) and kind of game rather
than one per socket.

A nudge can be lost (a Redis hiccup), and with the in-memory layer (``make run``) a worker's
changes never reach the web process at all. So every ``period`` seconds ONE query reads the
``(seq, status, ...)`` of every game with an open socket in this process; a socket whose game
moved past what it last sent builds and sends the change. ``Poller`` is that loop for any
kind of game (a subclass names the game a socket watches and reads the rows);
``BattlePoller`` also writes the players' presence (``battles/presence.py``) for the sockets
whose last visit is ``TOUCH_EVERY`` old, from the same rows (no read per socket); the
campaign sockets use ``campaigns.live.consumers.CampaignPoller``. Before: every socket read
its game every 3 s (400 sockets: ~130 queries/s) and a battle socket its presence every 10 s.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from battles.presence import TOUCH_EVERY

from . import messages
from .threads import in_db_thread

log = logging.getLogger(__name__)
LIVE_STATUSES = ("waiting", "active")  # a game that may still change
# event loop -> {kind of poller: its poller on that loop}
_pollers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class Poller:
    """The games with open sockets on one event loop, checked together every ``period``.

    A subclass gives ``key`` (the game a consumer watches) and ``read`` (one query: each
    game's row, ``(seq, status, ...)``); a consumer has ``polled((seq, status) | None)``."""

    def __init__(self, period: float):
        self.period = period
        self.sockets: dict[int, set] = {}  # game id -> its consumers here
        self.task: asyncio.Task | None = None

    def key(self, consumer) -> int:
        raise NotImplementedError

    def read(self, game_ids: list[int]) -> dict[int, tuple]:
        """Each game's ``(seq, status, ...)`` in one query (run in a database thread)."""
        raise NotImplementedError

    def due(self, game_id: int, row: tuple, consumer, clock: float):
        """What this round has to ``write`` for ``consumer`` (None: nothing)."""
        return None

    def write(self, due: list) -> None:
        """This round's writes, from the rows (run in a database thread)."""

    def add(self, consumer) -> None:
        self.sockets.setdefault(self.key(consumer), set()).add(consumer)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())

    def discard(self, consumer) -> None:
        group = self.sockets.get(self.key(consumer))
        if group is not None:
            group.discard(consumer)
            if not group:
                del self.sockets[self.key(consumer)]

    async def _run(self) -> None:
        while self.sockets:
            await asyncio.sleep(self.period)
            try:
                await self.check()
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("live poll failed")

    async def check(self) -> None:
        """One round: one query for all games, then each socket whose game moved sends (or
        stops being polled once its game is over), then the writes due (``write``)."""
        if not self.sockets:
            return
        rows = await in_db_thread(self.read)(list(self.sockets))
        clock = asyncio.get_running_loop().time()
        due = []
        for game_id, group in list(self.sockets.items()):
            row = rows.get(game_id)
            for consumer in list(group):
                if row is not None:
                    item = self.due(game_id, row, consumer, clock)
                    if item is not None:
                        due.append(item)
                consumer.polled(None if row is None else row[:2])
                if row is None or row[1] not in LIVE_STATUSES:
                    self.discard(consumer)  # over (or gone): nothing more will change
        if due:
            await in_db_thread(self.write)(due)


class BattlePoller(Poller):
    """The battles' poller: rows ``(seq, status, seen)``, and the players' presence."""

    def key(self, consumer) -> int:
        return consumer.viewer.battle_id

    def read(self, game_ids: list[int]) -> dict[int, tuple]:
        return messages.current(game_ids)

    def due(self, game_id: int, row: tuple, consumer, clock: float):
        side = consumer.viewer.side
        if side is None or clock - consumer.touched < TOUCH_EVERY:
            return None
        consumer.touched = clock  # presence.touch writes at most every TOUCH_EVERY s
        return (game_id, side, row[1], row[2])

    def write(self, due: list) -> None:
        messages.present_many(due)


def poller_for(period: float, kind: type[Poller] = BattlePoller) -> Poller:
    """This event loop's poller of ``kind`` (made with ``period`` the first time)."""
    loop = asyncio.get_running_loop()
    mine = _pollers.setdefault(loop, {})
    poller = mine.get(kind)
    if poller is None:
        poller = mine[kind] = kind(period)
    return poller
