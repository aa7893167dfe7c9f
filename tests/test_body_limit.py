"""Issue 30: an over-size request body is refused with 413 as it arrives, by the ASGI
application that daphne runs (config/asgi.py): a chunked body is read no further than the
limit, and nothing of it is kept."""

from __future__ import annotations

import asyncio
import json
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

import pytest

from config.asgi import application

CHUNK = 1024 * 1024  # 1 MiB per http.request message, as a server passes a body on


def _scope(path: str, length: int | None = None) -> dict:
    headers = [(b"host", b"testserver"), (b"content-type", b"application/json")]
    headers.append((b"content-length", str(length).encode()) if length is not None
                   else (b"transfer-encoding", b"chunked"))
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
            "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
            "root_path": "", "headers": headers, "client": ("10.0.0.1", 1234),
            "server": ("testserver", 80)}


def _call(scope: dict, chunks: int, chunk: bytes = b" " * CHUNK, last: bytes = b"") -> dict:
    """Send ``chunks`` chunks (then ``last``) as the application asks for them; the response
    and how many chunks it asked for."""
    pulled = {"n": 0}
    sent: list[dict] = []

    async def receive():
        if pulled["n"] < chunks:
            pulled["n"] += 1
            return {"type": "http.request", "body": chunk, "more_body": True}
        if pulled["n"] == chunks:
            pulled["n"] += 1
            return {"type": "http.request", "body": last, "more_body": False}
        await asyncio.sleep(3600)  # a client that stays connected
        return {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    # in a thread of its own: an event loop another test left running in this one would
    # refuse asyncio.run
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, application(scope, receive, send)).result()
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return {"status": start["status"], "body": body, "pulled": pulled["n"]}


def test_a_chunked_300_mb_body_is_refused_after_the_limit_without_keeping_it(settings):
    settings.EAGLES_MAX_BODY_BYTES = 5 * CHUNK
    tracemalloc.start()
    try:
        out = _call(_scope("/api/auth/login/"), chunks=300)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert out["status"] == 413
    assert json.loads(out["body"]) == {"detail": "The request body is larger than 5,242,880 "
                                                 "bytes."}
    assert out["pulled"] == 6  # read up to the first chunk past the limit, no further
    assert peak < 10 * CHUNK, peak  # nothing like 300 MB held (the chunks are not kept)


def test_a_declared_length_over_the_limit_is_refused_before_reading(settings):
    settings.EAGLES_MAX_BODY_BYTES = 5 * CHUNK
    out = _call(_scope("/api/auth/signup/", length=300 * CHUNK), chunks=300)
    assert out["status"] == 413 and out["pulled"] == 0


@pytest.mark.django_db(transaction=True)
def test_a_body_within_the_limit_reaches_the_view(settings):
    settings.EAGLES_MAX_BODY_BYTES = 5 * CHUNK
    # 2 MiB of white space then an object: read whole, answered by the view (bad log-in)
    last = b'{"username": "nobody", "password": "x"}'
    out = _call(_scope("/api/auth/login/", length=2 * CHUNK + len(last)), chunks=2, last=last)
    assert out["status"] == 400 and out["pulled"] == 3, out
    assert json.loads(out["body"]) == {"detail": "Wrong username or password."}
    assert b"larger than" not in out["body"]
