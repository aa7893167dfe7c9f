"""Notification e-mail, sent by a worker (the Celery task ``notifications.send_email``), never
in the thread that made the change: an SMTP server that is slow (a 10 s timeout) or down
delays or loses an e-mail, never a player's action.

* ``enqueue(notification_id)``: called by ``services.notify`` once the notification row has
  committed. Sends the task by name (``current_app.send_task``: this module imports no
  tasks, so there is no import cycle). A broker that refuses the message (down, unreachable)
  is logged and nothing more: the caller goes on, the in-site notification exists, and the
  row keeps ``by_email`` true with ``emailed_at`` empty (mailed never, not twice).
* ``deliver(notification_id)``: what the task does; returns what happened (``SENT``, or why
  nothing was sent). Idempotent, so a redelivered or doubled task sends nothing more:

  1. a conditional UPDATE claims the row (``email_claimed_at``), only if it is to be mailed
     (``by_email``), not yet mailed (``emailed_at`` empty), still unread and not claimed by
     another worker in the last ``LEASE``. No transaction is held while the mail server
     talks (on SQLite a transaction would hold the whole database's write lock);
  2. the e-mail goes to the user's address as it is now (none any more: nothing sent);
  3. ``emailed_at`` is set. If sending raised, the claim is let go first and the error goes
     to the task, which retries with a bounded backoff.

  A worker killed between 2 and 3 leaves a claim that lapses after ``LEASE``; the message
  comes back (``acks_late``) and, finding a fresh claim, the task looks again once the lease
  is over (``BUSY``), so that e-mail is then sent (the one case where a person may get it
  twice: the SMTP server took it, the worker died before step 3).

The settings decide as before, when the notification is written (``services.notify``: the
user's e-mail switch for the kind, an address, never a live battle's "your move"); the row's
``by_email`` records it. A notification read before its e-mail went out (the player moved,
so the "your move" is out of date, or saw it in the list) is not mailed (``READ``).
"""

from __future__ import annotations

import logging
import os
from datetime import timedelta

from celery import current_app
from django.conf import settings
from django.core.mail import send_mail
from django.db.models import Q
from django.utils import timezone

from .models import Notification

log = logging.getLogger(__name__)

TASK = "notifications.send_email"
# How long a worker's claim on an e-mail holds: past it, another worker may send it (the first
# died). Far above one SMTP exchange (a 10 s timeout per network operation).
LEASE = timedelta(minutes=5)

# What ``deliver`` did.
SENT = "sent"
ALREADY = "already"        # e-mailed before: a redelivered or doubled task
BUSY = "busy"              # another worker claimed it less than LEASE ago
READ = "read"              # read (or out of date) before it could be mailed
NOT_BY_EMAIL = "not_by_email"  # never meant to be mailed
NO_ADDRESS = "no_address"  # the user has no e-mail address any more
GONE = "gone"              # no such notification (deleted with its user)


def queue() -> str | None:
    """The queue of the e-mail task (tests give a worker its own); None: the default one."""
    return os.environ.get("EAGLES_NOTIFICATION_QUEUE") or None


def enqueue(notification_id: int) -> bool:
    """Ask a worker to send this notification's e-mail. Never raises: False (and a log line)
    when the broker refused."""
    name = queue()
    options = {"queue": name} if name else {}
    try:
        current_app.send_task(TASK, args=[notification_id], **options)
    except Exception:  # the broker is not our caller's problem
        log.exception("notification %s: its e-mail could not be queued (broker down?); "
                      "it stays in the site's list only", notification_id)
        return False
    return True


def compose(text: str, url: str) -> tuple[str, str]:
    """The subject and body of a notification's e-mail."""
    subject = f"Eagles Online: {text}"[:120]
    base = getattr(settings, "EAGLES_SITE_URL", "").rstrip("/")
    body = text + (f"\n\n{base}{url}" if url else "") + \
        "\n\nChange which notifications you get by e-mail on the Notifications page."
    return subject, body


def deliver(notification_id: int) -> str:
    """Send the e-mail of one notification unless it went already (see the module's
    docstring). Raises what the mail backend raised (the claim let go first)."""
    now = timezone.now()
    claimed = Notification.objects.filter(
        Q(email_claimed_at__isnull=True) | Q(email_claimed_at__lte=now - LEASE),
        pk=notification_id, by_email=True, emailed_at__isnull=True, read_at__isnull=True,
    ).update(email_claimed_at=now)
    if not claimed:
        return _why_not(notification_id)
    mine = Notification.objects.filter(pk=notification_id, email_claimed_at=now)
    note = (Notification.objects.filter(pk=notification_id).select_related("user")
            .only("text", "url", "user__email").first())
    address = note.user.email if note is not None else ""
    if not address:
        mine.update(email_claimed_at=None)
        return NO_ADDRESS if note is not None else GONE
    subject, body = compose(note.text, note.url)
    try:
        send_mail(subject, body, None, [address])
    except BaseException:
        mine.update(email_claimed_at=None)  # for the retry (or another worker)
        raise
    # Even if another worker took over a lapsed claim meanwhile: this e-mail went out.
    Notification.objects.filter(pk=notification_id, emailed_at__isnull=True).update(
        emailed_at=timezone.now())
    return SENT


def _why_not(notification_id: int) -> str:
    row = (Notification.objects.filter(pk=notification_id)
           .values("by_email", "emailed_at", "read_at").first())
    if row is None:
        return GONE
    if not row["by_email"]:
        return NOT_BY_EMAIL
    if row["emailed_at"] is not None:
        return ALREADY
    if row["read_at"] is not None:
        return READ
    return BUSY
