"""Browser tests: a real Chromium (Debian's /usr/bin/chromium) driven by Playwright.

Locally a missing browser skips these tests; with EAGLES_REQUIRE_BROWSER=1 (set by .ci/run)
a missing browser fails them instead.
"""

import os
import threading

import pytest
from django.core.servers.basehttp import ThreadedWSGIServer
from django.test.testcases import LiveServerThread

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make
# between page actions are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]


class OneRequestAtATime(ThreadedWSGIServer):
    """The live server, each connection on its own thread as Django's, but on SQLite one
    request at a time: the test database is in memory, so every thread shares ONE SQLite
    connection, and two pages polling at once (two people's browsers) made it fail with
    "bad parameter or other API misuse" under load. PostgreSQL needs no lock."""

    def set_app(self, application):
        from django.db import connection

        if connection.vendor != "sqlite":
            return super().set_app(application)
        lock = threading.Lock()

        def serial(environ, start_response):
            with lock:
                return application(environ, start_response)

        return super().set_app(serial)


LiveServerThread.server_class = OneRequestAtATime


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        message = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("EAGLES_REQUIRE_BROWSER") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                              args=LAUNCH_ARGS)
        yield chromium
        chromium.close()


# Records every Content-Security-Policy violation of the page (Playwright's init scripts run
# outside the page's CSP), so a blocked script or style fails the test that caused it.
CSP_WATCH = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""


def csp_violations(page) -> list[str]:
    """The CSP violations of the page's current document and the console's CSP messages."""
    seen = list(getattr(page, "csp_console", []))
    try:
        seen += page.evaluate("window.__cspViolations || []")
    except Exception:  # noqa: BLE001 - a closed or navigating page has no list to read
        pass
    return seen


@pytest.fixture
def page(browser, live_server, catalogue):
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(10_000)
    context.add_init_script(CSP_WATCH)
    page = context.new_page()
    page.csp_console = []
    page.on("console", lambda msg: "Content Security Policy" in msg.text
            and page.csp_console.append(msg.text))
    yield page
    violations = csp_violations(page)
    # stop polling pages and let the live server finish a request in flight before the test
    # database is flushed (SQLite: "database table is locked" in the next teardown)
    from playwright.sync_api import Error as PlaywrightError

    try:
        page.goto("about:blank")
    except PlaywrightError:
        pass  # a page that asks before leaving (unsaved changes) stays; it does not poll
    try:
        page.wait_for_timeout(300)
    finally:
        context.close()
    assert not violations, f"Content-Security-Policy violations: {violations}"


@pytest.fixture
def logged_in_page(page, live_server, django_user_model):
    """A page whose browser is logged in as 'alice' (password 's3cret-pass-1815')."""
    django_user_model.objects.create_user("alice", "alice@example.com", "s3cret-pass-1815")
    page.goto("/accounts/login/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "s3cret-pass-1815")
    page.click("form button[type=submit]")
    page.wait_for_url(live_server.url + "/")
    return page
