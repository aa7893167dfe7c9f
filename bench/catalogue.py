"""Catalogue search latency over HTTP, one web process, SQLite and PostgreSQL.

    .venv/bin/python bench/catalogue.py [--requests 50] [--server daphne|runserver]
                                        [--databases sqlite,postgres]

For each database it prepares a bench database in a temporary place (migrate +
load_catalogue), starts ONE web process on a free loopback port with DEBUG=0, waits until it
answers, warms up, then runs 20 representative searches N times each, sequentially, over one
keep-alive HTTP connection.  It prints p50/p95/max latency per query and overall, the web
process's CPU time per request ("cpu ms": independent of other load on the machine), and
whether the target (p95 <= 20 ms) is met.

PostgreSQL: DATABASE_URL, else postgres://postgres@127.0.0.1:5432/eagles_bench.  The database
is created if missing (and dropped again afterwards if this script created it); PostgreSQL is
skipped when not reachable.  Under ASGI (daphne) Django runs every request in a fresh
thread, so a persistent connection (CONN_MAX_AGE) is never reused and each request opens a new
PostgreSQL connection; when psycopg_pool is installed the bench therefore also runs PostgreSQL
with a connection pool (OPTIONS["pool"], CONN_MAX_AGE=0) through a temporary settings module,
to show what the recommended setting gives.  Everything started is stopped, temporary files
removed, and the whole run is bounded in time.
"""

from __future__ import annotations

import argparse
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
TARGET_P95_MS = 20.0
DEFAULT_PG_URL = "postgres://postgres@127.0.0.1:5432/eagles_bench"
STEP_TIMEOUT = 180  # seconds for migrate / load / server start

QUERIES: list[tuple[str, dict[str, str]]] = [
    ("example query", {"q": "army:french type:cavalry morale<=b bp>=8 battle:waterloo guard"}),
    ("example without 'guard'",
     {"q": "army:french type:cavalry morale<=b bp>=8 battle:waterloo"}),
    ("all cards, page 1", {}),
    ("army:british nat:kgl", {"q": "army:british nat:kgl"}),
    ("t:artillery is:horse", {"q": "t:artillery is:horse"}),
    ("battle:ligny -army:french", {"q": "battle:ligny -army:french"}),
    ("napoleon", {"q": "napoleon"}),
    ("bp>=10 or morale:a", {"q": "bp>=10 or morale:a"}),
    ("is:guard", {"q": "is:guard"}),
    ("is:army-commander", {"q": "is:army-commander"}),
    ("(a:pr or a:br) cv>=4", {"q": "(army:prussian or army:british) cv>=4"}),
    ('name:"old guard"', {"q": 'name:"old guard"'}),
    ("inf morale>=b at waterloo", {"q": "type:infantry morale>=b battle:waterloo"}),
    ("class:river move<=1", {"q": "class:river move<=1"}),
    ("effect:morale-modifier", {"q": "effect:morale-modifier"}),
    ("text:morale", {"q": "text:morale"}),
    ("ob:guard", {"q": "ob:guard"}),
    ("-is:special -is:terrain bp<=5", {"q": "-is:special -is:terrain bp<=5"}),
    ("filters + ordering", {"army": "prussian", "bp_min": "6", "ordering": "-bp,name"}),
    ("page 3 of all, 100/page", {"page": "3", "page_size": "100"}),
]


def pool_available() -> bool:
    try:
        import psycopg_pool  # noqa: F401
    except ImportError:
        return False
    return True


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux /proc), None where unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-p * len(ordered) // 100))))
    return ordered[rank - 1]


# ----------------------------------------------------------------------------- databases


def postgres_target(url: str) -> tuple[bool, bool, str]:
    """(reachable, created, message) after making sure the database exists."""
    try:
        import psycopg
        from psycopg import sql
    except ImportError:
        return False, False, "psycopg is not installed"
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if host not in ("127.0.0.1", "localhost", "::1"):
        return False, False, f"{host!r} is not loopback; refusing"
    name = parts.path.lstrip("/") or "eagles_bench"
    admin_url = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    try:
        with psycopg.connect(admin_url, autocommit=True, connect_timeout=3) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                  [name]).fetchone()
            if exists:
                return True, False, f"database {name} exists"
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            return True, True, f"created database {name}"
    except Exception as exc:  # noqa: BLE001 - any failure means "not reachable"
        return False, False, f"not reachable ({type(exc).__name__}: {str(exc).strip()[:120]})"


