"""Celery tasks of the matchup lab: ``matchups.run_chunk(matchup_id, chunk)`` plays and stores
one chunk of a matchup once (``services.run_chunk``: a repeated message changes nothing)."""

from __future__ import annotations

import os

from celery import current_app, shared_task

from . import services

# The queue the chunks go to (tests give a worker its own); None: the default queue.
QUEUE = os.environ.get("EAGLES_MATCHUP_QUEUE") or None


def send_chunk(matchup_id: int, chunk: int) -> None:
    options = {"queue": QUEUE} if QUEUE else {}
    current_app.send_task("matchups.run_chunk", args=[matchup_id, chunk], **options)


@shared_task(name="matchups.run_chunk", acks_late=True)
def run_chunk(matchup_id: int, chunk: int) -> int:
    return services.run_chunk(matchup_id, chunk)
