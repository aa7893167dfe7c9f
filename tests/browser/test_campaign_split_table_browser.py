"""The campaign's split table fits the window (issue 28, "The split table overflows"): alice
(the French) splits first; at 1,280 and at 390 px the page has no horizontal overflow (the
Quatre Bras and Ligny columns on screen) and the status line says whose cards she splits
("Your move: split your cards", never "their"). Screenshots with EAGLES_SCREENSHOTS=DIR.
"""

import os
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from campaigns import services

from ..campaign.helpers import small_pools
from ..kinds import campaign_tasks as tasks

NO_OVERFLOW = "document.documentElement.scrollWidth <= innerWidth"


@pytest.fixture
def worker(monkeypatch):
    pools = small_pools()
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)


def test_the_split_table_fits_1280_and_390_px_and_says_your_cards(logged_in_page, worker):
    page = logged_in_page
    alice = User.objects.get(username="alice")
    c = services.create_campaign(alice, "french", bot="greedy", settings={"turn_cap": 4})
    page.route(f"**/campaigns/{c.pk}/", lambda route: route.fulfill(response=route.fetch()))
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/campaigns/{c.pk}/")
        expect(page.get_by_test_id("split-editor")).to_be_visible()
        expect(page.get_by_test_id("status-line")).to_contain_text(
            "Your move: split your cards.")
        expect(page.get_by_test_id("status-line")).not_to_contain_text("their")
        assert page.evaluate(NO_OVERFLOW), (width, page.evaluate(
            "[document.documentElement.scrollWidth, innerWidth]"))
        # every column of the table is on screen: its right edge within the window
        right = page.evaluate("""Math.max(...[...document.querySelectorAll(
            '[data-testid=split-editor] table')].map(t => t.getBoundingClientRect().right))""")
        assert right <= width, (width, right)
        for battle in ("quatre-bras", "ligny"):
            radio = page.locator(f"[data-testid=split-card] input[value={battle}]").first
            box = radio.bounding_box()
            assert box and 0 <= box["x"] and box["x"] + box["width"] <= width, (battle, box)
        if os.environ.get("EAGLES_SCREENSHOTS"):
            Path(os.environ["EAGLES_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{os.environ['EAGLES_SCREENSHOTS']}/campaign-split-{width}.png",
                            full_page=True)
