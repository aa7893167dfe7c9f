"""``ws/battles/<id>/``: one battle, live, for a player (their side's view) or, for a public
battle, a spectator (nobody's side).

Protocol (JSON text frames; every battle message carries the battle's ``seq``):

* client ``{"type": "hello", "since": n}`` on connect, on reconnect and whenever it sees a gap
  → server ``{"type": "battle", "seq", "status", "events": [events after n, filtered for the
  viewer], "since": n, ...the viewer's battle view (as ``GET /api/battles/<id>/?since=n``)}``.
* client ``{"type": "act", "seq": n, "action": {...}}`` → ``services.act`` (same checks as
  the POST API); a refusal is ``{"type": "error", "code", "detail", "seq"}``, a success is
  followed by the viewer's battle message.
* whenever the battle changes (``signals.battle_changed`` nudges the group ``battle.<id>``
  with its ``seq``, from the web process or a worker) each consumer sends its own viewer the
  events after what it last sent. Safety net (a lost nudge, the in-memory layer while a
  worker is another process): every ``POLL_SECONDS`` (1 s on the in-memory layer) each
  consumer reads the battle's ``(seq, status)`` and sends if it moved.

Refusals at connect: the socket is accepted then closed with 4403, alike for no such battle
and for a private battle the user does not play (its existence stays private).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import InMemoryChannelLayer
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, connections

from battles import services
from battles.presence import TOUCH_EVERY
from config.errors import ServiceError

from . import messages

log = logging.getLogger(__name__)

# The safety net's period (EAGLES_LIVE_POLL_SECONDS: a test sets it long, to see that the
# Redis layer alone carries a change from one process to another).
POLL_SECONDS = float(os.environ.get("EAGLES_LIVE_POLL_SECONDS", "3"))
IN_MEMORY_POLL_SECONDS = min(1.0, POLL_SECONDS)
CLOSE_REFUSED = 4403  # no such battle, or a private one the user does not play
LIVE_STATUSES = ("waiting", "active")  # a battle that may still change
MAX_FRAME = 16_000  # a hello or an action is small; anything bigger is refused


def _db(fn):
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


def _error(code: str, detail: str, seq=None) -> dict:
    return {"type": "error", "code": code, "detail": detail, "seq": seq}


class BattleConsumer(AsyncJsonWebsocketConsumer):
    poll_seconds = POLL_SECONDS
    # The in-memory layer (``make run``) never hears a worker's moves (another process): the
    # poll is then the only way the computer's moves arrive, as often as the old page polling.
    in_memory_poll_seconds = IN_MEMORY_POLL_SECONDS

    async def connect(self):
        self.viewer = None
        self.sent: tuple[int, str, bool] | None = None  # (seq, status, paused) last sent
        self.lock = asyncio.Lock()
        self.poller: asyncio.Task | None = None
        raw = self.scope["url_route"]["kwargs"]["battle_id"]
        await self.accept()
        try:
            self.viewer = await _db(messages.viewer_for)(
                self.scope.get("user"), raw)
        except ServiceError:
            await self.close(code=CLOSE_REFUSED)
            return
        await _db(messages.present)(self.viewer)  # a player at the battle (battles/presence.py)
        # presence.touch writes at most every TOUCH_EVERY s: the poll asks again only then
        # (not one query per socket per round).
        self.touched = asyncio.get_running_loop().time()
        self.group = messages.group_name(self.viewer.battle_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.poller = asyncio.create_task(self._poll())

    async def disconnect(self, code):
        if self.poller is not None:
            self.poller.cancel()
        if self.viewer is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    @classmethod
    async def encode_json(cls, content):
        return json.dumps(content, cls=DjangoJSONEncoder, separators=(",", ":"))

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if self.viewer is None:
            return
        if not text_data or len(text_data) > MAX_FRAME:
            await self.send_json(_error("bad_input", "send one JSON object as text"))
            return
        try:
            content = json.loads(text_data)
        except ValueError:
            await self.send_json(_error("bad_input", "not JSON"))
            return
        if not isinstance(content, dict):
            await self.send_json(_error("bad_input", "send a JSON object with a type"))
            return
        await self.receive_json(content)

    async def receive_json(self, content, **kwargs):
        kind = content.get("type")
        if kind == "hello":
            since = content.get("since", 0)
            if type(since) is not int or since < 0:
                await self.send_json(_error("bad_input", "since must be a whole number (a seq)"))
                return
            await self._send_battle(since=since)
        elif kind == "act":
            await self._act(content.get("seq"), content.get("action"))
        else:
            await self.send_json(_error("bad_input", 'type must be "hello" or "act"'))

    async def _act(self, seq, action) -> None:
        if self.viewer.side is None:
            await self.send_json(_error("not_allowed", "spectators cannot act", seq))
            return
        try:
            await _db(services.act)(
                self.viewer.battle_id, self.viewer.user, seq, action)
        except ServiceError as exc:
            await self.send_json(_error(exc.code, exc.message, exc.extra.get("seq", seq)))
            return
        await self._send_battle()

    async def battle_changed(self, event):
        """The group's nudge: send what is new, if this viewer has not had it yet."""
        await self._send_battle(seen=(event.get("seq"), event.get("status"),
                                      bool(event.get("paused"))))

    async def _poll(self) -> None:
        every = (self.in_memory_poll_seconds if isinstance(self.channel_layer, InMemoryChannelLayer)
                 else self.poll_seconds)
        while True:
            await asyncio.sleep(min(every, self.poll_seconds))
            try:
                now = await _db(messages.current)(self.viewer.battle_id)
                clock = asyncio.get_running_loop().time()
                if self.viewer.side is not None and clock - self.touched >= TOUCH_EVERY:
                    self.touched = clock
                    await _db(messages.present)(self.viewer)
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("battle %s: live poll failed", self.viewer.battle_id)
                continue
            if now is not None and self.sent is not None and tuple(now) != self.sent[:2]:
                await self._send_battle(seen=now)
            if now is None or now[1] not in LIVE_STATUSES:
                return  # over (or gone): nothing more will change

    async def _send_battle(self, since: int | None = None, seen=None) -> None:
        """Send the viewer's battle message: after ``since`` (a hello), or after what was last
        sent when the battle moved past it (``seen``: the nudge's or the poll's seq, status)."""
        async with self.lock:
            asked = since is not None  # a hello is always answered
            if not asked:
                if self.sent is None:
                    return  # no hello yet: the client asks for what it needs first
                if seen is not None and (seen[0] < self.sent[0]
                                         or tuple(seen) == self.sent[:len(seen)]):
                    return  # already sent (a nudge after the action's own answer, or late)
                since = self.sent[0]
            msg = await _db(messages.battle_message)(self.viewer, since)
            # (seq, status, paused): a tournament's pause changes neither seq nor status
            mark = (msg["seq"], msg["status"], bool(msg.get("paused")))
            if not asked and mark == self.sent:
                return  # nothing new after all
            self.sent = mark
            await self.send_json(msg)
