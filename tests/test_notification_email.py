"""Notification e-mail is a worker's job ("Side effects after commit run in workers"): the
request that makes a change only queues ``notifications.send_email`` (the notification's id);
the task sends once however often it runs, retries a failing mail server with a bounded
backoff, and a broker that is down costs the e-mail, never the action.

No broker here: ``mail_queue`` (tests/conftest.py) records what reaches the broker's door
(``Celery.send_task``) and ``mail_queue.run()`` plays the worker."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from celery import Celery
from celery.exceptions import Retry
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.utils import timezone
from kombu.exceptions import OperationalError
from rest_framework.test import APIClient

from notifications import mailing, services, tasks
from notifications.models import Kind, Notification

from .test_notifications import hand_over, notes, two_people

pytestmark = pytest.mark.django_db

SLOW = 5.0  # seconds the "mail server" below takes: far more than a request may


@pytest.fixture(autouse=True)
def locmem_mail(settings):
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}


def client(user) -> APIClient:
    c = APIClient()
    c.force_authenticate(user)
    return c


def mailed_note(user, on_commit) -> Notification:
    """An invitation to ``user``, to be e-mailed (the default switches)."""
    with on_commit(execute=True):
        services.notify(user, Kind.INVITATION, "carol invites you to Quatre Bras #1.",
                        "/battles/", battle_id=1, key="invitation:1")
    note = Notification.objects.get(user=user, kind=Kind.INVITATION)
    assert note.by_email and note.emailed_at is None
    return note


def test_the_request_never_talks_to_the_mail_server(user, other_user, sent, mail_queue,
                                                    monkeypatch,
                                                    django_capture_on_commit_callbacks):
    """A mail server that hangs then fails: the requests that invite and start a battle
    between two people answer at once and succeed; the e-mails wait for the worker."""
    tried = []
    working = EmailBackend.send_messages

    def hanging(backend, messages):
        tried.append([m.to for m in messages])
        time.sleep(SLOW)
        raise TimeoutError("the mail server did not answer")

    monkeypatch.setattr(EmailBackend, "send_messages", hanging)
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):  # commit, as a real request does
        r = client(user).post("/api/battles/", {"battle": "quatre-bras", "side": "french",
                                                "opponent": "bob"}, format="json")
    assert r.status_code == 201, r.content
    with django_capture_on_commit_callbacks(execute=True):
        r = client(other_user).post(f"/api/battles/{r.json()['id']}/join/", {},
                                    format="json")
    assert r.status_code == 200, r.content
    assert time.monotonic() - started < SLOW
    assert tried == []  # the mail server was never asked in the request's thread
    [invitation] = notes(other_user, Kind.INVITATION)
    [your_move] = notes(other_user, Kind.YOUR_MOVE)  # the Allies (bob) move first
    assert mail_queue == [invitation.pk, your_move.pk]
    monkeypatch.setattr(EmailBackend, "send_messages", working)  # for the worker
    assert mail_queue.run() == ["sent", "sent"]
    assert [m.to for m in mail.outbox] == [["bob@example.com"]] * 2


def test_a_lost_broker_costs_the_email_never_the_action(user, other_user, sent, caplog,
                                                         monkeypatch, mail_queue,
                                                         django_capture_on_commit_callbacks):
    asked = []

    def down(app, name, *args, **kwargs):
        asked.append(name)
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(Celery, "send_task", down)
    with django_capture_on_commit_callbacks(execute=True):
        r = client(user).post("/api/battles/", {"battle": "quatre-bras", "side": "french",
                                                "opponent": "bob"}, format="json")
    assert r.status_code == 201, r.content
    assert asked == [mailing.TASK]  # it was asked, and refused
    [note] = notes(other_user, Kind.INVITATION)  # still in bob's list
    assert note.in_app and note.by_email and note.emailed_at is None
    assert f"notification {note.pk}: its e-mail could not be queued" in caplog.text
    assert mail.outbox == [] and mail_queue == []


def test_the_task_sends_once_however_often_it_runs(other_user, mail_queue,
                                                   django_capture_on_commit_callbacks):
    note = mailed_note(other_user, django_capture_on_commit_callbacks)
    assert mail_queue == [note.pk]
    mail_queue.append(note.pk)  # a doubled message
    assert mail_queue.run() == ["sent", "already"]
    assert tasks.send_email.apply(args=[note.pk]).get() == "already"  # a redelivery
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    assert mail.outbox[0].subject == "Eagles Online: carol invites you to Quatre Bras #1."
    assert "/battles/" in mail.outbox[0].body
    note.refresh_from_db()
    assert note.emailed_at is not None and note.email_claimed_at is not None


def test_a_claim_of_another_worker_is_respected_until_it_lapses(
        other_user, mail_queue, django_capture_on_commit_callbacks):
    note = mailed_note(other_user, django_capture_on_commit_callbacks)
    Notification.objects.filter(pk=note.pk).update(email_claimed_at=timezone.now())
    assert mailing.deliver(note.pk) == mailing.BUSY and mail.outbox == []
    # That worker died: past the lease, this one sends it.
    Notification.objects.filter(pk=note.pk).update(
        email_claimed_at=timezone.now() - mailing.LEASE - timedelta(seconds=1))
    assert mailing.deliver(note.pk) == mailing.SENT and len(mail.outbox) == 1
    assert mailing.deliver(note.pk) == mailing.ALREADY and len(mail.outbox) == 1


def run_once(notification_id: int, retries: int, monkeypatch) -> tuple[object, list]:
    """One run of the task as a worker runs it (not eagerly), the ``retries``-th time; returns
    its outcome (or the ``Retry`` raised) and what it sent to the broker."""
    resent = []
    monkeypatch.setattr(Celery, "send_task",
                        lambda app, name, args=None, *a, **kw: resent.append((name, args, kw)))
    tasks.send_email.push_request(retries=retries, args=[notification_id], kwargs={},
                                  id=f"task-{retries}", called_directly=False)
    try:
        return tasks.send_email.run(notification_id), resent
    except Retry as retry:
        return retry, resent
    finally:
        tasks.send_email.pop_request()


def test_a_failing_mail_server_is_retried_with_a_bounded_backoff(
        other_user, mail_queue, monkeypatch, caplog, django_capture_on_commit_callbacks):
    note = mailed_note(other_user, django_capture_on_commit_callbacks)
    attempts = []

    def refused(backend, messages):
        attempts.append(len(messages))
        raise ConnectionRefusedError(111, "Connection refused")

    monkeypatch.setattr(EmailBackend, "send_messages", refused)
    waits = []
    for retries in range(tasks.EMAIL_RETRIES):
        outcome, resent = run_once(note.pk, retries, monkeypatch)
        assert isinstance(outcome, Retry), outcome
        [(name, args, options)] = resent  # the same task again, later
        assert name == mailing.TASK and list(args) == [note.pk]
        waits.append(options["countdown"])
        note.refresh_from_db()
        assert note.email_claimed_at is None and note.emailed_at is None  # free to retry
    assert waits == [30, 60, 120, 240, 480]
    assert tasks.email_backoff(20) == tasks.EMAIL_BACKOFF_MAX  # bounded
    # The last try fails too: given up, with a log line, nothing queued again.
    outcome, resent = run_once(note.pk, tasks.EMAIL_RETRIES, monkeypatch)
    assert outcome == tasks.FAILED and resent == []
    assert len(attempts) == tasks.EMAIL_RETRIES + 1 and mail.outbox == []
    assert f"notification {note.pk}: its e-mail failed 6 times, given up" in caplog.text


def test_a_mail_server_that_comes_back_gets_the_email_once(
        other_user, mail_queue, monkeypatch, django_capture_on_commit_callbacks):
    note = mailed_note(other_user, django_capture_on_commit_callbacks)
    real = EmailBackend.send_messages
    attempts = []

    def flaky(backend, messages):
        attempts.append(1)
        if len(attempts) <= 2:
            raise TimeoutError("timed out")
        return real(backend, messages)

    monkeypatch.setattr(EmailBackend, "send_messages", flaky)
    assert mail_queue.run() == ["sent"]  # two retries (eager: without the wait), then sent
    assert len(attempts) == 3 and len(mail.outbox) == 1
    note.refresh_from_db()
    assert note.emailed_at is not None


def test_a_claim_is_retried_after_the_lease(other_user, mail_queue, monkeypatch,
                                            django_capture_on_commit_callbacks):
    note = mailed_note(other_user, django_capture_on_commit_callbacks)
    Notification.objects.filter(pk=note.pk).update(email_claimed_at=timezone.now())
    outcome, resent = run_once(note.pk, 0, monkeypatch)
    assert isinstance(outcome, Retry) and mail.outbox == []
    [(name, args, options)] = resent
    assert list(args) == [note.pk] and options["countdown"] > mailing.LEASE.total_seconds()


def test_a_your_move_read_before_the_worker_came_is_not_mailed(
        user, other_user, sent, mail_queue, django_capture_on_commit_callbacks):
    b = two_people(user, other_user, django_capture_on_commit_callbacks)
    [stale] = notes(other_user, Kind.YOUR_MOVE)
    # Bob moves before any worker ran: his "your move" is out of date (read), not mailed.
    hand_over(b, {"french": user, "allied": other_user}, django_capture_on_commit_callbacks)
    [mine] = notes(user, Kind.YOUR_MOVE)
    assert mail_queue == [stale.pk, mine.pk]
    assert mail_queue.run() == ["read", "sent"]
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]


def test_the_task_mails_only_what_notify_meant_to_mail(user, other_user, mail_queue,
                                                       django_capture_on_commit_callbacks):
    services.update_settings(other_user, {"invitation": {"email": False}})
    with django_capture_on_commit_callbacks(execute=True):
        note = services.notify(other_user, Kind.INVITATION, "listed only", "/battles/")
    assert not note.by_email and mail_queue == []
    assert tasks.send_email.apply(args=[note.pk]).get() == mailing.NOT_BY_EMAIL
    assert tasks.send_email.apply(args=[note.pk + 1000]).get() == mailing.GONE
    # An address removed since: nothing sent, nothing claimed.
    mailed = mailed_note(user, django_capture_on_commit_callbacks)
    user.email = ""
    user.save(update_fields=["email"])
    assert tasks.send_email.apply(args=[mailed.pk]).get() == mailing.NO_ADDRESS
    mailed.refresh_from_db()
    assert mailed.email_claimed_at is None and mailed.emailed_at is None
    assert mail.outbox == []


def test_the_worker_has_the_task():
    from celery import current_app

    assert mailing.TASK in current_app.tasks
