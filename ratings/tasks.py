"""The ratings' Celery tasks (issue 31: a match's rating off the ending action's path; see
``listeners``). Each takes ids and is idempotent.

* ``ratings.rate(kind, match_id)``: sent after the end of a match to be rated commits; rates
  it and deletes its ``PendingRating`` row in one transaction; a doubled or late message
  finds it rated and changes nothing.
* ``ratings.sweep()`` (beat, every ``EAGLES_TICK_SECONDS``): rates the matches whose pending
  row is older than ``listeners.GRACE`` (a broker down at the end, a worker that died).
"""

from __future__ import annotations

import logging

from celery import current_app, shared_task
from django.conf import settings

from . import listeners

log = logging.getLogger(__name__)


@shared_task(name=listeners.RATE, acks_late=True)
def rate(kind: str, match_id: int) -> bool:
    return listeners.rate_now(kind, match_id)


@shared_task(name="ratings.sweep")
def sweep() -> list[tuple[str, int]]:
    """Returns the (kind, id) it rated."""
    rated = []
    for kind, match_id in listeners.overdue():
        try:  # one match that cannot be rated must not stop the others
            if listeners.rate_now(kind, match_id):
                rated.append((kind, match_id))
        except Exception:
            log.exception("%s %s: the late rating failed", kind, match_id)
    return rated


current_app.conf.beat_schedule = {
    **(current_app.conf.beat_schedule or {}),
    "ratings-sweep": {"task": "ratings.sweep", "schedule": float(settings.EAGLES_TICK_SECONDS)},
}
