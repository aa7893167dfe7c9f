"""A campaign against the computer in the browser: alice starts one from the Campaigns page
(small collections, a turn limit), the computer (the French) splits while her page polls,
she splits and plays a few actions by clicking, the computer answers, then she resigns the
campaign and the page says it is over, with its replay.

As in test_battle_browser.py, the test stands in for the Celery worker (it runs the task
function ``campaigns.bot_move`` itself) and routes the page's polls through this thread.
"""

import pytest
from playwright.sync_api import expect

from campaigns import services
from campaigns.models import Campaign

from ..campaign.helpers import small_pools
from ..kinds import campaign_tasks as tasks
from .htmx_clicks import answered, moved

PASSIVE = ("split", "deploy", "deployment_done", "roll_morale", "pass", "end_phase",
           "end_turn", "keep")


@pytest.fixture
def worker(monkeypatch):
    asked: list[tuple[int, int]] = []
    pools = small_pools()
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: asked.append(args))
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)
    return asked


def test_a_campaign_against_the_computer_until_alice_resigns(logged_in_page, live_server,
                                                            worker):
    page = logged_in_page
    page.goto("/campaigns/")
    page.select_option("#nc-side", "allied")
    page.select_option("#nc-bot", "random")
    page.fill("#nc-cap", "2")
    page.get_by_test_id("create-campaign").click()
    page.wait_for_url("**/campaigns/*/")
    c = Campaign.objects.get()
    page.route(f"**/campaigns/{c.pk}/", lambda route: route.fulfill(response=route.fetch()))
    expect(page.get_by_test_id("status-line")).to_contain_text("The French split their cards")
    assert worker == [(c.pk, 0)]
    clicks = 0
    for _ in range(60):
        c.refresh_from_db()
        if clicks >= 4 or c.status != "active":
            break
        if c.to_move == "french":
            assert tasks.bot_move(c.pk, c.seq) >= 1
            # the page polls and picks up the computer's move by itself
            expect(page.get_by_test_id("campaign-play")).not_to_have_attribute(
                "data-seq", str(c.seq), timeout=10_000)
            continue
        expect(page.get_by_test_id("campaign-play")).to_have_attribute("data-seq", str(c.seq))
        buttons = page.get_by_test_id("actions").get_by_test_id("action")
        kinds = [buttons.nth(i).get_attribute("data-type") for i in range(buttons.count())]
        pick = next((i for i, k in enumerate(kinds) if k in PASSIVE), 0)
        buttons.nth(pick).click()
        answered(page, c.seq)  # htmx: the answer is swapped in
        clicks += 1
    assert clicks >= 2
    expect(page.get_by_test_id("board-quatre-bras")).to_be_visible()
    expect(page.get_by_test_id("board-ligny")).to_be_visible()
    page.get_by_test_id("resign").locator("summary").click()
    page.get_by_test_id("resign-confirm").click()
    expect(page.get_by_test_id("outcome")).to_contain_text("The French win the campaign")
    c.refresh_from_db()
    assert c.status == "finished" and c.outcome["reason"] == "resigned"
    page.get_by_test_id("replay-link").click()
    expect(page.get_by_test_id("replay-step")).to_contain_text("The start.")


def test_a_campaign_against_the_computer_ends_by_itself_when_alice_concedes_both_battles(
        logged_in_page, live_server, worker):
    """alice (French) concedes Quatre Bras and Ligny with the page's Retreat button at the
    first chance (16.0: retreat, the battle is conceded; the page asks first); the computer
    plays its side as it is asked; with both first battles lost the campaign ends by itself:
    the Allies win it, nobody resigned."""
    page = logged_in_page
    page.goto("/campaigns/")
    page.select_option("#nc-side", "french")
    page.select_option("#nc-bot", "random")
    page.get_by_test_id("create-campaign").click()
    page.wait_for_url("**/campaigns/*/")
    c = Campaign.objects.get()
    page.route(f"**/campaigns/{c.pk}/", lambda route: route.fulfill(response=route.fetch()))
    prefer = ("retreat", "deployment_done", "end_phase", "end_turn", "pass", "roll_morale",
              "keep", "split")
    retreats = 0
    for _ in range(200):
        c.refresh_from_db()
        if c.status != "active":
            break
        if c.to_move == "allied":
            assert worker[-1] == (c.pk, c.seq)  # asked for the computer's move at this seq
            assert tasks.bot_move(c.pk, c.seq) >= 1
            continue
        page.goto(f"/campaigns/{c.pk}/")
        expect(page.get_by_test_id("campaign-play")).to_have_attribute("data-seq", str(c.seq))
        buttons = page.get_by_test_id("actions").get_by_test_id("action")
        kinds = [buttons.nth(i).get_attribute("data-type") for i in range(buttons.count())]
        kind = next((k for k in prefer if k in kinds), kinds[0])
        retreats += kind == "retreat"
        buttons.nth(kinds.index(kind)).click()
        asked = answered(page, c.seq, confirm=False)
        if kind == "retreat":  # it concedes the battle: the page asks first
            assert asked
            expect(page.get_by_test_id("confirm")).to_contain_text("You concede that battle")
            assert Campaign.objects.get(pk=c.pk).seq == c.seq  # nothing played yet
        if asked:
            page.get_by_test_id("confirm-button").click()
            moved(page, c.seq)
    c.refresh_from_db()
    assert c.status == "finished" and retreats == 2
    assert c.outcome["winner"] == "allied" and c.outcome["reason"] == "campaign"
    assert {r["reason"] for r in c.outcome["results"].values()} == {"retreat"}
    expect(page.get_by_test_id("outcome")).to_have_text(
        "The Allied win the campaign. Replay it")
    expect(page.get_by_test_id("timeline")).to_contain_text("The French retreat from Ligny")
