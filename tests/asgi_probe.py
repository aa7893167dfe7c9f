"""A tiny ASGI application for tests/test_web_server.py: the server of the Procfile's web line
runs it in place of ``config.asgi`` to show what the server itself guarantees (no Django).

HTTP: answers ``{"client": ..., "scheme": ...}``, the address and scheme the server gave the
application (after its proxy-header handling). Websocket: ``?wait=S`` waits S seconds before
accepting (a busy application), then says the same as HTTP and echoes each frame's length."""

from __future__ import annotations

import asyncio
import json
from urllib.parse import parse_qs


def _seen(scope: dict) -> bytes:
    client = scope.get("client")
    return json.dumps({"client": client[0] if client else None,
                       "scheme": scope.get("scheme")}).encode()


async def app(scope, receive, send) -> None:
    if scope["type"] == "http":
        more = True
        while more:
            more = (await receive()).get("more_body", False)
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": _seen(scope)})
    elif scope["type"] == "websocket":
        await receive()  # websocket.connect
        wait = float(parse_qs(scope["query_string"].decode()).get("wait", ["0"])[0])
        await asyncio.sleep(wait)
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": _seen(scope).decode()})
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            data = message.get("text") or message.get("bytes") or ""
            await send({"type": "websocket.send", "text": str(len(data))})
