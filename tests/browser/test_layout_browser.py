"""The layout on a phone (375 px) and a desktop (1280 px)."""

import pytest
from playwright.sync_api import expect

PAGES = ["/", "/cards/", "/cards/?q=type:artillery&view=table", "/cards/1/", "/cards/syntax/",
         "/cards/?q=army:french+bp>%3Dx"]
NO_OVERFLOW = "document.documentElement.scrollWidth <= innerWidth"


def test_phone_nav_toggle(page):
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto("/")
    nav = page.get_by_role("navigation", name="Main")
    expect(nav).to_be_hidden()
    page.get_by_test_id("nav-toggle").click()
    expect(nav).to_be_visible()
    nav.get_by_role("link", name="Catalogue").click()
    expect(page).to_have_url(page.url.rstrip("/").rsplit("/", 1)[0] + "/cards/")
    expect(page.get_by_role("navigation", name="Main")).to_be_hidden()


@pytest.mark.parametrize("width", [375, 1280])
def test_no_horizontal_overflow(page, width):
    page.set_viewport_size({"width": width, "height": 800})
    for url in PAGES:
        page.goto(url)
        assert page.evaluate(NO_OVERFLOW), (url, width)
        if width == 375:
            page.get_by_test_id("nav-toggle").click()
            assert page.evaluate(NO_OVERFLOW), (url, "nav open")


def test_desktop_nav_always_visible_and_logged_in_state(logged_in_page):
    page = logged_in_page
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/cards/")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    expect(page.get_by_test_id("nav-toggle")).to_be_hidden()
    expect(page.get_by_test_id("who")).to_have_text("alice")
