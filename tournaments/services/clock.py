"""The clock: one idempotent step (``advance``) does whatever is due for a tournament, and
``schedule_wake`` books the next step as a Celery task with an ETA (deduplicated through
``Tournament.wake_at``). The periodic ``tick`` task re-sends any wake that was missed.

Order of the steps (README "Clock"): registration closes -> check-in opens -> at the start
check-in closes and round 1 is paired -> a round at time gets the time-limit results -> the
next round is paired when the previous one is complete (on_completion) or at its scheduled
start time, once the previous one is complete (scheduled).
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from ..models import BEFORE_START, Round, Status, Tournament
from .common import lock_tournament
from .errors import Conflict
from .lifecycle import not_pairable, pair, start
from .results import time_limit
from .wake import next_due, schedule_wake

log = logging.getLogger(__name__)

__all__ = ["advance", "next_due", "overdue", "schedule_wake"]


def advance(tournament_id, now=None) -> list[str]:
    """Do what is due now; returns what was done (for logs and tests). Idempotent: a second
    call at the same moment does nothing."""
    now = now or timezone.now()
    done: list[str] = []
    with transaction.atomic():
        try:
            t = lock_tournament(tournament_id)
        except Exception:  # deleted since the task was queued
            return done
        if t.status == Status.REGISTRATION and t.registration_closes_at and \
                now >= t.registration_closes_at:
            t.status = Status.CLOSED
            t.save(update_fields=["status"])
            done.append("registration closed")
        if t.status in (Status.REGISTRATION, Status.CLOSED) and t.check_in_opens_at and \
                now >= t.check_in_opens_at:
            t.status = Status.CHECK_IN
            t.save(update_fields=["status"])
            done.append("check-in opened")
        if t.status in BEFORE_START and t.starts_at and now >= t.starts_at:
            try:
                with transaction.atomic():
                    start(t, now)
                done.append("started, round 1 paired")
            except Conflict as exc:
                t.refresh_from_db()
                t.status = Status.CANCELLED
                t.finished_at = now
                t.save(update_fields=["status", "finished_at"])
                done.append(f"cancelled: {exc.message}")
            t.refresh_from_db()
        if t.status == Status.RUNNING:
            rnd = t.round_set.filter(number=t.current_round).first()
            if rnd is not None and rnd.state == Round.State.PLAYING and rnd.ends_at and \
                    now >= rnd.ends_at and not rnd.timed_out:
                n = time_limit(rnd.pk, now)
                done.append(f"round {rnd.number} at time: {n} results")
                t.refresh_from_db()
                rnd.refresh_from_db()
            due = next_due(t, now)
            if t.status == Status.RUNNING and due is not None and due <= now and (
                    rnd is None or rnd.state == Round.State.FINISHED):
                number = t.current_round + 1
                if not not_pairable(t, number):
                    pair(t, number, now)
                    done.append(f"round {number} paired")
                    t.refresh_from_db()
        schedule_wake(t, now)
    if done:
        log.info("tournament %s: %s", tournament_id, "; ".join(done))
    return done


def overdue(now=None, grace_seconds: int = 5) -> list[int]:
    """Tournaments whose booked wake is past (a lost or late message): ``tick`` re-sends."""
    now = now or timezone.now()
    late = now - timedelta(seconds=grace_seconds)
    return list(Tournament.objects.filter(
        status__in=[*BEFORE_START, Status.RUNNING], wake_at__lte=late)
        .values_list("pk", flat=True))
