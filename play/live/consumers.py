"""``ws/games/<kind>/<id>/`` (and the older ``ws/battles/<id>/``, ``ws/campaigns/<id>/``, the
same consumer: ``routing``): one match of any kind, live, for a player (their side's view) or,
for a match anyone may watch, a spectator (nobody's side).

Protocol (JSON text frames, ``protocol``; every message carries the match's ``seq``):

* client ``{"type": "hello", "since": n}`` on connect, on reconnect and whenever it sees a gap
  → server ``{"type": <kind>, "seq", "status", "events": [events after n, filtered for the
  viewer], "since": n, "my_side", ...the viewer's view (as the kind's ``GET
  /api/<kind>s/<id>/?since=n``)}``.
* client ``{"type": "act", "seq": n, "action": {...}}`` → the kind's service ``act`` (same
  checks as the POST API); a refusal is ``{"type": "error", "code", "detail", "seq"}``, a
  success is followed by the viewer's message.
* whenever the match changes (``play.signals.match_changed``, from the web process or a
  worker) ``notify`` sends each viewer class's group (``<kind>.<id>.french``, ``.allied``,
  ``.watch``) either that class's message of the change, built once (forwarded as it is when
  this socket's last message was at its ``since``), or a nudge with its ``seq`` (the consumer
  builds the events after what it last sent). Safety net (a lost nudge, the in-memory layer
  while a worker is another process): every ``POLL_SECONDS`` (1 s on the in-memory layer)
  one query per process and kind reads the ``(seq, status)`` of every match with an open
  socket there (``poller``) and a socket sends if its match is still past what it sent a
  round later (``polled``: a message in flight is not built twice; at once on the in-memory
  layer).

Refusals at connect: the socket is accepted then closed with 4403, alike for no such match
(or kind) and for a private one the user may not look at (its existence stays private).
"""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass
from typing import Any

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import InMemoryChannelLayer

from config.errors import ServiceError

from . import messages, notify, watchers
from .poller import LIVE_STATUSES, poller_for
from .protocol import HelloActFrames, error
from .threads import in_db_thread

log = logging.getLogger(__name__)

# The safety net's period (EAGLES_LIVE_POLL_SECONDS: a test sets it long, to see that the
# Redis layer alone carries a change from one process to another).
POLL_SECONDS = float(os.environ.get("EAGLES_LIVE_POLL_SECONDS", "3"))
IN_MEMORY_POLL_SECONDS = min(1.0, POLL_SECONDS)
CLOSE_REFUSED = 4403  # no such match, or a private one the user may not look at


@dataclass
class Acted:
    """A socket's ``act`` as its database thread saw it: the change's messages built on its
    commit (``notify``, None if none), its group sends kept for the consumer's own loop
    (``notify.deferred_sends``: sent even when the act was refused after a commit, a flag
    fall) and the refusal or error, if any."""

    change: messages.Change | None
    sends: list[tuple[str, dict]]
    error: Exception | None = None


def act_for_socket(viewer: messages.Viewer, seq, action) -> Acted:
    """The kind's ``act`` for a socket's player: returns the change's messages built on its
    commit (``notify``, in this thread), so the answer is not built a second time, and the
    group sends of its commits, which the consumer makes from its own loop."""
    _, hooks = messages.live_kind(viewer.kind)
    notify.take_answer(viewer.kind, viewer.match_id)  # nothing left over from an earlier call
    with notify.deferred_sends() as sends:
        try:
            hooks.act(viewer.match_id, viewer.user, seq, action)
        except Exception as exc:  # noqa: BLE001 - raised by the consumer once the sends went
            return Acted(None, sends, exc)
    return Acted(notify.take_answer(viewer.kind, viewer.match_id), sends)


def open_for_socket(kind: str, user, match_id: int) -> messages.Viewer:
    """Who the socket's user is at that match (``ServiceError``: refused) and their presence
    there (a kind's presence), in one crossing to a database thread."""
    viewer = messages.viewer_for(kind, user, match_id)
    messages.present(viewer)
    return viewer


