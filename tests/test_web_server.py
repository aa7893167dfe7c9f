"""The production web server (issue 31): the Procfile's web line runs uvicorn, and the
guarantees the daphne line gave hold under it (docs/deploy.md, Procfile comments): a deep
accept backlog, a websocket handshake that waits for a busy application, proxy headers
trusted from the local proxy only, a request head not buffered past 16 KiB (Twisted's limit
under daphne; h11's here: httptools has none), a websocket frame limit above the application's own.

The live checks start the Procfile's own web line with a probe application in place of
``config.asgi`` (tests/asgi_probe.py), so they show what the server does, without Django."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import signal
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from websockets.exceptions import ConnectionClosedError
from websockets.sync.client import connect

from play.live.protocol import MAX_FRAME

from .procfile import ROOT, web_command
from .test_production_layout import _free_port

PROBE = "tests.asgi_probe:app"
NGINX_SAW = "203.0.113.7"  # the address nginx appends to X-Forwarded-For
HEAD_LIMIT = 16 * 1024  # bytes of a request's line and headers (Twisted's totalHeadersSize)


def _option(argv: list[str], name: str) -> str:
    return argv[argv.index(name) + 1]


def test_the_procfile_web_line_is_uvicorn_with_the_guarantees_of_the_daphne_line():
    argv = web_command(8001)
    assert argv[1:3] == ["-m", "uvicorn"] and argv[-1] == "config.asgi:application"
    assert _option(argv, "--host") == "127.0.0.1"  # behind the proxy only
    assert _option(argv, "--port") == "8001"  # ${PORT:-8001}: one process per port (core)
    assert _option(argv, "--backlog") == "2048"  # a burst of handshakes is queued, not dropped
    assert _option(argv, "--loop") == "uvloop"  # the cheaper loop (README "Performance")
    # h11, whose request head is limited as Twisted's was under daphne (httptools buffers a
    # head of any size); it parses only the handshake of a websocket, not its frames
    assert _option(argv, "--http") == "h11"
    assert _option(argv, "--h11-max-incomplete-event-size") == str(HEAD_LIMIT)
    # no handshake timeout (the legacy `websockets` implementation has a fixed 10 s one)
    assert _option(argv, "--ws") == "websockets-sansio"
    assert "--proxy-headers" in argv and _option(argv, "--forwarded-allow-ips") == "127.0.0.1"
    # every frame the application would judge (MAX_FRAME characters, up to 4 bytes each)
    # reaches it; a bigger one is refused by the server before it is buffered whole
    assert 4 * MAX_FRAME <= int(_option(argv, "--ws-max-size")) <= 1024 * 1024
    # a silent socket: pinged every 20 s, closed 30 s after a ping without a pong (as daphne)
    assert (_option(argv, "--ws-ping-interval"), _option(argv, "--ws-ping-timeout")) == ("20", "30")
    assert "--workers" not in argv  # one process per core, each its own Procfile entry


def _app_sees(headers: dict[str, str], peer: str) -> dict:
    """What uvicorn's proxy-header handling (as the Procfile configures it) tells the
    application about a request from ``peer`` with ``headers``."""
    seen: dict = {}

    async def app(scope, receive, send):
        seen.update(client=scope["client"][0], scheme=scope["scheme"])

    trusted = _option(web_command(8001), "--forwarded-allow-ips")
    scope = {"type": "http", "scheme": "http", "client": (peer, 50000),
             "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()]}
    # in a thread of its own: a loop another test left running here would refuse asyncio.run
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run,
                    ProxyHeadersMiddleware(app, trusted_hosts=trusted)(scope, None, None)).result()
    return seen


def test_only_the_local_proxy_may_name_the_client():
    forwarded = {"X-Forwarded-For": f"6.6.6.6, {NGINX_SAW}", "X-Forwarded-Proto": "https"}
    # through nginx on 127.0.0.1: the address nginx saw, not the leftmost value the client
    # wrote (daphne's --proxy-headers took that one, from any peer)
    assert _app_sees(forwarded, "127.0.0.1") == {"client": NGINX_SAW, "scheme": "https"}
    # a peer that is not the proxy cannot choose its address or scheme
    assert _app_sees(forwarded, "10.0.0.5") == {"client": "10.0.0.5", "scheme": "http"}


@pytest.fixture(scope="module")
def probe_server(tmp_path_factory):
    port = _free_port()
    log_path: Path = tmp_path_factory.mktemp("web") / "web.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(web_command(port, PROBE), cwd=ROOT, env=dict(os.environ),
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", "/")
                conn.getresponse().read()
                conn.close()
                break
            except OSError:
                assert proc.poll() is None, log_path.read_text()
                assert time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.2)
        yield port
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)


def test_the_served_address_is_the_one_nginx_saw(probe_server):
    conn = http.client.HTTPConnection("127.0.0.1", probe_server, timeout=10)
    conn.request("GET", "/", headers={"X-Forwarded-For": f"6.6.6.6, {NGINX_SAW}",
                                      "X-Forwarded-Proto": "https"})
    assert json.loads(conn.getresponse().read()) == {"client": NGINX_SAW, "scheme": "https"}
    conn.close()


def _status_with_header_of(port: int, size: int) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", "/", headers={"Cookie": "c=" + "x" * size})
        return conn.getresponse().status
    finally:
        conn.close()


def _refused(port: int, pieces: int, size: int, pause: float = 0.0) -> bool:
    """Send a head whose cookie grows by ``pieces`` x ``size`` bytes (never finished): True if
    the server answered 400 and closed (a reset while sending is the same refusal)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        try:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nCookie: c=")
            for _ in range(pieces):
                sock.sendall(b"x" * size)
                time.sleep(pause)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server refused the head mid-send: its answer, if any, is read below
        try:
            return sock.recv(100).startswith(b"HTTP/1.1 400 ")
        except ConnectionResetError:
            return True


