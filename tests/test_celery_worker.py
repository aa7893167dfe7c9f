"""A task travels through the real broker to a real worker process, and its result comes back.

Embedded mode: kombu's filesystem transport and the file result store, in a temporary folder.
With REDIS_URL: Redis as broker and result store. The worker is a separate OS process.
"""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from celery import Celery
from django.conf import settings

pytestmark = pytest.mark.worker
ROOT = Path(settings.BASE_DIR)


@pytest.fixture
def worker_and_client(tmp_path):
    env = os.environ.copy()
    env["EAGLES_VAR_DIR"] = str(tmp_path)  # the worker's settings build its folders here
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    queue = f"test-{uuid.uuid4().hex[:8]}"
    client = Celery("eagles-test-client")
    if settings.REDIS_URL:
        client.conf.update(broker_url=settings.REDIS_URL, result_backend=settings.REDIS_URL)
    else:
        broker = tmp_path / "celery" / "broker"
        results = tmp_path / "celery" / "results"
        for folder in (broker, results, tmp_path / "celery" / "control"):
            folder.mkdir(parents=True, exist_ok=True)
        client.conf.update(
            broker_url="filesystem://", result_backend=f"file://{results}",
            broker_transport_options={"data_folder_in": str(broker),
                                      "data_folder_out": str(broker),
                                      "control_folder": str(tmp_path / "celery" / "control")})
    log = open(tmp_path / "worker.log", "w")
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo",
         "--queues", queue, "--hostname", f"{queue}@localhost", "--loglevel", "INFO",
         "--without-gossip", "--without-mingle", "--without-heartbeat"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        yield client, queue, worker
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
        log.close()


def test_task_round_trip_through_broker_to_real_worker(worker_and_client, tmp_path):
    client, queue, worker = worker_and_client
    result = client.send_task("eagles.ping", args=[21], queue=queue)
    try:
        value = result.get(timeout=60)
    except Exception:
        print((tmp_path / "worker.log").read_text())
        raise
    assert value["pong"] == 42
    # The answer came from the worker process, not from this one.
    assert value["worker_pid"] == worker.pid
    assert value["worker_pid"] != os.getpid()
