"""The game page frame on a campaign in the browser: alice (the Allies) plays a few actions
of a campaign against the computer by clicking; the log (per board and turn) and the last
dice drawn update as the campaign goes on; the computer's moves arrive by polling, with the
header's "your move" badge swapped in out of band; and the campaign and battle pages fit a
phone (390 px) and a desktop (1280 px) without horizontal scrolling.

As in test_campaign_browser.py, the test stands in for the Celery worker. With
EAGLES_SCREENSHOTS=DIR both pages are saved at both widths.
"""

import json
import os
import random
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import services as battle_services
from campaigns import services
from campaigns.models import Campaign
from game import ENDING_ACTIONS

from ..campaign.helpers import small_pools
from ..kinds import battle_tasks
from ..kinds import campaign_tasks as tasks
from .htmx_clicks import answered

NO_OVERFLOW = "document.documentElement.scrollWidth <= innerWidth"
ATTACKS = ("fire", "shock", "roll_morale")


@pytest.fixture
def worker(monkeypatch):
    pools = small_pools()
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    battle_tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)  # dice in the first battles


def pick(rng, actions):
    """Fight: attack, deploy everything, move; end a phase now and then (no Retreat)."""
    for kinds in (ATTACKS, ("deploy",)):
        if chosen := [i for i, a in enumerate(actions) if a["type"] in kinds]:
            return rng.choice(chosen)
    ending = [i for i, a in enumerate(actions) if a["type"] in ENDING_ACTIONS]
    other = [i for i, a in enumerate(actions) if a["type"] not in ENDING_ACTIONS + ("retreat",)]
    return rng.choice(ending if ending and (not other or rng.random() < 0.3) else other)


def screenshots(page, name: str) -> None:
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        page.reload()
        assert page.evaluate(NO_OVERFLOW), (name, width)
        if os.environ.get("EAGLES_SCREENSHOTS"):
            Path(os.environ["EAGLES_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{os.environ['EAGLES_SCREENSHOTS']}/{name}-{width}.png",
                            full_page=True)


def test_the_campaign_log_and_dice_follow_the_play(logged_in_page, live_server, worker):
    page = logged_in_page
    alice = User.objects.get(username="alice")
    c = services.create_campaign(alice, "allied", bot="greedy", settings={"turn_cap": 4})
    page.route(f"**/campaigns/{c.pk}/", lambda route: route.fulfill(response=route.fetch()))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/campaigns/{c.pk}/")
    play = page.get_by_test_id("campaign-play")
    log_lines = page.get_by_test_id("log").get_by_test_id("log-line")
    expect(page.get_by_test_id("your-move")).to_have_count(0)  # the French split first
    expect(page.get_by_test_id("dice")).to_have_count(0)
    rng = random.Random("campaign-log")
    seen_dice = computer_moves = clicks = 0
    for _ in range(200):
        c.refresh_from_db()
        if c.status != "active" or (seen_dice and clicks >= 6):
            break
        if c.to_move == "french":
            before = log_lines.count()
            assert tasks.bot_move(c.pk, c.seq) >= 1
            c.refresh_from_db()
            computer_moves += 1
            if c.to_move != "allied":
                continue
            # the page polls and picks the computer's moves up by itself: the log grows,
            # the header's badge says it is alice's move, what is new is marked
            expect(play).to_have_attribute("data-seq", str(c.seq), timeout=10_000)
            expect(page.get_by_test_id("your-move")).to_be_visible()
            assert log_lines.count() > before
            expect(page.locator("[data-testid=log-line][data-new='1']").first).to_be_attached()
            continue
        expect(play).to_have_attribute("data-seq", str(c.seq))
        forms = page.get_by_test_id("actions").locator("form.b-act")
        actions = [json.loads(forms.nth(i).locator("input[name=action]").get_attribute("value"))
                   for i in range(forms.count())]
        before = log_lines.count()
        forms.nth(pick(rng, actions)).get_by_test_id("action").click()
        answered(page, c.seq)  # htmx; a move that can lose the battle is confirmed
        clicks += 1
        expect(play).not_to_have_attribute("data-seq", str(c.seq))
        assert log_lines.count() > before  # alice's action is in the log at once
        if page.get_by_test_id("dice").count():
            seen_dice += 1
            expect(page.get_by_test_id("dice")).to_contain_text("The last dice")
            expect(page.get_by_test_id("dice").locator("svg")).to_be_visible()
    assert seen_dice and computer_moves and clicks >= 6, (seen_dice, computer_moves, clicks)
    groups = page.get_by_test_id("log-turn")
    titles = [groups.nth(i).locator("summary").inner_text() for i in range(groups.count())]
    assert any(t.startswith("Quatre Bras · Turn") for t in titles), titles
    assert any(t.startswith("Ligny · ") for t in titles), titles
    assert any(t.startswith("The campaign") for t in titles), titles
    screenshots(page, "campaign")
    # the battle page on the same frame, for the same check
    b = battle_services.create_battle(alice, "quatre-bras", "allied", bot="random")
    page.goto(f"/battles/{b.pk}/")
    expect(page.get_by_test_id("your-move")).to_be_visible()
    screenshots(page, "battle")
    assert Campaign.objects.get(pk=c.pk).seq > 5
