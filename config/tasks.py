"""Tasks that prove the worker is alive; real work lives in each app's tasks.py."""

from celery import shared_task


@shared_task(name="eagles.ping")
def ping(value: int) -> dict:
    """Echo back through the result store: used by health checks and the worker test."""
    import os

    return {"pong": value * 2, "worker_pid": os.getpid()}
