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


@pytest.fixture(autouse=True)
def results_at_once(monkeypatch):
    """The end of a match's rating and tournament result are a worker's, sent once the end
    commits (``play.enqueue.after_commit``; issue 31). No broker nor worker here, and a test
    in a rolled-back transaction never commits: the task runs at once instead, inside the
    ending transaction, as it ran before it moved to a worker, so a test that ends a match
    sees its rating and result. A test of the deferral itself takes ``results_later``."""
    from play import enqueue

    real = enqueue.after_commit

    def at_once(name, args, options=None):
        import importlib

        from celery import current_app

        importlib.import_module(name.split(".")[0] + ".tasks")  # registers the task
        current_app.tasks[name](*args)

    at_once.real = real
    monkeypatch.setattr(enqueue, "after_commit", at_once)


@pytest.fixture
def results_later(results_at_once, monkeypatch):
    """The end's tasks sent after commit, as in production (``results_at_once`` undone)."""
    from play import enqueue

    monkeypatch.setattr(enqueue, "after_commit", enqueue.after_commit.real)


@pytest.fixture
def sent_tasks(monkeypatch, results_later) -> list[tuple[str, list]]:
    """The end's tasks sent by name (the broker's door), recorded instead of sent."""
    from celery import Celery

    calls: list[tuple[str, list]] = []
    monkeypatch.setattr(Celery, "send_task",
                        lambda app, name, args=None, *rest, **options:
                        calls.append((name, list(args or []))))
    return calls


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


# --- The two CI stages (.ci/run) -------------------------------------------------------------
# CI runs `make test` on the embedded defaults (SQLite, LocMem cache, in-memory Channels layer,
# filesystem broker): every test. Then on PostgreSQL and Redis with
# `make test PYTEST_ARGS=--backend-only`: only the tests whose outcome can depend on those
# backends. A test is one of those when it asks for the database (pytest-django's `db`,
# `transactional_db`, `live_server`... fixtures or the `django_db` mark), or carries one of
# the marks below (`backend` for a test using the cache, the Channels layer, the broker or
# their settings without the database). The rest (the pure engines, rules, renderers, CLIs)
# give the same result on any backend, so running them twice only cost CI time.
# What keeps the rule honest: in a run of everything, a test the backend stage would leave out
# that nevertheless touches the cache, the Channels layer or the broker, or looks at the
# backend settings or DATABASE_URL/REDIS_URL, fails (BackendGuard below), so it cannot be
# forgotten in the PostgreSQL stage. The database needs no guard: pytest-django already
# refuses it to a test without the fixture.
# Browser tests (the `browser` mark: tests/browser/conftest.py gives it to every test there)
# are backend tests, so the PostgreSQL+Redis stage runs them, on the deployment's backends.
# CI's first stage therefore leaves them out with `--no-browser` (.ci/run): a browser test
# drives the same pages on either backend, and run twice the browser tests cost CI the most
# time of all. A plain `make test` or `pytest` (no flag) still runs every test.
BACKEND_FIXTURES = frozenset({"db", "transactional_db", "live_server", "django_db_reset_sequences",
                              "django_db_serialized_rollback", "django_db_setup"})
BACKEND_MARKS = frozenset({"django_db", "backend", "postgres", "worker", "browser"})
BACKEND_SETTINGS = frozenset({"DATABASES", "CACHES", "CHANNEL_LAYERS", "REDIS_URL",
                              "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND"})
BACKEND_ENVIRONMENT = frozenset({"DATABASE_URL", "REDIS_URL"})


def pytest_addoption(parser):
    parser.addoption("--backend-only", action="store_true",
                     help="run only the tests that depend on the database, cache, broker or "
                          "Channels layer (CI's PostgreSQL+Redis stage: tests/conftest.py)")
    parser.addoption("--no-browser", action="store_true",
                     help="leave out the browser tests (CI's first stage, followed by the "
                          "--backend-only stage that runs them: tests/conftest.py)")


def uses_backend(item) -> bool:
    return bool(BACKEND_FIXTURES & set(getattr(item, "fixturenames", ()))
                or any(mark.name in BACKEND_MARKS for mark in item.iter_markers()))


def uses_browser(item) -> bool:
    """By the mark only: "browser" and "page" also name other tests' Django test clients."""
    return item.get_closest_marker("browser") is not None


@pytest.hookimpl(trylast=True)  # after tests/browser/conftest.py has marked its tests
def pytest_collection_modifyitems(config, items):
    left_out = []
    if config.getoption("--backend-only"):
        left_out += [item for item in items if not uses_backend(item)]
    if config.getoption("--no-browser"):
        left_out += [item for item in items if uses_browser(item)]
    if left_out:
        gone = set(left_out)
        config.hook.pytest_deselected(items=[item for item in items if item in gone])
        items[:] = [item for item in items if item not in gone]


class BackendGuard:
    """What a test the backend stage leaves out touched of the backends, recorded (not
    refused: the test runs as it would) and reported when it ends."""

    def __init__(self) -> None:
        self.touched: list[str] = []

    def note(self, what: str) -> None:
        if what not in self.touched:
            self.touched.append(what)


@pytest.fixture(autouse=True)
def backend_guard(request, fresh_abuse_limits, fast_password_hasher):
    """Fails a test that uses a backend but would not run in CI's backend stage (see above).
    After the autouse fixtures that clear the cache for every test, so only the test's own
    use counts."""
    if uses_backend(request.node):
        yield
        return
    import os

    from channels.layers import ChannelLayerManager
    from django.conf import LazySettings
    from django.core.cache import CacheHandler
    from kombu import Connection

    guard = BackendGuard()
    patch = pytest.MonkeyPatch()  # its own: undone before the report, the test's stay

    def watch(cls, name: str, what):
        real = getattr(cls, name)

        def watched(self, *args, **kwargs):
            label = what(*args)
            if label:
                guard.note(label)
            return real(self, *args, **kwargs)

        patch.setattr(cls, name, watched)

    watch(CacheHandler, "__getitem__", lambda alias: f"the cache {alias!r}")
    watch(ChannelLayerManager, "__getitem__", lambda alias: f"the Channels layer {alias!r}")
    watch(Connection, "__init__", lambda *args: "a broker connection")
    watch(LazySettings, "__getattr__",
          lambda name: f"settings.{name}" if name in BACKEND_SETTINGS else None)

    real_getitem = type(os.environ).__getitem__

    def environ_getitem(self, key):
        # Only a look-up of an unset one: that is CI's run of everything (no DATABASE_URL,
        # no REDIS_URL), and copying a set environment for a subprocess is no use of it.
        try:
            return real_getitem(self, key)
        except KeyError:
            if key in BACKEND_ENVIRONMENT and self is os.environ:
                guard.note(f"os.environ[{key!r}]")
            raise

    patch.setattr(type(os.environ), "__getitem__", environ_getitem)
    try:
        yield
    finally:
        patch.undo()
    if guard.touched:
        pytest.fail(f"{request.node.nodeid} uses {', '.join(guard.touched)} but CI's backend "
                    f"stage (--backend-only, tests/conftest.py) would leave it out: give it "
                    f"the `db` fixture if it needs the database, else "
                    f"@pytest.mark.backend", pytrace=False)
