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
  (1 s on the in-memory layer, where a worker's nudges never arrive) each consumer reads the
  campaign's ``(seq, status)`` and sends if it moved.

Refusals at connect: the socket is accepted then closed with 4403, alike for no such
campaign and for a private one the user does not play (its existence stays private).
"""

from __future__ import annotations

import asyncio
import json
import logging

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import InMemoryChannelLayer
from django.core.serializers.json import DjangoJSONEncoder

# The battle socket's building blocks: database access from the loop, the refusal code,
# the frame limit and the safety net's periods are the same for both kinds of game.
from battles.live.consumers import CLOSE_REFUSED, IN_MEMORY_POLL_SECONDS, POLL_SECONDS
from battles.live.poller import LIVE_STATUSES
from battles.live.protocol import HelloActFrames, error
from battles.live.threads import in_db_thread as _db
from campaigns import services
from config.errors import ServiceError

from . import messages

log = logging.getLogger(__name__)


class CampaignConsumer(HelloActFrames, AsyncJsonWebsocketConsumer):
    poll_seconds = POLL_SECONDS
    in_memory_poll_seconds = IN_MEMORY_POLL_SECONDS

    async def connect(self):
        self.viewer = None
        self.sent: tuple[int, str] | None = None  # (seq, status) of the last message sent
        self.lock = asyncio.Lock()
        self.poller: asyncio.Task | None = None
        raw = self.scope["url_route"]["kwargs"]["campaign_id"]
        await self.accept()
        try:
            self.viewer = await _db(messages.viewer_for)(self.scope.get("user"), raw)
        except ServiceError:
            await self.close(code=CLOSE_REFUSED)
            return
        self.group = messages.group_name(self.viewer.campaign_id)
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

    async def _poll(self) -> None:
        every = (self.in_memory_poll_seconds if isinstance(self.channel_layer, InMemoryChannelLayer)
                 else self.poll_seconds)
        while True:
            await asyncio.sleep(min(every, self.poll_seconds))
            try:
                now = await _db(messages.current)(self.viewer.campaign_id)
            except Exception:  # noqa: BLE001 - the next round tries again
                log.exception("campaign %s: live poll failed", self.viewer.campaign_id)
                continue
            if now is not None and self.sent is not None and now != self.sent:
                await self._send_campaign(seen=now)
            if now is None or now[1] not in LIVE_STATUSES:
                return  # over, cancelled (or gone): nothing more will change

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