def _caught_up(sent: tuple, behind: tuple) -> bool:
    """Whether a socket that last sent ``sent`` (seq, status, ...) has had the change it was
    seen behind at (``behind``: the match's seq, status then), or a later one."""
    return sent[0] > behind[0] or tuple(sent[:2]) == tuple(behind)


class GameConsumer(HelloActFrames, AsyncJsonWebsocketConsumer):
    poll_seconds = POLL_SECONDS
    # The in-memory layer (``make run``) never hears a worker's moves (another process): the
    # poll is then the only way the computer's moves arrive, as often as the old page polling.
    in_memory_poll_seconds = IN_MEMORY_POLL_SECONDS

    viewer: Any  # the socket's messages.Viewer once connected (None before)

    async def connect(self):
        self.viewer = None
        self.sent: tuple[int, str, bool] | None = None  # (seq, status, paused) last sent
        self.behind: tuple[int, str] | None = None  # the match when a poll saw it ahead
        self.lock = asyncio.Lock()
        self.poller = None
        self.tasks: set[asyncio.Task] = set()
        route = self.scope["url_route"]["kwargs"]
        await self.accept()
        try:
            self.viewer = await in_db_thread(open_for_socket)(
                route["kind"], self.scope.get("user"), route["match_id"])
        except ServiceError:
            await self.close(code=CLOSE_REFUSED)
            return
        # A side's presence is written at most every ``Presence.every`` s: the poller asks
        # again only then.
        self.touched = asyncio.get_running_loop().time()
        # Only this viewer class's group: a message built for one side never comes here.
        self.group = messages.class_group(self.viewer.kind, self.viewer.match_id,
                                          self.viewer.side)
        await self.channel_layer.group_add(self.group, self.channel_name)
        if self.viewer.side is None:  # a spectator here: this process builds their text again
            watchers.joined(self.group)
        every = (self.in_memory_poll_seconds
                 if isinstance(self.channel_layer, InMemoryChannelLayer) else self.poll_seconds)
        self.poller = poller_for(min(every, self.poll_seconds), self.viewer.kind)
        self.poller.add(self)

    async def disconnect(self, code):
        if self.poller is not None:
            self.poller.discard(self)
        for task in self.tasks:
            task.cancel()
        if self.viewer is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def dispatch(self, message):
        """Channels' ``dispatch`` without its ``aclose_old_connections`` before every message:
        that is a crossing to Channels' one shared sync thread per frame and per group
        message (the mover's frame, its own group's copy, the opponent's message: three per
        action, issue 31) to close connections this consumer never holds. Its database work
        is all in ``in_db_thread``, which gives each connection back itself (PostgreSQL's
        pool) or closes old ones around each call (Channels' ``database_sync_to_async``)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    @classmethod
    async def encode_json(cls, content):
        return messages.encode(content)

    async def answer_hello(self, since: int) -> None:
        await self._send_own(since=since)

    async def _act(self, seq, action) -> None:
        if self.viewer.side is None:
            await self.send_json(error("not_allowed", "spectators cannot act", seq))
            return
        acted = await in_db_thread(act_for_socket)(self.viewer, seq, action)
        if acted.sends:  # the change's group messages, from this loop: no hop from the thread
            try:
                await notify.send_all(self.channel_layer, acted.sends)
            except Exception:  # noqa: BLE001 - the change is saved; the poll is the safety net
                log.exception("%s %s: could not send to its websocket groups",
                              self.viewer.kind, self.viewer.match_id)
        if isinstance(acted.error, ServiceError):
            exc = acted.error
            await self.send_json(error(exc.code, exc.message, exc.extra.get("seq", seq)))
            return
        if acted.error is not None:
            raise acted.error
        change = acted.change
        if change is not None and await self._forward(change.since, change.seq, change.status,
                                                      change.texts.get(self.viewer.side)):
            return
        await self._send_own()

    async def match_changed(self, event):
        """A nudge: send what is new, if this viewer has not had it yet."""
        await self._send_own(seen=(event.get("seq"), event.get("status"),
                                   bool(event.get("paused"))))

    async def match_message(self, event):
        """This viewer class's message of a change (a side's, or the spectators'), built once
        by the committing process: forwarded as it is if it follows what this socket last
        sent, else this socket builds its own."""
        if not await self._forward(event["since"], event["seq"], event["status"],
                                   event["text"]):
            await self._send_own(seen=(event["seq"], event["status"]))

    # What a process of the previous release sends to the same groups (a rolling restart).
    battle_changed = campaign_changed = match_changed
    battle_message = match_message

    async def _forward(self, since: int, seq: int, status: str, text: str | None) -> bool:
        """Send ``text`` (the change after ``since`` up to ``seq``) if this socket's last
        message was at ``since``; True when sent or already had, False when it does not fit."""
        async with self.lock:
            if self.sent is None:
                return True  # no hello yet: the client asks for what it needs first
            if seq < self.sent[0] or (seq, status) == self.sent[:2]:
                return True  # already sent
            if text is None or self.sent[0] != since:
                return False
            self.sent = (seq, status, False)  # an action's message: never while paused
            await self.send(text_data=text)
            return True

    def polled(self, now: tuple[int, str] | None) -> None:
        """The poller's round (``poller``): send if the match moved past what was sent and
        the change's own message had a whole round to come and did not. A message merely in
        flight (queued in Redis, or behind other sockets' work on this loop) is not built
        again: when the servers fall behind, every round found most sockets "behind" and
        each built its own message, which the change's prebuilt text then no longer fit, so
        the work grew with the lag and the lag with the work (issue 31, 1,000 battles). A
        lost message is still sent, one round later. On the in-memory layer (``make run``)
        the poll is the only way a worker's moves arrive: sent at once there; and so is a
        match that is over (the poller stops polling it after this round)."""
        if now is None or self.sent is None:
            return
        now = (now[0], now[1])  # the poll's row slice (seq, status), as a tuple
        if now == self.sent[:2]:
            self.behind = None
            return
        before, self.behind = self.behind, now
        immediate = (isinstance(self.channel_layer, InMemoryChannelLayer)
                     or now[1] not in LIVE_STATUSES)
        if not immediate and (before is None or _caught_up(self.sent, before)):
            return  # behind since this round only: its message may be on its way
        self.behind = None
        task = asyncio.get_running_loop().create_task(self._send_own(seen=now))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _send_own(self, since: int | None = None, seen=None) -> None:
        """Build and send the viewer's message: after ``since`` (a hello), or after what was
        last sent when the match moved past it (``seen``: the nudge's or the poll's seq,
        status)."""
        async with self.lock:
            asked = since is not None  # a hello is always answered
            if not asked:
                if self.sent is None:
                    return  # no hello yet: the client asks for what it needs first
                if seen is not None and (seen[0] < self.sent[0]
                                         or tuple(seen) == self.sent[:len(seen)]):
                    return  # already sent (a nudge after the action's own answer, or late)
                since = self.sent[0]
            viewer, msg = await in_db_thread(messages.own_message)(self.viewer, since)
            if viewer != self.viewer:
                await self._change_class(viewer)
            # (seq, status, paused): a tournament's pause changes neither seq nor status
            mark = (msg["seq"], msg["status"], bool(msg.get("paused")))
            if not asked and mark == self.sent:
                return  # nothing new after all
            self.sent = mark
            await self.send_json(msg)

    async def _change_class(self, viewer: messages.Viewer) -> None:
        """The user now plays a side (an invitee who watched before joining): this socket
        leaves the spectators' group for that side's."""
        await self.channel_layer.group_discard(self.group, self.channel_name)
        self.viewer = viewer
        self.group = messages.class_group(viewer.kind, viewer.match_id, viewer.side)
        await self.channel_layer.group_add(self.group, self.channel_name)
