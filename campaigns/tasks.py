"""Celery tasks of the campaign service (idempotent, like ``battles.tasks``).

* ``campaigns.bot_move(campaign_id, seq)``: the computer decides from ``seq`` until a person
  must act; sent on commit by ``services._record`` / ``create_campaign``; a repeated or late
  message finds the campaign past ``seq`` and changes nothing.
* ``campaigns.flag_fall(campaign_id, seq)``: booked with ``eta=deadline`` once a position
  with a running clock commits (``services._enqueue_flag_fall``); ends the campaign by time
  if it is still at ``seq`` and past its deadline, else does nothing.
* ``campaigns.tick()`` (beat): re-sends the computer's lost moves, ends the campaigns past
  their deadline (a lost flag-fall task, a worker that was down) and expires waiting
  campaigns nobody joined.
"""

from __future__ import annotations

import logging
import os

from celery import current_app, shared_task
from django.conf import settings

from . import services, timing

log = logging.getLogger(__name__)

# The queue the campaign tasks go to (tests give a worker its own); None: the default queue.
QUEUE = os.environ.get("EAGLES_CAMPAIGN_QUEUE") or None


def send_bot_move(campaign_id: int, seq: int) -> None:
    options = {"queue": QUEUE} if QUEUE else {}
    current_app.send_task("campaigns.bot_move", args=[campaign_id, seq], **options)


def send_flag_fall(campaign_id: int, seq: int, eta) -> None:
    options = {"queue": QUEUE} if QUEUE else {}
    current_app.send_task("campaigns.flag_fall", args=[campaign_id, seq], eta=eta, **options)


@shared_task(name="campaigns.flag_fall", acks_late=True)
def flag_fall(campaign_id: int, seq: int) -> bool:
    return timing.flag_fall(campaign_id, seq)


@shared_task(name="campaigns.bot_move", acks_late=True)
def bot_move(campaign_id: int, seq: int) -> int:
    return services.bot_move(campaign_id, seq)


@shared_task(name="campaigns.tick")
def tick() -> list[tuple[int, int]]:
    stalled = services.stalled_computer_turns()
    for campaign_id, seq in stalled:
        send_bot_move(campaign_id, seq)
    for campaign_id, seq in timing.overdue_flags():
        try:  # one campaign that cannot end (a listener failing) must not stop the others
            timing.flag_fall(campaign_id, seq)
        except Exception:
            log.exception("campaign %s: the flag fall at seq %s failed", campaign_id, seq)
    timing.expire_waiting()
    return stalled


current_app.conf.beat_schedule = {
    **(current_app.conf.beat_schedule or {}),
    "campaigns-tick": {"task": "campaigns.tick",
                       "schedule": float(settings.EAGLES_TICK_SECONDS)},
}
