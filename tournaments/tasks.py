"""Celery tasks of the tournament clock. Each takes ids, calls a service and is idempotent:
running it twice (retry, redelivery after a killed worker, a doubled message, the ``tick``
catching up) changes nothing the second time. Services enqueue them by name with
``transaction.on_commit`` (``services.common.enqueue``, through ``enqueue.send``: the services
never import this module, which imports them).

* ``tournaments.advance(tournament_id)``: do what is due (close registration, open/close
  check-in, start, time-limit results, pair the next round) and book the next wake with an ETA.
* ``tournaments.pair_round(tournament_id, number)``: pair round N if it is the next one.
* ``tournaments.time_limit(round_id)``: the time-limit results of a round at time.
* ``tournaments.record_online(match_id)``: an online match's result, sent once one of its
  games' end commits (``services.online_results``); idempotent (a settled match is left).
* ``tournaments.tick()``: periodic safety net (celery beat, every ``TICK_SECONDS``: the
  ``EAGLES_TICK_SECONDS`` setting, default 30): re-sends ``advance`` for every tournament whose
  booked wake is past (a lost or late message), and records the online results whose task
  was lost (``online_results.unreported``).
* ``tournaments.deliver_webhook(delivery_id)``: POST a signed event; exponential backoff.
"""

from __future__ import annotations

import logging
import os

from celery import current_app, shared_task
from django.conf import settings

from . import enqueue
from .services import clock, lifecycle, online_results, webhooks
from .services import results as result_services

log = logging.getLogger(__name__)
TICK_SECONDS = settings.EAGLES_TICK_SECONDS
WEBHOOK_RETRIES = 6


def backoff_base() -> float:
    """Seconds before the first webhook retry; doubled each time (env for tests)."""
    return float(os.environ.get("EAGLES_WEBHOOK_BACKOFF", "10"))


@shared_task(name="tournaments.advance", acks_late=True)
def advance(tournament_id: int) -> list[str]:
    return clock.advance(tournament_id)


@shared_task(name="tournaments.pair_round", acks_late=True)
def pair_round(tournament_id: int, number: int) -> int | None:
    rnd = lifecycle.pair_round(tournament_id, number, strict=False)
    return None if rnd is None else rnd.pk


@shared_task(name="tournaments.time_limit", acks_late=True)
def time_limit(round_id: int) -> int:
    return result_services.time_limit(round_id)


@shared_task(name=online_results.RECORD, acks_late=True)
def record_online(match_id: int) -> bool:
    """An online match's result from its finished games (sent once a game's end commits)."""
    return online_results.record_online(match_id) is not None


@shared_task(name="tournaments.tick")
def tick() -> list[int]:
    late = clock.overdue()
    for pk in late:
        enqueue.send("advance", pk)
    for match_id in online_results.unreported():  # a result whose task was lost
        try:  # one match that cannot settle must not stop the others
            online_results.record_online(match_id)
        except Exception:
            log.exception("tournament match %s: the late online result failed", match_id)
    return late


@shared_task(name="tournaments.deliver_webhook", bind=True, acks_late=True,
             max_retries=WEBHOOK_RETRIES)
def deliver_webhook(self, delivery_id: int) -> str:
    final = self.request.retries >= self.max_retries
    try:
        return webhooks.deliver(delivery_id, final_attempt=final)
    except webhooks.DeliveryFailed as exc:
        if final:
            return "failed"
        raise self.retry(exc=exc, countdown=backoff_base() * 2 ** self.request.retries,
                         **enqueue.options()) from None


# celery beat runs the safety-net tick (only when a beat process is started: `celery -A config
# beat`, or embedded with `worker --beat` as `manage.py serve` does); the ETA wakes do the work
# on time without it. The tick goes to the tournament queue, like the tasks it re-sends.
current_app.conf.beat_schedule = {
    **(current_app.conf.beat_schedule or {}),
    "tournaments-tick": {"task": "tournaments.tick", "schedule": float(TICK_SECONDS),
                         "options": enqueue.options()},
}
