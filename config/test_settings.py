"""Settings for the test suite: the production settings (config/settings.py) with what plain
HTTP test clients need. pytest runs with DEBUG off, like production; it only supplies a secret
key and switches off the HTTPS-only parts (the test client and live server speak plain HTTP).
Values already in the environment win, so CI can still test other combinations."""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-secret-key-4f9c1d7e2b8a6035-not-for-deployment")
for _name in ("SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE"):
    os.environ.setdefault(_name, "0")
os.environ.setdefault("SECURE_HSTS_SECONDS", "0")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
# Tests drive sockets as fast as the machine answers (a whole battle's actions back to back);
# the per-socket frame budget (play/live/protocol.py) is tested on its own, with its own figures.
os.environ.setdefault("EAGLES_WS_FRAMES_PER_SECOND", "10000")
os.environ.setdefault("EAGLES_WS_FRAME_BURST", "10000")


def _per_xdist_worker() -> None:
    """Under pytest-xdist (``make test`` runs ``-n 2``) each worker process (gw0, gw1, ...)
    gets its own Redis: database number REDIS_URL's plus the worker's number (the cache, the
    abuse counters, Celery's broker and results, whose unacknowledged messages a test puts
    back), and its own Channels prefix (pub/sub ignores the database number). Set in the
    environment, so the workers, servers and beat a test starts inherit them. pytest-django
    gives each worker its own test database (test_<name>_gw0, ...)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return
    n = int(worker[2:])
    os.environ.setdefault("EAGLES_LIVE_PREFIX", f"asgi-{worker}")
    url = os.environ.get("REDIS_URL", "")
    # A process a test starts inherits the environment (and, unless it names config.settings,
    # these settings): its REDIS_URL, already this worker's, stays; one without REDIS_URL
    # (embedded mode on purpose) stays without.
    if not url or url == os.environ.get("EAGLES_XDIST_REDIS_URL"):
        return
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    if base + n > 15:
        raise RuntimeError(f"xdist worker {worker}: Redis database {base + n} is past the 16 "
                           f"a default Redis has; run fewer workers (-n) or a lower REDIS_URL")
    url = urlunsplit(parts._replace(path=f"/{base + n}"))
    os.environ["REDIS_URL"] = os.environ["EAGLES_XDIST_REDIS_URL"] = url


_per_xdist_worker()

from config.settings import *  # noqa: E402,F403

# A third game for the tests only (tests/toygame): it plugs into the game service with no
# change to play/, as Stratego: Waterloo and La Belle Alliance will.
INSTALLED_APPS = [*INSTALLED_APPS, "tests.toygame"]  # noqa: F405
