"""The game service's Celery tasks, for every kind of match. Each takes ids, calls
``play.turns`` and is idempotent; they are sent by name (``play.enqueue``).

* ``play.bot_move(kind, match_id, seq)``: the computer plays from ``seq`` until a person
  must act or the match ends; a repeated, late or doubled message finds the match past
  ``seq`` and changes nothing.
* ``play.flag_fall(kind, match_id, seq)``: booked with ``eta=deadline`` once a position with
  a running clock commits; ends the match by time if it is still at ``seq`` and past its
  deadline, else does nothing.
* ``play.tick()`` (beat, every ``EAGLES_TICK_SECONDS``): for every kind, re-sends lost
  computer moves, ends the matches past their deadline (a lost flag-fall task, a worker
  that was down) and expires waiting matches nobody joined.

The names the battle and campaign services used before (``battles.bot_move(battle_id,
seq)``, ``campaigns.flag_fall(...)``, ...) stay registered so that messages queued before an
upgrade are still played.
"""

from __future__ import annotations

import logging

from celery import current_app, shared_task
from django.conf import settings

from . import enqueue, registry, turns

log = logging.getLogger(__name__)


@shared_task(name=enqueue.FLAG_FALL, acks_late=True)
def flag_fall(kind: str, match_id: int, seq: int) -> bool:
    return turns.flag_fall(registry.get(kind), match_id, seq)


@shared_task(name=enqueue.BOT_MOVE, acks_late=True)
def bot_move(kind: str, match_id: int, seq: int) -> int:
    return turns.bot_move(registry.get(kind), match_id, seq)


@shared_task(name=enqueue.TICK)
def tick() -> list[tuple[str, int, int]]:
    """Returns the (kind, id, seq) of the computer's turns it sent again."""
    stalled = []
    for kind in registry.kinds():
        for match_id, seq in turns.stalled_computer_turns(kind):
            enqueue.send_bot_move(kind.kind, match_id, seq)
            stalled.append((kind.kind, match_id, seq))
        for match_id, seq in turns.overdue_flags(kind):
            try:  # one match that cannot end (a listener failing) must not stop the others
                turns.flag_fall(kind, match_id, seq)
            except Exception:
                log.exception("%s %s: the flag fall at seq %s failed", kind.kind, match_id, seq)
        turns.expire_waiting(kind)
    return stalled


# The names used before the one service (messages queued before an upgrade).
@shared_task(name="battles.bot_move", acks_late=True)
def battles_bot_move(battle_id: int, seq: int) -> int:
    return bot_move("battle", battle_id, seq)


@shared_task(name="battles.flag_fall", acks_late=True)
def battles_flag_fall(battle_id: int, seq: int) -> bool:
    return flag_fall("battle", battle_id, seq)


@shared_task(name="campaigns.bot_move", acks_late=True)
def campaigns_bot_move(campaign_id: int, seq: int) -> int:
    return bot_move("campaign", campaign_id, seq)


@shared_task(name="campaigns.flag_fall", acks_late=True)
def campaigns_flag_fall(campaign_id: int, seq: int) -> bool:
    return flag_fall("campaign", campaign_id, seq)


current_app.conf.beat_schedule = {
    **(current_app.conf.beat_schedule or {}),
    "play-tick": {"task": enqueue.TICK, "schedule": float(settings.EAGLES_TICK_SECONDS)},
}
