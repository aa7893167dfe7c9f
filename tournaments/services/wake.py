"""Booking the clock's next step: ``next_due`` says when something is next due for a
tournament, ``schedule_wake`` books ``advance`` then (deduplicated through
``Tournament.wake_at``). Shared by the lifecycle (a round paired or finished) and the clock."""

from __future__ import annotations

from django.utils import timezone

from ..models import PairingMode, Round, Status, Tournament
from .common import enqueue


def next_due(t: Tournament, now):
    """When something is next due for ``t`` (``now`` if at once; None: nothing is)."""
    if t.status == Status.REGISTRATION:
        times = [x for x in (t.registration_closes_at, t.check_in_opens_at, t.starts_at) if x]
        return min(times) if times else None
    if t.status == Status.CLOSED:
        times = [x for x in (t.check_in_opens_at, t.starts_at) if x]
        return min(times) if times else None
    if t.status == Status.CHECK_IN:
        return t.starts_at
    if t.status != Status.RUNNING:
        return None
    rnd = t.round_set.filter(number=t.current_round).first()
    if rnd is not None and rnd.state == Round.State.PLAYING:
        return rnd.ends_at if rnd.ends_at and not rnd.timed_out else None
    if t.planned_rounds and t.current_round >= t.planned_rounds:
        return None
    if t.pairing_mode == PairingMode.ON_COMPLETION or t.next_round_at is None:
        return now
    return max(t.next_round_at, now)


def schedule_wake(t: Tournament, now=None) -> None:
    """Book ``advance`` at the next due time, unless that wake is already booked. Call with
    ``t`` locked (or new)."""
    now = now or timezone.now()
    due = next_due(t, now)
    if due is None:
        if t.wake_at is not None:
            t.wake_at = None
            t.save(update_fields=["wake_at"])
        return
    if t.wake_at is not None and t.wake_at == due:
        return
    if t.wake_at is not None and due <= now and t.wake_at <= now:
        return  # an immediate wake is already on its way
    t.wake_at = due
    t.save(update_fields=["wake_at"])
    enqueue("advance", t.pk, eta=due if due > now else None)