def drop_postgres(url: str) -> None:
    import psycopg
    from psycopg import sql

    parts = urllib.parse.urlsplit(url)
    name = parts.path.lstrip("/")
    admin_url = urllib.parse.urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True, connect_timeout=3) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(
            sql.Identifier(name)))


# -------------------------------------------------------------------------------- server


POOL_SETTINGS = """from config.settings import *  # noqa: F401,F403

DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {"min_size": 2, "max_size": 8}  # noqa
"""


def bench_env(tmp: Path, database_url: str | None, pool: bool = False) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECRET_KEY": "bench-only-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        "EAGLES_VAR_DIR": str(tmp / "var"),
        "SQLITE_PATH": str(tmp / "bench.sqlite3"),
        "LOG_LEVEL": "ERROR",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on loopback (no TLS proxy in a bench)
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
    })
    if database_url:
        env["DATABASE_URL"] = database_url
    if pool:
        (tmp / "bench_pool_settings.py").write_text(POOL_SETTINGS)
        env["PYTHONPATH"] = os.pathsep.join([str(tmp), str(ROOT), env.get("PYTHONPATH", "")])
        env["DJANGO_SETTINGS_MODULE"] = "bench_pool_settings"
    return env


def manage(env: dict[str, str], *args: str) -> None:
    result = subprocess.run([PYTHON, "manage.py", *args], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=STEP_TIMEOUT)
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stderr[-2000:]}")


def start_server(kind: str, env: dict[str, str], port: int, log: Path,
                 profile: Path | None = None) -> subprocess.Popen:
    """``profile``: run daphne under ``bench/cpu_sampler.py``, its report written there at
    exit (SIGUSR1 to the process restarts its figures)."""
    if kind == "daphne":
        # as the Procfile's web process: a deep accept backlog, 30 s to finish a handshake
        sampler = ([str(ROOT / "bench" / "cpu_sampler.py"), "--out", str(profile)]
                   if profile is not None else [])
        cmd = [PYTHON, *sampler, "-m", "daphne",
               "-e", f"tcp:port={port}:interface=127.0.0.1:backlog=2048",
               "--websocket_connect_timeout", "30", "config.asgi:application"]
    else:
        cmd = [PYTHON, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
    with open(log, "wb") as out:
        return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    except (subprocess.TimeoutExpired, ProcessLookupError):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=5)


def wait_ready(proc: subprocess.Popen, port: int, log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}:\n"
                               f"{log.read_text(errors='replace')[-2000:]}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/catalogue/")
            if conn.getresponse().status == 200:
                conn.close()
                return
            conn.close()
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"server not ready after {timeout:.0f}s")