def test_a_request_head_over_16_kib_is_refused_before_the_application(probe_server):
    assert _status_with_header_of(probe_server, 12 * 1024) == 200  # a large honest cookie
    assert _refused(probe_server, 64, 64 * 1024)  # 4 MiB: not buffered whole
    # A head that trickles in is refused once more than HEAD_LIMIT of it waits unfinished (h11
    # judges what it holds after each read: a whole head read at once may be one read larger)
    assert _refused(probe_server, HEAD_LIMIT // 1024 + 1, 1024, pause=0.01)


def test_a_websocket_handshake_waits_for_a_busy_application(probe_server):
    # 11 s: longer than daphne's default 5 s and the legacy implementation's fixed 10 s
    started = time.monotonic()
    with connect(f"ws://127.0.0.1:{probe_server}/?wait=11", open_timeout=60) as ws:
        assert json.loads(ws.recv(timeout=10))["client"] == "127.0.0.1"
        assert time.monotonic() - started >= 11


def test_a_websocket_frame_over_the_limit_is_refused_by_the_server(probe_server):
    with connect(f"ws://127.0.0.1:{probe_server}/", max_size=None) as ws:
        ws.recv(timeout=10)
        largest = "\U0001f985" * MAX_FRAME  # the application's limit, 4 bytes a character
        ws.send(largest)
        assert ws.recv(timeout=10) == str(MAX_FRAME)  # reaches the application
        ws.send("x" * (1024 * 1024))
        with pytest.raises(ConnectionClosedError) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # too big


def test_the_documented_systemd_unit_runs_the_procfiles_web_line():
    unit = next(line for line in (ROOT / "docs" / "deploy.md").read_text().splitlines()
                if line.startswith("ExecStart=") and " uvicorn " in line)
    documented = unit.removeprefix("ExecStart=").replace("%i", "8001").split()
    assert documented[1:] == web_command(8001)[1:]  # the same flags, another interpreter path
