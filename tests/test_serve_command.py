"""`make run` ends in `manage.py serve`: web server and Celery worker; Ctrl-C stops both."""

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.worker


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_starts_web_and_worker_and_ctrl_c_stops_both(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(EAGLES_VAR_DIR=str(tmp_path), SQLITE_PATH=str(tmp_path / "db.sqlite3"))
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
    assert "Stopped the web server and the worker." in output
    with pytest.raises(OSError):
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