class Client:
    """One keep-alive HTTP/1.1 connection (reconnects if the server closes it)."""

    def __init__(self, port: int):
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None, timeout: float = 30
                ) -> tuple[http.client.HTTPResponse, bytes, float]:
        """(response, its body, milliseconds); one retry on a fresh connection."""
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            try:
                start = time.perf_counter()
                self.conn.request(method, path, body=body, headers=headers or {})
                response = self.conn.getresponse()
                data = response.read()
                elapsed = (time.perf_counter() - start) * 1000
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                return response, data, elapsed
            except (http.client.HTTPException, OSError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def get(self, path: str) -> tuple[int, float]:
        response, _, elapsed = self.request("GET", path, headers={"Accept": "application/json"})
        return response.status, elapsed

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


# ----------------------------------------------------------------------------------- run


def run_database(label: str, database_url: str | None, server: str, requests: int,
                 deadline: float, pool: bool = False) -> dict | None:
    tmp = Path(tempfile.mkdtemp(prefix="eagles-bench-"))
    env = bench_env(tmp, database_url, pool)
    proc = None
    try:
        t0 = time.perf_counter()
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(env, "load_catalogue", "-v", "0")
        prepared = time.perf_counter() - t0
        port = free_port()
        log = tmp / "server.log"
        proc = start_server(server, env, port, log)
        wait_ready(proc, port, log, timeout=60)
        client = Client(port)
        paths = [f"/api/cards/?{urllib.parse.urlencode(params)}" if params else "/api/cards/"
                 for _, params in QUERIES]
        for path in paths:  # warm-up: caches, connections, bytecode
            for _ in range(5):
                status, _ = client.get(path)
                if status != 200:
                    raise RuntimeError(f"{path} answered {status}")
        rows = []
        every: list[float] = []
        for (name, _), path in zip(QUERIES, paths, strict=True):
            times = []
            cpu_before = cpu_seconds(proc.pid)
            for _ in range(requests):
                if time.monotonic() > deadline:
                    raise RuntimeError("time budget exhausted")
                status, ms = client.get(path)
                if status != 200:
                    raise RuntimeError(f"{path} answered {status}")
                times.append(ms)
            every.extend(times)
            cpu_after = cpu_seconds(proc.pid)
            cpu_ms = (None if cpu_before is None or cpu_after is None
                      else (cpu_after - cpu_before) * 1000 / requests)
            rows.append((name, percentile(times, 50), percentile(times, 95), max(times),
                         cpu_ms))
        client.close()
        return {"label": label, "load": os.getloadavg()[0], "rows": rows,
                "p50": percentile(every, 50), "p95": percentile(every, 95), "n": len(every),
                "prepared": prepared}
    finally:
        if proc is not None:
            stop_server(proc)
        shutil.rmtree(tmp, ignore_errors=True)


def print_result(result: dict, server: str, requests: int) -> None:
    print(f"\n== {result['label']} ({server}, 1 process, DEBUG=0, {requests} requests/query,"
          f" prepared in {result['prepared']:.1f}s, load average {result['load']:.1f}"
          f" on {os.cpu_count()} CPUs) ==")
    print(f"{'query':<34} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'cpu ms':>7}")
    for name, p50, p95, worst, cpu_ms in result["rows"]:
        flag = "" if p95 <= TARGET_P95_MS else "  > target"
        cpu = f"{cpu_ms:>7.2f}" if cpu_ms is not None else f"{'-':>7}"
        print(f"{name:<34} {p50:>8.2f} {p95:>8.2f} {worst:>8.2f} {cpu}{flag}")
    verdict = "MET" if result["p95"] <= TARGET_P95_MS else "NOT MET"
    print(f"{'overall (' + str(result['n']) + ' requests)':<34} {result['p50']:>8.2f}"
          f" {result['p95']:>8.2f}")
    print(f"target p95 <= {TARGET_P95_MS:.0f} ms: {verdict}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=50, help="requests per query")
    parser.add_argument("--server", choices=["daphne", "runserver"], default="daphne")
    parser.add_argument("--databases", default="sqlite,postgres",
                        help="comma-separated: sqlite, postgres")
    parser.add_argument("--budget", type=float, default=600, help="overall seconds")
    args = parser.parse_args(argv)
    if args.requests < 1:
        parser.error("--requests must be at least 1")
    deadline = time.monotonic() + args.budget
    wanted = [d.strip() for d in args.databases.split(",") if d.strip()]
    failed = False
    for database in wanted:
        if database == "sqlite":
            result = run_database("SQLite", None, args.server, args.requests, deadline)
        elif database == "postgres":
            url = os.environ.get("DATABASE_URL") or DEFAULT_PG_URL
            ok, created, message = postgres_target(url)
            safe = urllib.parse.urlsplit(url)._replace(netloc=urllib.parse.urlsplit(url)
                                                       .hostname or "")
            print(f"\nPostgreSQL {urllib.parse.urlunsplit(safe)}: {message}")
            if not ok:
                print("PostgreSQL skipped.")
                continue
            try:
                result = run_database("PostgreSQL", url, args.server, args.requests, deadline)
                print_result(result, args.server, args.requests)
                failed |= result["p95"] > TARGET_P95_MS
                if pool_available():
                    result = run_database("PostgreSQL + psycopg pool (CONN_MAX_AGE=0)", url,
                                          args.server, args.requests, deadline, pool=True)
                else:
                    print("(psycopg_pool not installed: pooled PostgreSQL run skipped)")
                    result = None
            finally:
                if created:
                    drop_postgres(url)
        else:
            parser.error(f"unknown database {database!r}")
        if result:
            print_result(result, args.server, args.requests)
            failed |= result["p95"] > TARGET_P95_MS
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
