import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient


@pytest.fixture(autouse=True)
def fast_password_hasher(settings):
    """Real hashing costs ~1 s per user on this machine; tests need only a correct one."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def user(db) -> User:
    return User.objects.create_user("alice", "alice@example.com", "s3cret-pass-1815")


@pytest.fixture
def other_user(db) -> User:
    return User.objects.create_user("bob", "bob@example.com", "s3cret-pass-1815")


@pytest.fixture
def alice_api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _load_catalogue() -> None:
    from django.core.management import call_command

    from cards.models import Card

    if not Card.objects.exists():
        call_command("load_catalogue", verbosity=0)


def _flush_by_delete_on_postgresql() -> None:
    """A transactional test (live server, worker, websocket) ends with Django's flush, on
    PostgreSQL one TRUNCATE of every table: ~2 s a test on the CI machine (a new file per
    table), while DELETE FROM each of the almost empty tables takes ~0.1 s. The same empty
    tables either way, sequences untouched (the flush resets none); in the flush's one
    transaction, as Django's foreign keys there are DEFERRABLE INITIALLY DEFERRED
    (tests/test_infrastructure.py checks it). Test databases only: nothing else flushes."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return truncate(self, style, tables, reset_sequences=reset_sequences,
                            allow_cascade=allow_cascade)
        return [f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(t))};"
                for t in tables]

    DatabaseOperations.sql_flush = sql_flush


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Load the catalogue once into the test database; tests roll back to it."""
    _flush_by_delete_on_postgresql()
    with django_db_blocker.unblock():
        _load_catalogue()


@pytest.fixture
def catalogue(db):
    """The 300-card catalogue (reloaded if a transactional test flushed it)."""
    _load_catalogue()


@pytest.fixture
def sent(monkeypatch) -> list[tuple[int, int]]:
    """The computer's moves the battle service asks a worker for, recorded instead of sent
    (no broker in these tests: a test calls ``tasks.bot_move`` itself when it needs one)."""
    from .kinds import battle_tasks as tasks

    calls: list[tuple[int, int]] = []
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: calls.append(args))
    return calls


@pytest.fixture(autouse=True)
def fresh_abuse_limits():
    """Each test starts with no log-in, sign-up or expensive-endpoint counts (config/
    throttling.py) and no computer thinking (battles/thinking.py). On Redis only those keys
    go: the broker and Channels share the database."""
    from django.core.cache import cache
    from django.core.cache.backends.redis import RedisCache

    if isinstance(cache, RedisCache):
        client = cache._cache.get_client()
        keys = [k for pattern in ("*eagles:throttle:*", "*eagles:thinking:*")
                for k in client.scan_iter(match=pattern)]
        if keys:
            client.delete(*keys)
    else:
        cache.clear()


@pytest.fixture(autouse=True)
def fresh_card_tables():
    """Each test starts with no match's card table kept (play/tables.py): test databases
    reuse ids, and a test may fix the seed, so (id, seed) may name another test's match."""
    from play import tables

    tables.forget()
    yield
    tables.forget()


class MailQueue(list):
    """The notification e-mails queued (``notifications.send_email``, their notification ids),
    recorded at the broker's door instead of sent: no broker in these tests. ``run()`` is the
    worker: it runs each queued task (Celery's ``apply``, retries included) and empties the
    queue; returns the outcomes."""

    def run(self) -> list[str]:
        from notifications import tasks

        outcomes = [tasks.send_email.apply(args=[pk]).get() for pk in self]
        self.clear()
        return outcomes


@pytest.fixture(autouse=True)
def mail_queue(monkeypatch) -> MailQueue:
    from celery import Celery

    from notifications import mailing

    queued = MailQueue()
    real = Celery.send_task
    queued.real_send_task = real  # for a test with a real broker and worker

    def send_task(app, name, args=None, *rest, **options):
        if name == mailing.TASK:
            queued.append(args[0])
            return None
        return real(app, name, args, *rest, **options)

    monkeypatch.setattr(Celery, "send_task", send_task)
    return queued
