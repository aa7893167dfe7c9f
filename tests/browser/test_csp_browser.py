"""Issue 11: the Content-Security-Policy blocks nothing the site needs. The page fixture fails
any browser test whose page hits a CSP violation; this test walks the main pages, checks that
htmx (vendored, a static file) runs, and that the watch really catches a blocked inline script."""

from .conftest import csp_violations


def test_pages_run_under_the_csp_without_violations(logged_in_page):
    page = logged_in_page
    for url in ("/", "/cards/", "/collection/", "/decks/", "/battles/", "/tournaments/"):
        page.goto(url)
        page.wait_for_load_state("networkidle")
        assert page.evaluate("typeof window.htmx") == "object", url  # the vendored script ran
        assert csp_violations(page) == [], url
    page.goto("/cards/")
    page.fill("input[name=q]", "napoleon")  # an htmx request under the CSP
    page.wait_for_selector("text=Napoléon")
    assert csp_violations(page) == []


def test_the_watch_catches_a_blocked_inline_script(page):
    page.goto("/accounts/login/")
    page.evaluate("""() => {
        const s = document.createElement('script');
        s.textContent = 'window.__ran = true';
        document.body.appendChild(s);
    }""")
    page.wait_for_timeout(200)
    assert page.evaluate("window.__ran === undefined")  # blocked
    assert any("script-src" in v for v in csp_violations(page))
    page.csp_console.clear()
    page.evaluate("window.__cspViolations = []")  # the fixture's own check passes
