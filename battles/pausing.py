"""Pausing battles: a tournament's organiser pauses the event, and its running battles stop.

``pause_battles(ids, now)`` / ``resume_battles(ids, now)`` run inside the caller's transaction
(the tournament's ``pause`` / ``resume``), each battle under its row lock, taken in pk order
(the caller takes them before the tournament's row: a finishing battle locks its row, then the
tournament's, so this order never deadlocks with one).

While ``Battle.paused_at`` is set (ruling, tournaments/README.md *Pausing*):

- **the clocks stand still** (``clock.stop``): the side to move keeps the time it had left, no
  deadline, so the booked ``play.flag_fall`` finds nothing to do and the beat's tick
  (``play.turns.overdue_flags``) skips it; nobody can be claimed against as absent (no clock
  runs: ``presence.absent_since`` is None) and a round's no-show deadline does not run either
  (the tournament's round timer is paused with it);
- **every action is refused** (409 ``paused``): acting, undoing, resigning, claiming. A pause
  is a stop, as at the table when the organiser calls time out.

``resume_battles`` restarts the clock of the side to move with the time it had left
(``clock.restart``; an absent player gets the whole absence limit again, counted from the
resume), books the flag fall again, and asks the computer to move if it is its turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from play import clock, enqueue, turns

from .kind import KIND
from .models import Battle, Status


def _locked(ids: Iterable[int]) -> list[Battle]:
    return list(Battle.objects.select_for_update().filter(pk__in=list(ids)).order_by("pk"))


def pause_battles(ids: Iterable[int], now: datetime) -> list[int]:
    """Pause the active battles among ``ids`` (inside the caller's transaction); returns the
    ids paused now (an already paused or finished battle is left alone)."""
    done = []
    for battle in _locked(ids):
        if battle.status != Status.ACTIVE or battle.paused_at is not None:
            continue
        fields = clock.stop(battle, now)
        battle.paused_at = now
        battle.save(update_fields=[*fields, "paused_at"])
        turns.changed(KIND, battle)  # the pages and sockets show "Paused by the organiser"
        done.append(battle.pk)
    return done


def resume_battles(ids: Iterable[int], now: datetime) -> list[int]:
    """Resume the paused battles among ``ids`` (inside the caller's transaction): the clocks
    run again with the time they had, the flag fall is booked again. Returns the ids."""
    done = []
    for battle in _locked(ids):
        if battle.paused_at is None:
            continue
        battle.paused_at = None
        fields = clock.restart(battle, now) if battle.status == Status.ACTIVE else []
        battle.save(update_fields=[*fields, "paused_at"])
        if battle.status == Status.ACTIVE:
            enqueue.flag_fall_on_commit(KIND.kind, battle)
            if battle.to_move and battle.to_move == battle.computer_side():
                enqueue.bot_move_on_commit(KIND.kind, battle.pk, battle.seq)
        turns.changed(KIND, battle)
        done.append(battle.pk)
    return done
