"""Server CPU per request, end to end, beside a bare DRF endpoint measured in the same run.

    .venv/bin/python bench/request_cpu.py [--batches 9] [--size 20] [--postgres URL] [--root DIR]

Prepares a temporary database (SQLite, as ``make run``; or PostgreSQL with ``--postgres``),
loads the catalogue, creates a user owning every card in every finish, starts ONE daphne
process (DEBUG=0) like ``make run`` does, logs in over the API (session cookie + CSRF token,
as a browser), warms up, then for each request measures the daphne process's CPU time
(``/proc/<pid>/stat``: user + system, independent of other load on the machine) over
``--batches`` batches of ``--size`` sequential requests on one keep-alive connection. It
prints per request the median CPU ms over the batches, the median wall ms, the target and
whether it is met. ``GET /api/`` is the bare DRF endpoint (no database): the floor that
daphne + Django + DRF cost before any work of ours.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from http.cookies import SimpleCookie
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import catalogue as web  # noqa: E402  (bench/catalogue.py: server helpers)
import deck_api  # noqa: E402  (bench/deck_api.py: the validate bodies)

USERNAME, PASSWORD = "bench", "bench-password-1815"
SETUP = f"""
from django.contrib.auth.models import User
from cards.models import CollectionEntry, Printing
u = User.objects.create_user({USERNAME!r}, password={PASSWORD!r})
CollectionEntry.objects.bulk_create(
    CollectionEntry(user=u, printing=p, quantity=2) for p in Printing.objects.all())
"""


class Session(web.Client):
    """A keep-alive connection that keeps cookies and sends the CSRF token on POST."""

    def __init__(self, port: int):
        super().__init__(port)
        self.cookies: dict[str, str] = {}

    def send(self, method: str, path: str, body: bytes | None = None) -> tuple[int, float]:
        headers = {"Accept": "application/json" if path.startswith("/api/") else "text/html"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            headers["Content-Type"] = "application/json"
            if "csrftoken" in self.cookies:
                headers["X-CSRFToken"] = self.cookies["csrftoken"]
        response, _, elapsed = self.request(method, path, body, headers, timeout=60)
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        return response.status, elapsed


def requests_to_measure() -> list[tuple[str, str, str, bytes | None, float | None, bool]]:
    """(label, method, path, body, target CPU ms, needs the session)."""
    validate = deck_api.bodies()["entries, valid"]
    login = json.dumps({"username": USERNAME, "password": PASSWORD}).encode()
    return [
        ("GET /api/ (bare DRF)", "GET", "/api/", None, None, False),
        ("POST /api/decks/validate/", "POST", "/api/decks/validate/", validate, 3.0, False),
        ("  the same, logged in (+ collection)", "POST", "/api/decks/validate/", validate,
         None, True),
        ("catalogue search", "GET", "/api/cards/?q=army%3Afrench+type%3Acavalry+bp%3E%3D8",
         None, 5.0, False),
        ("GET /collection/", "GET", "/collection/", None, None, True),
        ("POST /api/auth/login/", "POST", "/api/auth/login/", login, None, False),
    ]


STABLE = 0.10  # a verdict only when the middle half of the batches lies within 10 % of the median


def verdict(what: str, samples: list[float], target: float) -> str:
    """``<what> <= target: met / NOT met`` on the median as printed (2 decimals: 3.00 is met
    against 3), or no verdict when the batches disagree too much for one (a loaded machine)."""
    median = statistics.median(samples)
    if len(samples) >= 4:
        q1, _, q3 = statistics.quantiles(samples, n=4)
        spread = (q3 - q1) / median if median else 0.0
        if spread > STABLE:
            return (f"{what} <= {target:g} ms: not judged (batches spread "
                    f"{100 * spread:.0f} % > {100 * STABLE:.0f} %: run again on a quiet machine)")
    met = round(median, 2) <= target
    return f"{what} <= {target:g} ms: {'met' if met else 'NOT met'}"


def measure(proc, session: Session, method: str, path: str, body: bytes | None,
            batches: int, size: int) -> tuple[list[float], list[float]]:
    """(CPU ms per request of each batch, wall ms of each request)."""
    for _ in range(3):  # warm-up
        status, _ = session.send(method, path, body)
        if status != 200:
            raise RuntimeError(f"{method} {path} answered {status}")
    cpu, wall = [], []
    for _ in range(batches):
        before = web.cpu_seconds(proc.pid)
        for _ in range(size):
            status, ms = session.send(method, path, body)
            if status != 200:
                raise RuntimeError(f"{method} {path} answered {status}")
            wall.append(ms)
        cpu.append((web.cpu_seconds(proc.pid) - before) * 1000 / size)
    return cpu, wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=9)
    parser.add_argument("--size", type=int, default=20, help="requests per batch")
    parser.add_argument("--postgres", default="", help="a PostgreSQL URL (default: SQLite)")
    parser.add_argument("--root", default="", help="measure the project checked out there "
                        "(e.g. an older commit, for before/after figures)")
    args = parser.parse_args(argv)
    if args.root:
        web.ROOT = Path(args.root).resolve()  # where manage.py and daphne run
    if web.cpu_seconds(1) is None:
        print("needs Linux /proc")
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="eagles-requests-bench-"))
    created = False
    if args.postgres:
        ok, created, message = web.postgres_target(args.postgres)
        if not ok:
            print(f"PostgreSQL: {message}")
            return 2
    env = web.bench_env(tmp, args.postgres or None)
    proc = None
    try:
        web.manage(env, "migrate", "--noinput", "-v", "0")
        web.manage(env, "load_catalogue", "-v", "0")
        web.manage(env, "shell", "-c", SETUP)
        port = web.free_port()
        log = tmp / "server.log"
        proc = web.start_server("daphne", env, port, log)
        web.wait_ready(proc, port, log, timeout=90)
        anonymous, session = Session(port), Session(port)
        session.send("GET", "/accounts/login/")  # the CSRF cookie, as a browser gets it
        login = json.dumps({"username": USERNAME, "password": PASSWORD}).encode()
        status, _ = session.send("POST", "/api/auth/login/", login)
        if status != 200 or "sessionid" not in session.cookies:
            raise RuntimeError(f"log-in answered {status}")
        print(f"{web.ROOT}: one daphne process, {'PostgreSQL' if args.postgres else 'SQLite'}, "
              "DEBUG=0; "
              f"CPU = median over {args.batches} batches of {args.size} requests")
        print(f"{'request':34} {'cpu ms':>8} {'wall ms':>8}  target")
        for label, method, path, body, target, needs_session in requests_to_measure():
            size = args.size if "login" not in path else max(1, args.size // 10)
            cpus, walls = measure(proc, session if needs_session else anonymous, method,
                                  path, body, args.batches, size)
            cpu, wall = statistics.median(cpus), statistics.median(walls)
            judged = "" if target is None else verdict("cpu", cpus, target)
            if path == "/collection/":
                judged = verdict("wall", walls, 150)
            print(f"{label:34} {cpu:8.2f} {wall:8.2f}  {judged}")
        return 0
    finally:
        if proc is not None:
            web.stop_server(proc)
        if created:
            web.drop_postgres(args.postgres)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
