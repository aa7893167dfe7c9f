"""Sending the tournament tasks by name (``tournaments.<name>``), so that the services enqueue
without importing ``tasks.py``, which imports them: no import cycle either way. The services
send through ``services.common.enqueue`` (after commit); ``tasks.py`` (the tick, a webhook's
retry, the beat entry) takes its queue from here too."""

from __future__ import annotations

import os

from celery import current_app

# The queue tournament tasks go to (tests give each worker its own); None: the default queue.
QUEUE = os.environ.get("EAGLES_TOURNAMENT_QUEUE") or None


def options() -> dict:
    """The routing options of a tournament task: its queue, when one is set."""
    return {"queue": QUEUE} if QUEUE else {}


def send(name: str, *args, eta=None) -> None:
    """Send ``tournaments.<name>`` with ``args`` (at ``eta``, if given) now."""
    extra = options()
    if eta is not None:
        extra["eta"] = eta
    current_app.send_task(f"tournaments.{name}", args=list(args), **extra)
