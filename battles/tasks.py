"""Celery tasks of the battle service. Each takes ids, calls a service and is idempotent.

* ``battles.bot_move(battle_id, seq)``: the computer plays its actions from ``seq`` until a
  human has priority or the battle ends. Sent with ``transaction.on_commit`` by the service
  (``services._enqueue_bot_move``) after an action that hands the computer priority; a
  repeated, late or doubled message finds the battle past ``seq`` and changes nothing.
* ``battles.flag_fall(battle_id, seq)``: booked with ``eta=deadline`` once a position with a
  running clock commits (``services._enqueue_flag_fall``); ends the battle by time if it is
  still at ``seq`` and past its deadline, else does nothing.
* ``battles.tick()`` (beat): re-sends lost computer moves, ends the battles past their
  deadline (a lost flag-fall task, a worker that was down) and expires waiting battles
  nobody joined.
"""

from __future__ import annotations

import logging
import os

from celery import current_app, shared_task
from django.conf import settings

from . import services

log = logging.getLogger(__name__)

# The queue the battle tasks go to (tests give a worker its own); None: the default queue.
QUEUE = os.environ.get("EAGLES_BATTLE_QUEUE") or None


def send_bot_move(battle_id: int, seq: int) -> None:
    options = {"queue": QUEUE} if QUEUE else {}
    current_app.send_task("battles.bot_move", args=[battle_id, seq], **options)


def send_flag_fall(battle_id: int, seq: int, eta) -> None:
    options = {"queue": QUEUE} if QUEUE else {}
    current_app.send_task("battles.flag_fall", args=[battle_id, seq], eta=eta, **options)


@shared_task(name="battles.flag_fall", acks_late=True)
def flag_fall(battle_id: int, seq: int) -> bool:
    return services.flag_fall(battle_id, seq)


@shared_task(name="battles.bot_move", acks_late=True)
def bot_move(battle_id: int, seq: int) -> int:
    return services.bot_move(battle_id, seq)


@shared_task(name="battles.tick")
def tick() -> list[tuple[int, int]]:
    stalled = services.stalled_computer_turns()
    for battle_id, seq in stalled:
        send_bot_move(battle_id, seq)
    for battle_id, seq in services.overdue_flags():
        try:  # one battle that cannot end (a listener failing) must not stop the others
            services.flag_fall(battle_id, seq)
        except Exception:
            log.exception("battle %s: the flag fall at seq %s failed", battle_id, seq)
    services.expire_waiting()
    return stalled


current_app.conf.beat_schedule = {
    **(current_app.conf.beat_schedule or {}),
    "battles-tick": {"task": "battles.tick", "schedule": float(settings.EAGLES_TICK_SECONDS)},
}
