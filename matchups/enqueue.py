"""Sending the matchup lab's tasks by name (``matchups.run_chunk``), so that the services
enqueue without importing ``tasks.py``, which imports them: no import cycle either way."""

from __future__ import annotations

import os

from celery import current_app

# The queue the chunks go to (tests give a worker its own); None: the default queue.
QUEUE = os.environ.get("EAGLES_MATCHUP_QUEUE") or None


def send_chunk(matchup_id: int, chunk: int) -> None:
    options = {"queue": QUEUE} if QUEUE else {}
    current_app.send_task("matchups.run_chunk", args=[matchup_id, chunk], **options)
