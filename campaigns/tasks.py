"""Celery tasks of the campaign service (idempotent, like ``battles.tasks``).

* ``campaigns.bot_move(campaign_id, seq)``: the computer decides from ``seq`` until a person
  must act; sent on commit by ``services._record`` / ``create_campaign``; a repeated or late
  message finds the campaign past ``seq`` and changes nothing.
* ``campaigns.tick()`` (beat): re-sends the computer's lost moves.
"""

from __future__ import annotations

import os

from celery import current_app, shared_task
from django.conf import settings

from . import services

# The queue the campaign tasks go to (tests give a worker its own); None: the default queue.
QUEUE = os.environ.get("EAGLES_CAMPAIGN_QUEUE") or None


def send_bot_move(campaign_id: int, seq: int) -> None:
    options = {"queue": QUEUE} if QUEUE else {}
    current_app.send_task("campaigns.bot_move", args=[campaign_id, seq], **options)


@shared_task(name="campaigns.bot_move", acks_late=True)
def bot_move(campaign_id: int, seq: int) -> int:
    return services.bot_move(campaign_id, seq)


@shared_task(name="campaigns.tick")
def tick() -> list[tuple[int, int]]:
    stalled = services.stalled_computer_turns()
    for campaign_id, seq in stalled:
        send_bot_move(campaign_id, seq)
    return stalled


current_app.conf.beat_schedule = {
    **(current_app.conf.beat_schedule or {}),
    "campaigns-tick": {"task": "campaigns.tick",
                       "schedule": float(settings.EAGLES_TICK_SECONDS)},
}
