"""config.asgi_threads: the ASGI application crosses to a thread once per request, on a
reused thread, and still runs the whole middleware chain."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref import sync as asgiref_sync

from config.api_index import ApiIndex
from config.asgi import application

# A request through the whole middleware chain counts in the cache (config/throttling.py):
# Redis in CI's backend stage, which runs these. django_db: the application's reused request
# thread may hold a connection an earlier test of this worker opened, and request_started's
# close_old_connections then checks it (pytest-django blocks that in a test without the mark).
pytestmark = [pytest.mark.backend, pytest.mark.django_db]


def _get(path: str, headers: list | None = None, method: str = "GET") -> tuple[int, dict]:
    async def run() -> tuple[int, dict]:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                 "method": method, "scheme": "http", "path": path,
                 "raw_path": path.encode(), "query_string": b"",
                 "headers": [(b"host", b"testserver"), (b"accept", b"application/json"),
                             *(headers or [])],
                 "client": ("127.0.0.1", 1234), "server": ("testserver", 80)}
        messages: list[dict] = []
        body = asyncio.Queue()
        await body.put({"type": "http.request", "body": b"", "more_body": False})

        async def send(message: dict) -> None:
            messages.append(message)

        await application(scope, body.get, send)
        start = messages[0]
        return start["status"], {k.decode().lower(): v.decode() for k, v in start["headers"]}

    # In a thread of its own: another test may have left an event loop running in this one.
    with ThreadPoolExecutor(max_workers=1) as driver:
        return driver.submit(asyncio.run, run()).result()


def test_requests_reuse_a_thread_and_cross_to_it_once(monkeypatch):
    seen: list[int] = []
    hops: list[object] = []
    original_get, original_init = ApiIndex.get, asgiref_sync.SyncToAsync.__init__

    def get(self, request):
        seen.append(threading.get_ident())
        return original_get(self, request)

    def init(self, func, *args, **kwargs):
        hops.append(func)
        original_init(self, func, *args, **kwargs)

    monkeypatch.setattr(ApiIndex, "get", get)
    monkeypatch.setattr(asgiref_sync.SyncToAsync, "__init__", init)
    for _ in range(3):
        assert _get("/api/")[0] == 200
    assert len(seen) == 3 and len(set(seen)) == 1 and seen[0] != threading.get_ident()
    # Per request: request_started, the middleware chain with the view, response.close.
    assert len(hops) <= 3 * 3, hops


def test_the_middleware_chain_still_runs():
    status, headers = _get("/api/")
    assert status == 200 and headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    # DRF still answers a method the view does not have.
    assert _get("/api/", method="DELETE")[0] == 405


def test_a_forked_child_does_not_reuse_the_parents_threads(monkeypatch):
    """A process forked after requests were served (a test's server process, a pre-forking
    server) has none of the parent's pooled threads: its first request gets a new one
    (the parent's executor would have waited for ever: every live browser test timed out
    at its first page after this module ran in the same worker)."""
    import config.asgi_threads as pooled

    seen: list[int] = []
    original_get = ApiIndex.get

    def get(self, request):
        seen.append(threading.get_ident())
        return original_get(self, request)

    monkeypatch.setattr(ApiIndex, "get", get)
    assert _get("/api/")[0] == 200 and _get("/api/")[0] == 200
    assert seen[0] == seen[1]  # reused within a process
    parent = pooled.os.getpid()
    monkeypatch.setattr(pooled.os, "getpid", lambda: parent + 1)
    assert _get("/api/")[0] == 200
    assert seen[2] != seen[0]  # the child's own thread, not the parent's
