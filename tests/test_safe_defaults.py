"""Issue 11, safe defaults: DEBUG off unless set, SECRET_KEY required, hosts from the
environment, HTTPS settings on (and switchable), `check --deploy` clean, no debug pages, a
Content-Security-Policy on every page that no template needs an exception from, and a demo
account that is an ordinary player.

The settings tests run ``config.settings`` (not the test settings) in a fresh process with a
clean environment, as a deployment would."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent
DEPLOY_KEY = "k7Qv-3xZpL9wRt2YbN8mHc4Jf6DsGa1KuE5oWi0VyTqXnBlMrPzCeAhSjFdUgOkI"
# Variables that must not leak from the developer's or CI's shell into these processes.
OURS = {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_HSTS_PRELOAD", "SECURE_PROXY_SSL_HEADER", "DJANGO_SETTINGS_MODULE",
        "DJANGO_ALLOW_ASYNC_UNSAFE"}


def run_python(code: str, tmp_path, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in OURS}
    base.update(DJANGO_SETTINGS_MODULE="config.settings", EAGLES_VAR_DIR=str(tmp_path / "var"),
                SQLITE_PATH=str(tmp_path / "db.sqlite3"), **env)
    base.pop("DATABASE_URL", None)  # SQLite in tmp_path: these never touch a shared database
    base.pop("REDIS_URL", None)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=base, text=True,
                          capture_output=True, timeout=120)


SETTINGS = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({k: getattr(settings, k, None) for k in (
    "DEBUG", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS", "SECURE_PROXY_SSL_HEADER")}))
"""


@pytest.mark.parametrize("server", ["config.asgi", "config.wsgi"])
def test_debug_is_off_unless_set_and_the_server_refuses_to_start_without_secret_key(
        tmp_path, server):
    r = run_python(f"import {server}", tmp_path)
    assert r.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY is not set" in r.stderr
    r = run_python(f"import {server}", tmp_path, DEBUG="1")  # the demo (make run) needs no key
    assert r.returncode == 0, r.stderr
    r = run_python(f"import {server}", tmp_path, SECRET_KEY=DEPLOY_KEY)
    assert r.returncode == 0, r.stderr


