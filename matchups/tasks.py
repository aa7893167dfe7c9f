"""Celery tasks of the matchup lab: ``matchups.run_chunk(matchup_id, chunk)`` plays and stores
one chunk of a matchup once (``services.run_chunk``: a repeated message changes nothing);
``matchups.tick`` (beat) re-sends the missing chunks of a matchup stalled for
``EAGLES_MATCHUP_STALL_SECONDS`` (a lost message, a worker gone). Sent by name from
``enqueue.py`` (its queue: ``EAGLES_MATCHUP_QUEUE``)."""

from __future__ import annotations

from celery import current_app, shared_task
from django.conf import settings

from . import enqueue, services


@shared_task(name="matchups.run_chunk", acks_late=True)
def run_chunk(matchup_id: int, chunk: int) -> int:
    return services.run_chunk(matchup_id, chunk)


@shared_task(name="matchups.tick")
def tick() -> list[tuple[int, int]]:
    """Beat: re-send the chunks of stalled matchups."""
    stalled = services.stalled_chunks()
    for matchup_id, chunk in stalled:
        enqueue.send_chunk(matchup_id, chunk)
    return stalled


current_app.conf.beat_schedule = {
    **(current_app.conf.beat_schedule or {}),
    "matchups-tick": {"task": "matchups.tick", "schedule": float(settings.EAGLES_TICK_SECONDS)},
}
