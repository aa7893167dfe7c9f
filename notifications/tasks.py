"""Celery tasks of the notifications (found by ``config.celery``'s ``autodiscover_tasks``).

* ``notifications.deadline_near()``: beat, every ``EAGLES_TICK_SECONDS``: warns the players
  whose battle clock or tournament round is about to run out (``deadlines.warn``). Idempotent:
  each warning has a key (battle and seq, or round) and is sent once.
"""

from __future__ import annotations

from celery import current_app, shared_task
from django.conf import settings

from . import deadlines


@shared_task(name="notifications.deadline_near")
def deadline_near() -> int:
    return deadlines.warn()


current_app.conf.beat_schedule = {
    **(current_app.conf.beat_schedule or {}),
    "notifications-deadline-near": {"task": "notifications.deadline_near",
                                    "schedule": float(settings.EAGLES_TICK_SECONDS)},
}
