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

from config.settings import *  # noqa: E402,F403

# A third game for the tests only (tests/toygame): it plugs into the game service with no
# change to play/, as Stratego: Waterloo and La Belle Alliance will.
INSTALLED_APPS = [*INSTALLED_APPS, "tests.toygame"]  # noqa: F405
