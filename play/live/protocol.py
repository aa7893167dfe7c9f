"""The frames a match's socket takes, the same for every kind: one JSON object as text,
``{"type": "hello", "since": n}`` or ``{"type": "act", "seq": n, "action": {...}}``; anything
else (not text, too long, not JSON, nested deeper than ``safe_json.MAX_DEPTH``, not an
object, another type, a ``since`` that is not a whole number) is answered
``{"type": "error", "code": "bad_input", "detail", "seq"}`` and the socket stays open.

Each socket may send ``settings.EAGLES_WS_FRAMES_PER_SECOND`` frames a second on average, in
bursts of up to ``EAGLES_WS_FRAME_BURST`` (a token bucket, ``FrameBudget``). A frame over that
budget is not read at all: it is answered ``{"type": "error", "code": "rate_limited", ...}``
(so the client knows that frame was not applied and may send it again); after
``FLOOD_STRIKES`` such frames in a row the socket is closed with ``CLOSE_FLOODING``. Every
frame within the budget is handled exactly as before, one at a time, so nothing is applied
twice, and every act gets an answer (its message or an error) unless the socket closed first.

A consumer mixes in ``HelloActFrames`` (before Channels' consumer class) and supplies
``viewer`` (None until connected), ``answer_hello(since)`` and ``_act(seq, action)``."""

from __future__ import annotations

import asyncio
from typing import Any

from django.conf import settings

from config import safe_json

MAX_FRAME = 16_000  # a hello or an action is small; anything bigger is refused
FLOOD_STRIKES = 10  # frames refused in a row for the rate before the socket is closed
CLOSE_FLOODING = 4429  # the websocket close code for a flooding socket (as HTTP's 429)


class FrameBudget:
    """A token bucket: ``rate`` frames a second on average, ``burst`` at once. Time is given
    (seconds, monotonic), so it is plain arithmetic to test."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = float(burst), now

    def take(self, now: float) -> bool:
        """Spend one frame if the budget has one at ``now``."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def error(code: str, detail: str, seq=None) -> dict:
    return {"type": "error", "code": code, "detail": detail, "seq": seq}


class HelloActFrames:
    # Supplied by the consumer this is mixed into (Channels' JSON consumer and the game's).
    send_json: Any
    close: Any
    answer_hello: Any
    _act: Any
    viewer: Any

    budget: FrameBudget | None = None
    strikes = 0  # frames refused for the rate since the last one taken
    flooded = False

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if self.viewer is None or self.flooded:
            return
        if not await self._within_budget():
            return
        if not text_data or len(text_data) > MAX_FRAME:
            await self.send_json(error("bad_input", "send one JSON object as text"))
            return
        try:
            content = safe_json.loads(text_data)
        except safe_json.TooDeep as exc:
            await self.send_json(error("bad_input", str(exc)))
            return
        except ValueError:
            await self.send_json(error("bad_input", "not JSON"))
            return
        if not isinstance(content, dict):
            await self.send_json(error("bad_input", "send a JSON object with a type"))
            return
        await self.receive_json(content)

    async def receive_json(self, content, **kwargs):
        kind = content.get("type")
        if kind == "hello":
            since = content.get("since", 0)
            if type(since) is not int or since < 0:
                await self.send_json(error("bad_input", "since must be a whole number (a seq)"))
                return
            await self.answer_hello(since)
        elif kind == "act":
            await self._act(content.get("seq"), content.get("action"))
        else:
            await self.send_json(error("bad_input", 'type must be "hello" or "act"'))

    async def _within_budget(self) -> bool:
        """Whether this frame is within the socket's rate; if not it is answered (or the
        socket closed), never read."""
        now = asyncio.get_running_loop().time()
        rate, burst = settings.EAGLES_WS_FRAMES_PER_SECOND, settings.EAGLES_WS_FRAME_BURST
        if self.budget is None:
            self.budget = FrameBudget(rate, burst, now)
        if self.budget.take(now):
            self.strikes = 0
            return True
        self.strikes += 1
        limit = f"at most {rate:g} frames a second (bursts of {burst})"
        if self.strikes >= FLOOD_STRIKES:
            self.flooded = True
            await self.send_json(error("rate_limited", f"{limit}: closing this socket"))
            await self.close(code=CLOSE_FLOODING)
        else:
            await self.send_json(error(
                "rate_limited", f"{limit}: this frame was not applied; send it again later"))
        return False
