"""Screenshots for issue 28's note (opt-in: ``EAGLES_SCREENSHOTS=/work/screens``): the
campaign page at 1,280 and 390 px wide, at the French deployment (the "Deploy several cards
at once" form filled in), and the how-to-play page (``/learn/``). Each page also fits its
width (no sideways scroll), which is checked."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .test_deploy_and_end_for_me_browser import _create, _deploying, _drive, worker  # noqa: F401

OUT = os.environ.get("EAGLES_SCREENSHOTS", "")
pytestmark = pytest.mark.skipif(not OUT, reason="opt-in: EAGLES_SCREENSHOTS=<folder>")


def test_screens(logged_in_page, worker, monkeypatch):  # noqa: F811
    page = logged_in_page
    Path(OUT).mkdir(parents=True, exist_ok=True)
    c, alice = _create(1815, monkeypatch)
    _drive(c, alice, _deploying)
    page.route(f"**/campaigns/{c.pk}/", lambda route: route.fulfill(response=route.fetch()))
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/campaigns/{c.pk}/")
        expect(page.get_by_test_id("deploy-many")).to_be_visible()
        page.screenshot(full_page=True, path=f"{OUT}/campaign-{width}.png")
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')].filter(
            e => e.getBoundingClientRect().right > innerWidth + 1).slice(0, 8).map(
            e => e.tagName + '.' + e.className + '#' + (e.dataset.testid || '') + ':' +
                 Math.round(e.getBoundingClientRect().right))""")
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), (
            width, wide)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/learn/")
    page.screenshot(full_page=True, path=f"{OUT}/how-to-play-1280.png")
