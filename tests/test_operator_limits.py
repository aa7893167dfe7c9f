"""Issue 30, limits an attacker or an operator could step around: the per-address log-in and
sign-up limits count the address the trusted proxy saw (through the documented nginx + uvicorn
header chain), the project's deploy check fails on EAGLES_WEBHOOK_ALLOW_PRIVATE=1, the
documented TLS-proxy settings pass ``check --deploy``, and ``manage.py serve`` without a
SECRET_KEY refuses once."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from .test_safe_defaults import DEPLOY_KEY, ROOT, run_python
from .test_web_server import _app_sees

REAL = "203.0.113.7"  # the attacker's one machine, as nginx sees it


def through_nginx_and_uvicorn(client_xff: str | None) -> dict:
    """The request's META as the documented layout makes it (docs/deploy.md): nginx sets
    ``X-Forwarded-For $proxy_add_x_forwarded_for`` (what the client sent, then the address it
    saw), and uvicorn ``--proxy-headers --forwarded-allow-ips 127.0.0.1`` (the Procfile) takes
    its address from that header (its own code, tests/test_web_server.py)."""
    xff = f"{client_xff}, {REAL}" if client_xff else REAL
    addr = _app_sees({"X-Forwarded-For": xff}, "127.0.0.1")["client"]
    return {"REMOTE_ADDR": addr, "HTTP_X_FORWARDED_FOR": xff}


def test_the_chain_gives_uvicorn_the_address_nginx_saw():
    # not the leftmost value, which the client writes (daphne's --proxy-headers took that)
    assert through_nginx_and_uvicorn("198.51.100.9")["REMOTE_ADDR"] == REAL


@pytest.fixture
def limits(settings):
    settings.EAGLES_TRUSTED_PROXIES = 1  # the documented layout: nginx appends once
    settings.EAGLES_LOGIN_FAILURES = settings.EAGLES_SIGNUPS_PER_WINDOW = 10
    settings.EAGLES_THROTTLE_WINDOW = 900


@pytest.mark.django_db
def test_wrong_passwords_from_one_machine_with_a_varied_header_are_limited(limits):
    statuses = []
    for n in range(25):  # 25 names, so only the per-address limit can stop them
        r = APIClient().post("/api/auth/login/", {"username": f"victim{n}", "password": "x"},
                             format="json", **through_nginx_and_uvicorn(f"198.51.100.{n}"))
        statuses.append(r.status_code)
    assert statuses[:10] == [400] * 10 and set(statuses[10:]) == {429}, statuses
    # another machine behind the same proxy is not limited
    other = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.99"}
    r = APIClient().post("/api/auth/login/", {"username": "victim0", "password": "x"},
                         format="json", **other)
    assert r.status_code == 400


@pytest.mark.django_db
def test_sign_ups_from_one_machine_with_a_varied_header_are_limited(limits):
    statuses = []
    for n in range(12):
        r = APIClient().post("/api/auth/signup/",
                             {"username": f"new{n}", "password": "Bravest-0f-brave"},
                             format="json", **through_nginx_and_uvicorn(f"198.51.100.{n}, 1.2.3.4"))
        statuses.append(r.status_code)
    assert statuses[:10] == [201] * 10 and statuses[10:] == [429, 429], statuses
    assert User.objects.count() == 10


def test_the_trusted_address_is_counted_from_the_right(settings, rf):
    from config.throttling import client_address

    def seen(trusted: int, xff: str | None, remote: str = "10.0.0.1") -> str:
        settings.EAGLES_TRUSTED_PROXIES = trusted
        extra = {"HTTP_X_FORWARDED_FOR": xff} if xff is not None else {}
        return client_address(rf.get("/", REMOTE_ADDR=remote, **extra))

    assert seen(0, "6.6.6.6, 1.1.1.1") == "10.0.0.1"  # no proxy trusted: the connection's
    assert seen(1, "6.6.6.6, 1.1.1.1") == "1.1.1.1"
    assert seen(2, "6.6.6.6, 1.1.1.1, 2.2.2.2") == "1.1.1.1"  # a balancer, then nginx
    assert seen(2, "1.1.1.1") == "1.1.1.1"  # fewer hops than proxies: the farthest written
    assert seen(1, None) == "10.0.0.1" and seen(1, " , ") == "10.0.0.1"


# --- deploy checks and serve -----------------------------------------------------------------

CHECK = ("from django.core.management import execute_from_command_line; "
         "execute_from_command_line(['manage.py', 'check', '--deploy', '--fail-level', "
         "'WARNING'])")
DOCUMENTED = {"SECRET_KEY": DEPLOY_KEY, "ALLOWED_HOSTS": "eagles.example.org",
              "SECURE_PROXY_SSL_HEADER": "1", "EAGLES_TRUSTED_PROXIES": "1"}


def test_check_deploy_fails_on_private_webhooks(tmp_path):
    r = run_python(CHECK, tmp_path, EAGLES_WEBHOOK_ALLOW_PRIVATE="1", **DOCUMENTED)
    assert r.returncode != 0
    assert "eagles.E001" in r.stderr + r.stdout and "EAGLES_WEBHOOK_ALLOW_PRIVATE" in r.stderr


def test_the_documented_tls_proxy_settings_pass_check_deploy(tmp_path):
    r = run_python(CHECK, tmp_path, **DOCUMENTED)
    assert r.returncode == 0, r.stdout + r.stderr
    # the README's advice and the check agree: it does not recommend turning the redirect off
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Do not set `SECURE_SSL_REDIRECT=0` in production" in readme
    assert "set\n  `SECURE_SSL_REDIRECT=0`" not in readme
    r = run_python(CHECK, tmp_path, SECURE_SSL_REDIRECT="0", **DOCUMENTED)
    assert r.returncode != 0 and "security.W008" in r.stdout + r.stderr


def test_serve_without_a_secret_key_refuses_once_with_the_message(tmp_path):
    import os

    from .test_safe_defaults import OURS

    env = {k: v for k, v in os.environ.items() if k not in OURS | {"DATABASE_URL", "REDIS_URL"}}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", EAGLES_VAR_DIR=str(tmp_path / "var"),
               SQLITE_PATH=str(tmp_path / "db.sqlite3"))
    r = subprocess.run([sys.executable, "manage.py", "serve", "--port", "1"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert r.stderr.count("SECRET_KEY is not set") == 1, r.stderr
    assert "running at" not in r.stdout and "started" not in r.stdout, r.stdout