def test_debug_defaults_to_off_and_offline_commands_need_no_secret_key(tmp_path):
    r = run_python(SETTINGS, tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["DEBUG"] is False
    assert json.loads(run_python(SETTINGS, tmp_path, DEBUG="1").stdout)["DEBUG"] is True


def test_debug_off_is_https_only_with_hosts_from_the_environment(tmp_path):
    r = run_python(SETTINGS, tmp_path, SECRET_KEY=DEPLOY_KEY, ALLOWED_HOSTS="eagles.example.org")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["DEBUG"] is False and s["ALLOWED_HOSTS"] == ["eagles.example.org"]
    assert s["SECURE_SSL_REDIRECT"] and s["SESSION_COOKIE_SECURE"] and s["CSRF_COOKIE_SECURE"]
    assert s["SECURE_HSTS_SECONDS"] >= 31536000 and s["SECURE_PROXY_SSL_HEADER"] is None


def test_https_settings_switch_off_for_a_tls_terminating_proxy(tmp_path):
    r = run_python(SETTINGS, tmp_path, SECRET_KEY=DEPLOY_KEY, ALLOWED_HOSTS="eagles.example.org",
                   SECURE_SSL_REDIRECT="0", SECURE_HSTS_SECONDS="0", SECURE_PROXY_SSL_HEADER="1")
    s = json.loads(r.stdout)
    assert s["SECURE_SSL_REDIRECT"] is False and s["SECURE_HSTS_SECONDS"] == 0
    assert s["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert s["SESSION_COOKIE_SECURE"] is True  # the browser still speaks HTTPS to the proxy


def test_check_deploy_reports_nothing_with_debug_off(tmp_path):
    code = ("import sys; from django.core.management import execute_from_command_line; "
            "execute_from_command_line(['manage.py', 'check', '--deploy', '--fail-level', "
            "'WARNING'])")
    r = run_python(code, tmp_path, SECRET_KEY=DEPLOY_KEY, ALLOWED_HOSTS="eagles.example.org")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "System check identified no issues (0 silenced)." in r.stdout
    # and the same check does report DEBUG when it is on: the test can fail
    r = run_python(code, tmp_path, SECRET_KEY=DEPLOY_KEY, DEBUG="1")
    assert r.returncode != 0 and "security.W018" in r.stdout + r.stderr


ERROR_PAGES = """
import os, django
django.setup()
from django.test import Client
c = Client(raise_request_exception=False)
missing = c.get("/no-such-page/", HTTP_HOST="eagles.example.org", secure=True)
broken = c.get("/api/cards/", HTTP_HOST="eagles.example.org", secure=True)  # no tables: 500
evil = c.get("/", HTTP_HOST="evil.example.com", secure=True)
print(missing.status_code, broken.status_code, evil.status_code)
print(missing.content.decode())
print(broken.content.decode())
"""


@pytest.mark.parametrize("debug", [None, "1"])
def test_error_pages_show_no_url_patterns_settings_or_traceback(tmp_path, debug):
    env = {"DEBUG": debug} if debug else {}
    r = run_python(ERROR_PAGES, tmp_path, SECRET_KEY=DEPLOY_KEY,
                   ALLOWED_HOSTS="eagles.example.org", **env)
    if debug:  # the same requests with DEBUG on do leak: the test can tell
        assert "URLconf" in r.stdout and "Traceback" in r.stdout
        return
    assert r.returncode == 0, r.stderr
    status, body = r.stdout.split("\n", 1)
    assert status.split() == ["404", "500", "400"]  # an unknown Host is refused
    for secret in ("URLconf", "api/schema", "Traceback", "SQLITE_PATH", "no such table",
                   "DATABASE", "SECRET_KEY"):
        assert secret not in body, secret


# ---- Content-Security-Policy


def test_every_page_carries_the_csp_without_unsafe_inline(client, catalogue):
    for url in ("/", "/accounts/login/", "/accounts/signup/", "/cards/", "/no-such-page/"):
        policy = client.get(url)["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy, url
        assert "style-src 'self'" in policy and "frame-ancestors 'none'" in policy, url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, url


@pytest.mark.backend  # the request counts in the cache (config/throttling.py): Redis in CI
def test_the_api_docs_page_serves_a_pinned_swagger_ui_from_here_and_no_inline_script(client):
    r = client.get("/api/docs/")
    assert r.status_code == 200
    policy = r["Content-Security-Policy"]
    script_src = re.search(r"script-src ([^;]*)", policy).group(1)
    assert script_src == "'self'"  # no CDN
    page = r.content.decode()
    assert "cdn" not in page.lower() and "@latest" not in page
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert re.search(r"<script>", page) is None  # the start-up script is a separate request
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "inline <script>"),
    (re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I), "on* event handler attribute"),
    (re.compile(r"<[a-z][^>]*\sstyle\s*=", re.I), "style= attribute"),
    (re.compile(r"<style", re.I), "<style> element"),
    (re.compile(r"javascript:", re.I), "javascript: URL"),
    (re.compile(r"hx-on", re.I), "hx-on (htmx eval)"),
]


@pytest.mark.parametrize("template", sorted(
    str(p.relative_to(ROOT)) for base in ("frontend/templates", "accounts/templates")
    for p in (ROOT / base).rglob("*.html")))
def test_templates_need_no_csp_exception(template):
    text = (ROOT / template).read_text()
    for pattern, what in INLINE:
        match = pattern.search(text)
        assert match is None, f"{template}: {what}: {match and match.group()[:80]}"


# ---- the demo account


@pytest.mark.django_db
def test_demo_account_is_an_ordinary_player_with_a_fresh_printed_password(capsys):
    User.objects.create_user("demo", password="x", is_staff=True, is_superuser=True)
    call_command("create_demo_user")
    first = capsys.readouterr().out
    call_command("create_demo_user")
    second = capsys.readouterr().out
    demo = User.objects.get(username="demo")
    assert not demo.is_staff and not demo.is_superuser
    password = re.search(r"password '([^']+)'", second).group(1)
    assert demo.check_password(password) and len(password) >= 12
    assert re.search(r"password '([^']+)'", first).group(1) != password  # random each run


def test_readme_prints_no_demo_password():
    readme = (ROOT / "README.md").read_text()
    assert "waterloo1815" not in readme
    assert "createsuperuser" in readme
