"""The web server's own CPU per HTTP request, for each of uvicorn's HTTP parsers (issue 31).

    .venv/bin/python bench/web_http.py [--requests 5000] [--rounds 2]

Starts the Procfile's web line (``--http`` swapped for each parser) serving the probe
application of the tests (``tests/asgi_probe.py``: no Django, so only the server's work is
measured), sends ``--requests`` keep-alive GETs with a browser's headers (cookies, the proxy's
``X-Forwarded-*``) after a warm-up, and prints the server process's CPU per request (user +
system, /proc). The Procfile uses h11 for its request-head limit (docs/deploy.md); this shows
what that costs against httptools. Rounds alternate the parsers (a shared machine)."""

from __future__ import annotations

import argparse
import http.client
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.procfile import web_command  # noqa: E402

HEADERS = {
    "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/131.0 Safari/537.36",
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "Accept-Language": "en-GB,en;q=0.9", "Accept-Encoding": "gzip, deflate, br",
    "Cookie": "sessionid=" + "x" * 32 + "; csrftoken=" + "y" * 32,
    "X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https",
    "Referer": "https://example.org/battles/12/",
}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def measure(parser: str, requests: int) -> float:
    """Server CPU seconds per request with ``--http parser``."""
    port = free_port()
    argv = web_command(port, "tests.asgi_probe:app")
    argv[argv.index("--http") + 1] = parser
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                conn.request("GET", "/")
                conn.getresponse().read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"uvicorn --http {parser} did not start") from None
                time.sleep(0.2)
        for _ in range(300):  # warm-up
            conn.request("GET", "/battles/", headers=HEADERS)
            conn.getresponse().read()
        before = cpu_seconds(proc.pid)
        for _ in range(requests):
            conn.request("GET", "/battles/", headers=HEADERS)
            conn.getresponse().read()
        used = cpu_seconds(proc.pid) - before
        conn.close()
        return used / requests
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=15)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    for _ in range(args.rounds):
        for impl in ("httptools", "h11"):
            per = measure(impl, args.requests)
            print(f"--http {impl}: {1e6 * per:.0f} us of server CPU per request "
                  f"({args.requests} keep-alive GETs; load {os.getloadavg()[0]:.2f})", flush=True)


if __name__ == "__main__":
    main()
