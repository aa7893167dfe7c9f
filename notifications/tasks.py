"""Celery tasks of the notifications (found by ``config.celery``'s ``autodiscover_tasks``).

* ``notifications.deadline_near()``: beat, every ``EAGLES_TICK_SECONDS``: warns the players
  whose battle clock or tournament round is about to run out (``deadlines.warn``). Idempotent:
  each warning has a key (battle and seq, or round) and is sent once.
* ``notifications.send_email(notification_id)``: sends one notification's e-mail
  (``mailing.deliver``); queued by ``services.notify`` after the row commits
  (``mailing.enqueue``). Idempotent: a notification is e-mailed once however often the
  task runs (``emailed_at``, claimed with a conditional UPDATE). An error of the mail server
  (SMTP, network) is retried ``EMAIL_RETRIES`` times, after ``EAGLES_EMAIL_BACKOFF`` seconds
  (30 by default), doubled each time up to ``EMAIL_BACKOFF_MAX``; then it gives up with a
  log line (the notification stays in the site's list). Returns what happened (``mailing``'s
  outcomes, or ``"failed"``).
"""

from __future__ import annotations

import logging
import os
import smtplib

from celery import current_app, shared_task
from django.conf import settings

from . import deadlines, mailing

log = logging.getLogger(__name__)

EMAIL_RETRIES = 5
EMAIL_BACKOFF_MAX = 600.0  # seconds: 30, 60, 120, 240, 480 with the default base
FAILED = "failed"


def email_backoff(retries: int) -> float:
    """Seconds before retry number ``retries + 1`` of an e-mail (env for tests)."""
    base = float(os.environ.get("EAGLES_EMAIL_BACKOFF", "30"))
    return min(base * 2 ** retries, EMAIL_BACKOFF_MAX)


@shared_task(name="notifications.deadline_near")
def deadline_near() -> int:
    return deadlines.warn()


@shared_task(name=mailing.TASK, bind=True, acks_late=True, ignore_result=True,
             max_retries=EMAIL_RETRIES)
def send_email(self, notification_id: int) -> str:
    retries = self.request.retries
    options = {"queue": mailing.queue()} if mailing.queue() else {}
    try:
        outcome = mailing.deliver(notification_id)
    except (smtplib.SMTPException, OSError) as exc:  # the mail server: down, slow, refusing
        if retries >= self.max_retries:
            log.error("notification %s: its e-mail failed %s times, given up: %r",
                      notification_id, retries + 1, exc)
            return FAILED
        log.warning("notification %s: its e-mail failed (%r), retried in %.0f s",
                    notification_id, exc, email_backoff(retries))
        raise self.retry(exc=exc, countdown=email_backoff(retries), **options) from None
    if outcome == mailing.BUSY and retries < self.max_retries:
        # Another worker claimed it moments ago: if that worker dies, the claim lapses and
        # this message is the one left to send it.
        raise self.retry(countdown=mailing.LEASE.total_seconds() + 1, **options)
    return outcome


current_app.conf.beat_schedule = {
    **(current_app.conf.beat_schedule or {}),
    "notifications-deadline-near": {"task": "notifications.deadline_near",
                                    "schedule": float(settings.EAGLES_TICK_SECONDS)},
}
