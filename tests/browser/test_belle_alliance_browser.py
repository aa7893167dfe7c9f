"""La Belle Alliance in the browser, a WHOLE game against the computer: alice starts a game
from the navigation's link (the French; the computer, random, the Allies), reads the map and
the house cards, and plays every French phase by clicking an action button (a casualty choice
too, when one comes) until an army routs; the computer answers each time. The page has no
horizontal overflow at 390 px, at the start and at the end; the replay's dice check passes.
As the other browser tests, the test stands in for the Celery worker (it runs
``play.bot_move`` itself) and routes the page's polls through this thread. The seed is fixed:
the game is the same every run."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from online.belle_alliance.models import BelleAllianceMatch
from play import opening

from ..kinds import KindTasks

tasks = KindTasks("belle_alliance")
NO_OVERFLOW = "document.documentElement.scrollWidth <= innerWidth"
PLAY = "belle-alliance-game-play"


@pytest.fixture
def worker(monkeypatch):
    asked: list[tuple[int, int]] = []
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: asked.append(args))
    monkeypatch.setattr(opening, "new_seed", lambda: 1815)
    return asked


def test_alice_plays_a_whole_game_against_the_computer(logged_in_page, live_server, worker):
    page = logged_in_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/")
    page.get_by_role("link", name="La Belle Alliance").first.click()
    page.wait_for_url("**/belle-alliance/")
    expect(page.get_by_test_id("house-note")).to_be_visible()
    assert page.evaluate(NO_OVERFLOW), "horizontal overflow at 390 px (the list)"
    page.select_option("#ng-side", "french")
    page.select_option("#ng-bot", "random")
    page.get_by_test_id("create-game").click()
    page.wait_for_url("**/belle-alliance/*/")
    m = BelleAllianceMatch.objects.get()
    page.route(f"**/belle-alliance/{m.pk}/", lambda route: route.fulfill(response=route.fetch()))
    assert worker == []  # the French act first: nothing asked of the computer
    expect(page.get_by_test_id("battlefield")).to_be_visible()
    expect(page.get_by_test_id("cards")).to_contain_text("house edition (ours, not the "
                                                         "publisher's)")
    assert page.evaluate(NO_OVERFLOW), "horizontal overflow at 390 px"
    mine = 0
    for _ in range(200):
        m.refresh_from_db()
        if m.status != "active":
            break
        if m.to_move == "allied":
            assert worker[-1] == (m.pk, m.seq)
            assert tasks.bot_move(m.pk, m.seq) >= 1
            continue
        page.goto(f"/belle-alliance/{m.pk}/")
        expect(page.get_by_test_id(PLAY)).to_have_attribute("data-seq", str(m.seq))
        buttons = page.get_by_test_id("actions").get_by_test_id("action")
        assert buttons.count() >= 1
        buttons.nth(mine % buttons.count()).click()
        page.wait_for_load_state()
        expect(page.get_by_test_id(PLAY)).not_to_have_attribute("data-seq", str(m.seq))
        mine += 1
    m.refresh_from_db()
    assert m.status == "finished" and m.outcome["winner"] in ("french", "allied")
    assert mine >= 3
    page.goto(f"/belle-alliance/{m.pk}/")
    expect(page.get_by_test_id("outcome")).to_contain_text("win")
    expect(page.get_by_test_id("log")).to_contain_text("rout")
    expect(page.get_by_test_id("dice")).to_be_visible()
    assert page.evaluate(NO_OVERFLOW), "horizontal overflow at 390 px"
    page.screenshot(path="/tmp/belle-alliance-390.png", full_page=True)
    page.get_by_test_id("replay-link").click()
    expect(page.get_by_test_id("dice-check")).to_contain_text("they match")
    # The layout is measured once the stylesheets are in: the text above can be there
    # before them (a click's navigation is not waited for), and the unstyled menu is wide.
    page.wait_for_load_state("load")
    assert page.evaluate(NO_OVERFLOW), "horizontal overflow at 390 px (replay)"
