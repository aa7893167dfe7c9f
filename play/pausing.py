"""Pausing matches, any kind: a tournament's organiser pauses the event, and its running
matches stop.

``pause(kind, ids, now)`` / ``resume(kind, ids, now)`` run inside the caller's transaction
(the tournament's ``pause`` / ``resume``), each match under its row lock, taken in pk order
(the caller takes them before the tournament's row: a finishing match locks its row, then the
tournament's, so this order never deadlocks with one).

While ``Match.paused_at`` is set (ruling, tournaments/README.md *Pausing*):

- **the clocks stand still** (``clock.stop``): the side to move keeps the time it had left, no
  deadline, so the booked ``play.flag_fall`` finds nothing to do and the beat's tick
  (``turns.overdue_flags``) skips it; nobody can be claimed against as absent (no clock runs:
  ``presence.absent_since`` is None) and a round's no-show deadline does not run either (the
  tournament's round timer is paused with it); the computer is not asked to move
  (``turns.computer_to_move``);
- **every action is refused** (409 ``paused``, ``turns.refuse_if_paused``): acting, undoing,
  resigning, claiming. A pause is a stop, as at the table when the organiser calls time out.

``resume`` restarts the clock of the side to move with the time it had left
(``clock.restart``; an absent player gets the whole absence limit again, counted from the
resume), books the flag fall again, and asks the computer to move if it is its turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from . import clock, enqueue, registry
from .models import MatchStatus
from .registry import Match, MatchKind
from .turns import changed


def _kind(kind: MatchKind | str) -> MatchKind:
    return registry.get(kind) if isinstance(kind, str) else kind


def _locked(kind: MatchKind, ids: Iterable[int]) -> list[Match]:
    return list(kind.model.objects.select_for_update().filter(pk__in=list(ids)).order_by("pk"))


def pause(kind: MatchKind | str, ids: Iterable[int], now: datetime) -> list[int]:
    """Pause the active matches of ``kind`` (or its name) among ``ids`` (inside the caller's
    transaction); returns the ids paused now (an already paused or finished match is left
    alone)."""
    kind = _kind(kind)
    done = []
    for match in _locked(kind, ids):
        if match.status != MatchStatus.ACTIVE or match.paused_at is not None:
            continue
        fields = clock.stop(match, now)
        match.paused_at = now
        match.save(update_fields=[*fields, "paused_at"])
        changed(kind, match)  # the pages and sockets show "Paused by the organiser"
        done.append(match.pk)
    return done


def resume(kind: MatchKind | str, ids: Iterable[int], now: datetime) -> list[int]:
    """Resume the paused matches of ``kind`` among ``ids`` (inside the caller's transaction):
    the clocks run again with the time they had, the flag fall is booked again, the computer
    is asked if it is its move. Returns the ids."""
    kind = _kind(kind)
    done = []
    for match in _locked(kind, ids):
        if match.paused_at is None:
            continue
        match.paused_at = None
        active = match.status == MatchStatus.ACTIVE
        fields = clock.restart(match, now) if active else []
        match.save(update_fields=[*fields, "paused_at"])
        if active:
            enqueue.flag_fall_on_commit(kind.kind, match)
            if match.to_move and match.to_move == match.computer_side():
                enqueue.bot_move_on_commit(kind.kind, match.pk, match.seq)
        changed(kind, match)
        done.append(match.pk)
    return done
