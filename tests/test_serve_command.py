"""`make run` ends in `manage.py serve`: web server and Celery worker; Ctrl-C stops both."""

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from celery import Celery
from django.conf import settings

from battles.engine import native

pytestmark = pytest.mark.worker


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_starts_web_and_worker_and_ctrl_c_stops_both(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    # as `make run` does: the compiled engine if there is a build of these sources
    env.update(EAGLES_VAR_DIR=str(tmp_path), SQLITE_PATH=str(tmp_path / "db.sqlite3"),
               EAGLES_ENGINE="auto")
    build = native.choose("auto", native.builds_dir(), native.source_stamp())
    root = Path(settings.BASE_DIR)
    proc = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)],
                            cwd=root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()
    try:
        deadline = time.time() + 90
        status = None
        while time.time() < deadline and status is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/schema/",
                                            timeout=5) as response:
                    status = response.status
            except OSError:
                time.sleep(0.5)
        assert status == 200
        # The worker (with its embedded beat) may come up after the web server.
        while time.time() < deadline and not any(" ready." in line for line in lines):
            time.sleep(0.5)
        assert any(" ready." in line for line in lines), "".join(lines)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        reader.join(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    output = "".join(lines)
    assert f"running at http://127.0.0.1:{port}/" in output
    engine = "pure" if build is None else "compiled"
    assert f"(SQLite, Celery on filesystem broker, {engine} battle engine)" in output
    assert "Stopped the web server and the worker." in output
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)


def _groups() -> dict[int, int]:
    """pid -> process group of every process on the machine (from /proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                found[int(entry.name)] = int(fields[2])
    return found


def _wait_for(predicate, deadline: float, what: str, lines: list[str]) -> None:
    while time.time() < deadline and not predicate():
        time.sleep(0.3)
    assert predicate(), f"{what}:\n" + "".join(lines)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_serve_restarts_a_killed_worker_keeps_serving_and_leaves_no_process(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(EAGLES_VAR_DIR=str(tmp_path), SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    root = Path(settings.BASE_DIR)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=root, env=env,
                   check=True)
    proc = subprocess.Popen([sys.executable, "manage.py", "serve", "--port", str(port)],
                            cwd=root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)
    reader.start()

    def pids(name: str) -> list[int]:
        return [int(m) for line in list(lines)
                for m in re.findall(rf"^{name} started \(pid (\d+)\)", line)]

    def ready_count() -> int:
        return sum(" ready." in line for line in list(lines))

    def answers() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/", timeout=5) as r:
                return r.status == 200
        except OSError:
            return False

    client = Celery("serve-test-client")
    results = tmp_path / "celery" / "results"
    client.conf.update(
        broker_url="filesystem://", result_backend=f"file://{results}",
        broker_transport_options={"data_folder_in": str(tmp_path / "celery" / "broker"),
                                  "data_folder_out": str(tmp_path / "celery" / "broker"),
                                  "control_folder": str(tmp_path / "celery" / "control")})
    groups: set[int] = set()
    try:
        deadline = time.time() + 150
        _wait_for(lambda: ready_count() >= 1 and answers(), deadline, "serve never came up",
                  lines)
        (web,), (worker,) = pids("web server"), pids("worker")
        groups |= {web, worker}
        # The worker's embedded beat runs in a child process of the worker's group.
        _wait_for(lambda: sum(g == worker for g in _groups().values()) >= 2, deadline,
                  "no beat child", lines)
        os.kill(worker, signal.SIGKILL)
        assert answers(), "the web server stopped with the worker"
        _wait_for(lambda: len(pids("worker")) == 2, deadline, "no new worker", lines)
        new = pids("worker")[1]
        groups.add(new)
        assert worker not in _groups().values(), "the killed worker's beat child is left"
        assert answers() and pids("web server") == [web]
        _wait_for(lambda: ready_count() >= 2, deadline, "the new worker is not ready", lines)
        value = client.send_task("eagles.ping", args=[21]).get(timeout=60)
        assert value == {"pong": 42, "worker_pid": new}
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        reader.join(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        for pgid in groups:
            try:
                os.killpg(pgid, signal.SIGKILL)
            except OSError:
                pass
    output = "".join(lines)
    assert "worker (pid" in output and "restarting in 1 s" in output
    assert "Stopped the web server and the worker." in output
    left = {pid for pid, pgid in _groups().items() if pgid in groups}
    assert not left, f"processes left behind: {left}"
    assert not answers()
