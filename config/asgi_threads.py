"""Django's ASGI handler, lean: the whole middleware chain and view in one thread hop, on a
pool of reused threads.

Django's ASGI handler runs the middleware chain in async mode: every sync-only part (our
views, ``process_request``/``process_response`` of each ``MiddlewareMixin``, WhiteNoise) is a
hop between the event loop and a thread, about twenty per request, which cost more CPU than
a simple view itself. Here the chain is built in sync mode, as under WSGI, and a request
crosses to its thread once (``get_response_async``); an async view would still work (Django
wraps it with ``async_to_sync``). The response is still sent by the event loop.

Django runs each request's sync code (middleware, views, the ORM) in a ``ThreadSensitiveContext``:
by default a brand-new one-thread executor per request, so every request starts an OS thread
and, since database connections belong to a thread, opens a new connection and drops it at
the end (``CONN_MAX_AGE`` can never help). Here each request borrows a one-thread executor
from a small pool and gives it back: requests still run concurrently (one thread each, more
executors are made when all are busy), but threads and their connections are reused; idle
ones beyond ``KEEP`` are shut down. Connection age and health stay Django's business
(``close_old_connections`` at the start and end of every request).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.core.handlers.base import BaseHandler
from django.http import HttpRequest, HttpResponseBase

KEEP = 8  # idle threads kept for the next requests


class PooledASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        self._idle: list[ThreadPoolExecutor] = []  # touched from the event loop only
        self._pid = os.getpid()
        self._sync = BaseHandler()
        self._sync.load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self._sync.get_response, thread_sensitive=True)(request)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await super().__call__(scope, receive, send)
        if self._pid != os.getpid():
            # A forked child (a server process started by fork after this one served): the
            # parent's executors believe they have their thread, which the child does not
            # have, so work given to them would wait for ever. Start the pool afresh.
            self._idle, self._pid = [], os.getpid()
        executor = self._idle.pop() if self._idle else ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="django-request")
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            if len(self._idle) < KEEP:
                self._idle.append(executor)
            else:
                executor.shutdown(wait=False)


def get_asgi_application() -> PooledASGIHandler:
    """Like ``django.core.asgi.get_asgi_application``, with the pooled handler."""
    import django

    django.setup(set_prefix=False)
    return PooledASGIHandler()
