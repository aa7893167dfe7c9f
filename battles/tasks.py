"""Celery tasks of the battle service. Each takes ids, calls a service and is idempotent.

* ``battles.bot_move(battle_id, seq)``: the computer plays its actions from ``seq`` until a
  human has priority or the battle ends. Sent with ``transaction.on_commit`` by the service
  (``services._enqueue_bot_move``) after an action that hands the computer priority; a
  repeated, late or doubled message finds the battle past ``seq`` and changes nothing.
"""

from __future__ import annotations

from celery import current_app, shared_task
from django.conf import settings

from . import services


def send_bot_move(battle_id: int, seq: int) -> None:
    current_app.send_task("battles.bot_move", args=[battle_id, seq])


@shared_task(name="battles.bot_move", acks_late=True)
def bot_move(battle_id: int, seq: int) -> int:
    return services.bot_move(battle_id, seq)


@shared_task(name="battles.tick")
def tick() -> list[tuple[int, int]]:
    stalled = services.stalled_computer_turns()
    for battle_id, seq in stalled:
        send_bot_move(battle_id, seq)
    return stalled


current_app.conf.beat_schedule = {
    **(current_app.conf.beat_schedule or {}),
    "battles-tick": {"task": "battles.tick", "schedule": float(settings.EAGLES_TICK_SECONDS)},
}
