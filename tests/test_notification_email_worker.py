"""Notification e-mail through the real broker, a real worker process and a real SMTP
conversation (REQUIRED on PostgreSQL; SQLite's in-memory test database cannot be shared with
another process, so this skips there).

A battle invitation made in this process queues ``notifications.send_email``; the worker
meets a mail server that refuses it once (421), retries after the backoff and sends it; a
doubled message then finds it e-mailed and sends nothing.
"""

from __future__ import annotations

import socketserver
import threading

import pytest
from celery import Celery

from battles import services as battle_services
from notifications import mailing
from notifications.models import Kind, Notification

from .tournament_helpers import wait_for, worker_session

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


class SMTPSink(socketserver.ThreadingTCPServer):
    """Just enough SMTP for Django's backend: refuses the first ``refuse`` connections with a
    421 greeting, then accepts every message (kept in ``messages``)."""

    allow_reuse_address = True
    daemon_threads = True

    def __init__(self, refuse: int):
        self.refuse = refuse
        self.connections = 0
        self.messages: list[bytes] = []
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), SMTPHandler)


class SMTPHandler(socketserver.StreamRequestHandler):
    def reply(self, line: str) -> None:
        self.wfile.write(line.encode() + b"\r\n")
        self.wfile.flush()

    def handle(self) -> None:
        server: SMTPSink = self.server  # type: ignore[assignment]
        with server.lock:
            server.connections += 1
            refused = server.connections <= server.refuse
        if refused:
            self.reply("421 sink.test Service not available, try again later")
            return
        self.reply("220 sink.test ESMTP")
        while line := self.rfile.readline():
            verb = line.strip().split(b" ")[0].upper()
            if verb in (b"EHLO", b"HELO"):
                self.reply("250 sink.test")
            elif verb in (b"MAIL", b"RCPT", b"RSET", b"NOOP"):
                self.reply("250 OK")
            elif verb == b"DATA":
                self.reply("354 End data with <CR><LF>.<CR><LF>")
                data = b""
                while (chunk := self.rfile.readline()) and chunk != b".\r\n":
                    data += chunk
                with server.lock:
                    server.messages.append(data)
                self.reply("250 OK queued")
            elif verb == b"QUIT":
                self.reply("221 Bye")
                return
            else:
                self.reply("502 Command not implemented")


@pytest.fixture
def sink():
    server = SMTPSink(refuse=1)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def worker(tmp_path, monkeypatch, sink, mail_queue):
    for w in worker_session(tmp_path, monkeypatch):
        w.env_extra.update({
            "EAGLES_NOTIFICATION_QUEUE": w.queue,
            "EAGLES_EMAIL_BACKOFF": "1",
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(sink.server_address[1]),
            "EMAIL_USE_TLS": "0", "EMAIL_HOST_USER": "", "EMAIL_HOST_PASSWORD": "",
            "EAGLES_SITE_URL": "https://eagles.test"})
        # This process sends to the real broker, to that worker's queue.
        monkeypatch.setattr(Celery, "send_task", mail_queue.real_send_task)
        monkeypatch.setenv("EAGLES_NOTIFICATION_QUEUE", w.queue)
        yield w


def test_the_worker_sends_the_email_once_after_a_refusal(catalogue, user, other_user, sink,
                                                         worker):
    worker.start()
    battle_services.create_battle(user, "quatre-bras", "french", opponent="bob")
    note = Notification.objects.get(user=other_user, kind=Kind.INVITATION)
    assert note.by_email and note.emailed_at is None  # the action did not wait for it

    def emailed():
        return Notification.objects.filter(pk=note.pk, emailed_at__isnull=False).exists()

    wait_for(emailed, 60, "the e-mail sent by the worker", worker)
    assert sink.connections == 2  # refused once (421), then sent on the retry
    [message] = sink.messages
    assert b"To: bob@example.com" in message
    assert b"https://eagles.test/battles/" in message
    assert "retried in 1 s" in worker.log_text()
    # A doubled message (a redelivery): the task runs again and sends nothing.
    mailing.enqueue(note.pk)
    wait_for(lambda: "'already'" in worker.log_text(), 60, "the doubled task", worker)
    assert len(sink.messages) == 1
