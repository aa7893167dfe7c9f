"""``ws/campaigns/<id>/``: one campaign, live, for a player (their side's view of both
boards) or, for a public campaign, a spectator (nobody's side). The same protocol as
``ws/battles/<id>/`` (``battles/live/consumers.py``):

* client ``{"type": "hello", "since": n}`` on connect, on reconnect and whenever it sees a gap
  → server ``{"type": "campaign", "seq", "status", "events": [events after n, filtered for
  the viewer], "since": n, ...the viewer's campaign view (as ``GET /api/campaigns/<id>/``)}``.
* client ``{"type": "act", "seq": n, "action": {...}}`` → ``campaigns.services.act`` (the
  POST API's checks and messages: 409 ``stale_seq``, not your move, 400 ``illegal_action``);
  a refusal is ``{"type": "error", "code", "detail", "seq"}``, a success is followed by the
  viewer's campaign message.
* whenever the campaign changes (``signals.campaign_changed`` nudges the group
  ``campaign.<id>`` with its ``seq``, from the web process or a worker) each consumer sends
  its own viewer the events after what it last sent. Safety net: every ``POLL_SECONDS``
  (1 s on the in-memory layer, where a worker's nudges never arrive) one query per process
  reads the ``(seq, status)`` of every campaign with an open socket there (``CampaignPoller``,
  the battles' ``live.poller``) and a socket sends if its campaign moved.

Refusals at connect: the socket is accepted then closed with 4403, alike for no such
campaign and for a private one the user does not play (its existence stays private).
"""

from __future__ import annotations

import asyncio
import json

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import InMemoryChannelLayer
from django.core.serializers.json import DjangoJSONEncoder

# The battle socket's building blocks: database access from the loop, the refusal code,
# the frame limit and the safety net's periods are the same for both kinds of game.
from battles.live.consumers import CLOSE_REFUSED, IN_MEMORY_POLL_SECONDS, POLL_SECONDS
from battles.live.poller import Poller, poller_for
from battles.live.protocol import HelloActFrames, error
from battles.live.threads import in_db_thread as _db
from campaigns import services
from config.errors import ServiceError

from . import messages


class CampaignPoller(Poller):
    """The campaigns with open sockets on one event loop: one query a round for all."""

    def key(self, consumer) -> int:
        return consumer.viewer.campaign_id

    def read(self, game_ids: list[int]) -> dict[int, tuple]:
        return messages.current(game_ids)


class CampaignConsumer(HelloActFrames, AsyncJsonWebsocketConsumer):
    poll_seconds = POLL_SECONDS
    in_memory_poll_seconds = IN_MEMORY_POLL_SECONDS

    async def connect(self):
        self.viewer = None
        self.sent: tuple[int, str] | None = None  # (seq, status) of the last message sent
        self.lock = asyncio.Lock()
        self.poller: Poller | None = None
        self.tasks: set[asyncio.Task] = set()  # the poller's sends, cancelled on disconnect
        raw = self.scope["url_route"]["kwargs"]["campaign_id"]
        await self.accept()
        try:
            self.viewer = await _db(messages.viewer_for)(self.scope.get("user"), raw)
        except ServiceError:
            await self.close(code=CLOSE_REFUSED)
            return
        self.group = messages.group_name(self.viewer.campaign_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        every = (self.in_memory_poll_seconds if isinstance(self.channel_layer, InMemoryChannelLayer)
                 else self.poll_seconds)
        self.poller = poller_for(min(every, self.poll_seconds), CampaignPoller)
        self.poller.add(self)

    async def disconnect(self, code):
        if self.poller is not None:
            self.poller.discard(self)
        for task in self.tasks:
            task.cancel()
        if self.viewer is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    @classmethod
    async def encode_json(cls, content):
        return json.dumps(content, cls=DjangoJSONEncoder, separators=(",", ":"))

    async def answer_hello(self, since: int) -> None:
        await self._send_campaign(since=since)

    async def _act(self, seq, action) -> None:
        if self.viewer.side is None:
            await self.send_json(error("not_allowed", "spectators cannot act", seq))
            return
        try:
            await _db(services.act)(self.viewer.campaign_id, self.viewer.user, seq, action)
        except ServiceError as exc:
            await self.send_json(error(exc.code, exc.message, exc.extra.get("seq", seq)))
            return
        await self._send_campaign()

    async def campaign_changed(self, event):
        """The group's nudge: send what is new, if this viewer has not had it yet."""
        await self._send_campaign(seen=(event.get("seq"), event.get("status")))

    def polled(self, now: tuple[int, str] | None) -> None:
        """The poller's round: send if the campaign moved past what was last sent."""
        if now is not None and self.sent is not None and tuple(now) != self.sent:
            task = asyncio.get_running_loop().create_task(self._send_campaign(seen=tuple(now)))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _send_campaign(self, since: int | None = None, seen=None) -> None:
        """Send the viewer's campaign message: after ``since`` (a hello), or after what was
        last sent when the campaign moved past it (``seen``: the nudge's or poll's seq, status)."""
        async with self.lock:
            asked = since is not None  # a hello is always answered
            if not asked:
                if self.sent is None:
                    return  # no hello yet: the client asks for what it needs first
                if seen is not None and (seen[0] < self.sent[0] or tuple(seen) == self.sent):
                    return  # already sent (a nudge after the action's own answer, or late)
                since = self.sent[0]
            msg = await _db(messages.campaign_message)(self.viewer, since)
            if not asked and (msg["seq"], msg["status"]) == self.sent:
                return  # nothing new after all
            self.sent = (msg["seq"], msg["status"])
            await self.send_json(msg)
