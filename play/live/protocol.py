"""The frames a match's socket takes, the same for every kind: one JSON object as text,
``{"type": "hello", "since": n}`` or ``{"type": "act", "seq": n, "action": {...}}``; anything
else (not text, too long, not JSON, not an object, another type, a ``since`` that is not a
whole number) is answered ``{"type": "error", "code": "bad_input", "detail", "seq"}`` and the
socket stays open.

A consumer mixes in ``HelloActFrames`` (before Channels' consumer class) and supplies
``viewer`` (None until connected), ``answer_hello(since)`` and ``_act(seq, action)``."""

from __future__ import annotations

import json
from typing import Any

MAX_FRAME = 16_000  # a hello or an action is small; anything bigger is refused


def error(code: str, detail: str, seq=None) -> dict:
    return {"type": "error", "code": code, "detail": detail, "seq": seq}


class HelloActFrames:
    # Supplied by the consumer this is mixed into (Channels' JSON consumer and the game's).
    send_json: Any
    answer_hello: Any
    _act: Any
    viewer: Any

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if self.viewer is None:
            return
        if not text_data or len(text_data) > MAX_FRAME:
            await self.send_json(error("bad_input", "send one JSON object as text"))
            return
        try:
            content = json.loads(text_data)
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
