"""Tell a match's sockets that it changed (``play.signals.match_changed``, sent after commit,
in the web process or a Celery worker), for every kind with a live channel: ONE listener,
connected once (``play.apps.PlayConfig.ready``).

After actions, an undo included (the signal carries ``since``: the seq before them) the
players' messages and, for a match that may be watched and whose spectators' group was not
found empty at its last message (``watchers``), the spectators' one are built here once
(``messages.change_messages``, from the signal's ``match`` and ``snap`` when it has them)
and each is sent to its own class's group (``<kind>.<id>.french`` / ``.allied`` /
``.watch``) as text: a receiving consumer whose last message was at ``since`` forwards it
without touching the database, any other builds its own. Every other change (a join, a
resignation, a flag fall, a pause) gets a nudge with only ``seq``, ``status`` and
``paused``: each consumer builds its own viewer's message. The messages built in a socket's
own ``act`` are kept for that thread (``take_answer``): the mover's answer is its side's
message, not a second build; and so are its group sends (``deferred_sends``): the consumer
sends them from its own event loop once the database thread has returned, instead of the
thread hopping to the loop and waiting there (~9 % of a websocket action's CPU in daphne;
issue 31). A worker's or an HTTP view's change is sent as before, before the caller goes on.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from play import registry

from . import messages, watchers
from .hooks import hooks_of

log = logging.getLogger(__name__)
_pending: set = set()  # tasks in flight (a loop keeps only weak references)
_answers = threading.local()  # the Change built in this thread's last commit
_kept = threading.local()  # ``sends``: this thread's group sends kept for its caller's loop
SEND_TIMEOUT = 10.0  # seconds a sync caller waits for its change's sends (the layer's own
# waits are shorter: config.channel_layer.UNREACHABLE_SECONDS per group)


class _SenderLoop:
    """One event loop per process, on a thread of its own, for the group sends of sync code
    that has no event loop to borrow (a Celery worker's thread, a management command, the
    bench). ``async_to_sync`` there makes a new loop per call, and with it a new Redis
    connection (and redis-py's driver-info lookup): ~7 ms of CPU per action, half of an
    action's whole cost in ``bench/profile_action.py`` (issue 31). Kept here, the layer's
    connection lives as long as the process. A change's sends still finish before the
    caller goes on (``run`` waits), so each group gets its changes in order."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pid = 0

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._pid != os.getpid() or self._loop.is_closed():
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, name="live-sender",
                                 daemon=True).start()
                self._loop, self._pid = loop, os.getpid()
            return self._loop

    def run(self, coroutine) -> None:
        asyncio.run_coroutine_threadsafe(coroutine, self.loop()).result(SEND_TIMEOUT)


_sender = _SenderLoop()


def _outer_loop() -> bool:
    """Whether this thread runs for an event loop of this process (a consumer's or a
    request's ``sync_to_async``): ``async_to_sync`` then sends on that loop, no new one."""
    return (getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid()
            and getattr(SyncToAsync.threadlocal, "main_event_loop", None) is not None)


def take_answer(kind: str, match_id: int) -> messages.Change | None:
    """The change of that match built by this thread since the last call (then forgotten)."""
    change = getattr(_answers, "change", None)
    _answers.change = None
    return (change if change is not None and (change.kind, change.match_id) == (kind, match_id)
            else None)


@contextmanager
def deferred_sends() -> Iterator[list[tuple[str, dict]]]:
    """Within: the group sends of the changes this thread commits are kept, in order, in the
    list given, not sent; the caller sends them from its own event loop (``send_all``), once
    the thread's work returns (a socket's own ``act``: ``consumers.act_for_socket``)."""
    kept: list[tuple[str, dict]] = []
    outer = getattr(_kept, "sends", None)
    _kept.sends = kept
    try:
        yield kept
    finally:
        _kept.sends = outer


def on_match_changed(sender, kind: str, match_id: int, seq: int, status: str,
                     since: int | None = None, **kwargs) -> None:
    try:
        match_kind = registry.get(kind)
    except LookupError:
        return
    if hooks_of(match_kind) is None:
        return  # a kind without sockets
    layer = get_channel_layer()
    if layer is None:
        return
    change = None
    if since is not None:
        # the spectators' text only where someone may be watching (``watchers``)
        watch = messages.class_group(kind, match_id, None)
        try:
            change = messages.change_messages(kind, match_id, since, kwargs.get("match"),
                                              kwargs.get("snap"),
                                              spectators=not watchers.nobody_watching(watch))
        except Exception:  # noqa: BLE001 - the nudges below still go; consumers build their own
            log.exception("%s %s: could not build the change's messages", kind, match_id)
    _answers.change = change
    nudge = {"type": "match.changed", "seq": seq, "status": status,
             "paused": bool(kwargs.get("paused"))}  # a tournament's pause
    sends = []
    for side in (*match_kind.game.sides, None):
        group = messages.class_group(kind, match_id, side)
        if change is not None and side in change.texts:
            sends.append((group, {"type": "match.message", "seq": change.seq,
                                  "status": change.status, "since": change.since,
                                  "text": change.texts[side]}))
        else:
            sends.append((group, nudge))
    kept = getattr(_kept, "sends", None)
    if kept is not None:  # a socket's own act: its consumer sends them from its loop
        kept.extend(sends)
        return
    try:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None and (_outer_loop() or isinstance(layer, InMemoryChannelLayer)):
            # a consumer's or a request's thread (the in-memory layer's queues belong to the
            # loop of their sockets: never another one)
            async_to_sync(_send_all)(layer, sends)
        elif loop is None:  # a worker's thread: the process's sender loop
            _sender.run(_send_all(layer, sends))
        else:  # sync code on a thread that runs a loop: send once it is free
            task = loop.create_task(_send_all(layer, sends))
            _pending.add(task)
            task.add_done_callback(_pending.discard)
    except Exception:  # noqa: BLE001 - the change is saved; consumers poll as a safety net
        log.exception("%s %s: could not nudge its websocket groups", kind, match_id)


async def send_all(layer, sends: list[tuple[str, dict]]) -> None:
    """Send ``sends`` (kept by ``deferred_sends``) from the caller's event loop, in order."""
    await _send_all(layer, sends)


async def _send_all(layer, sends: list[tuple[str, dict]]) -> None:
    """Every group's message in one hop to the loop, one after the other: a worker's
    ``async_to_sync`` makes a new loop, and with it new Redis connections, per call (one
    connection then, not one per group). A layer that can (``config.channel_layer``'s
    pub/sub layer) sends them all in one round trip."""
    many = getattr(layer, "group_send_many", None)
    if many is not None:
        receivers = await many(sends)
        if receivers:  # who got each message: an empty spectators' group gets no text next
            watchers.heard(receivers)
        return
    for group, message in sends:
        await layer.group_send(group, message)
