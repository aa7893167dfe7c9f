"""Request bodies over ``settings.EAGLES_MAX_BODY_BYTES`` are refused as they arrive (issue 30).

Django's ASGI handler reads a whole body (spooled to a temporary file) before any limit of its
own applies, and a chunked body declares no length: a 300 MB body to the anonymous log-in was
read to the end and only then refused. This ASGI wrapper answers 413 at once for a declared
``Content-Length`` over the limit, and otherwise counts the bytes of the ``http.request``
messages as the application reads them, answering 413 the moment the count passes the limit;
the rest of the body is never read. The proxy in front sets the same limit
(``client_max_body_size``, docs/deploy.md), so it is refused before reaching a web process.
"""

from __future__ import annotations

import json

from django.conf import settings


class BodyTooLarge(Exception):
    """The body read so far passed the limit: the 413 is answered, the rest never read."""


def _declared_length(scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BodyLimit:
    """Wraps the ASGI application for HTTP (websocket frames have their own limit)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        limit = settings.EAGLES_MAX_BODY_BYTES
        declared = _declared_length(scope)
        if declared is not None and declared > limit:
            return await refuse(send, limit)
        received = 0

        async def counted():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge
            return message

        try:
            await self.app(scope, counted, send)
        except BodyTooLarge:  # raised while the application read the body: nothing sent yet
            await refuse(send, limit)


async def refuse(send, limit: int) -> None:
    body = json.dumps({"detail": f"The request body is larger than {limit:,} bytes."}).encode()
    await send({"type": "http.response.start", "status": 413, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
