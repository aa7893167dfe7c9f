"""Two people play a campaign in two browsers through its first phase into the branch (issue
13): alice (French) invites bob from the Campaigns page, bob joins from his list; alice splits
her cards with the split editor (its totals recount as she moves a card); bob deploys a card
and takes it back with Undo (alice's page says only that he took something back); both
then play through the page's own buttons, bob retreating from Quatre Bras and Ligny at the
first chance (16.0: conceding each battle, confirmed on the page), so the French win both
and the campaign goes on to Wavre and Waterloo, whose boards both pages show.

Small collections (``small_pools``) and a fixed seed keep it short; every request of both
pages passes through this thread, one at a time (SQLite, as in test_battle_browser.py).
"""

import pytest
from playwright.sync_api import expect

from battles.campaign import legal_actions
from campaigns import services
from campaigns.kind import core_of
from campaigns.models import Campaign

from ..campaign.helpers import TABLE, small_pools
from ..kinds import campaign_tasks as tasks
from .htmx_clicks import answered, moved

# Which button each side clicks first when it has it: short battles, bob retreating.
PREFERENCE = {
    "french": ("deployment_done", "end_phase", "end_turn", "pass", "roll_morale", "keep",
               "split", "deploy"),
    "allied": ("retreat", "deployment_done", "end_phase", "end_turn", "pass", "roll_morale",
               "keep", "split", "deploy"),
}



@pytest.fixture
def small(monkeypatch):
    pools = small_pools()
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(services, "new_seed", lambda: 1815)
    return pools


def play_area(page):
    return page.get_by_test_id("campaign-play")


def log_in(page, live_server, name):
    page.goto("/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", "s3cret-pass-1815")
    page.click("form button[type=submit]")
    page.wait_for_url(live_server.url + "/")


def click_preferred(page, side: str) -> str:
    buttons = page.get_by_test_id("actions").get_by_test_id("action")
    kinds = [buttons.nth(i).get_attribute("data-type") for i in range(buttons.count())]
    assert kinds, "no action button on the page of the side to move"
    kind = next((k for k in PREFERENCE[side] if k in kinds), kinds[0])
    seq = int(play_area(page).get_attribute("data-seq"))
    buttons.nth(kinds.index(kind)).click()
    asked = answered(page, seq)  # htmx: the answer swapped in; a Retreat asks first
    assert asked or kind != "retreat"
    return kind


def test_two_people_play_the_first_phase_into_the_branch(logged_in_page, browser, live_server,
                                                         django_user_model, small):
    alice = logged_in_page
    django_user_model.objects.create_user("bob", "bob@example.com", "s3cret-pass-1815")
    context = browser.new_context(base_url=live_server.url)
    context.set_default_timeout(15_000)
    bob = context.new_page()
    try:
        for page in (alice, bob):
            # a redirect goes back to the browser, which then asks for the page itself
            page.route("**/campaigns/**",
                       lambda route: route.fulfill(response=route.fetch(max_redirects=0)))
        log_in(bob, live_server, "bob")

        # alice invites bob; bob joins from his list
        alice.goto("/campaigns/")
        alice.select_option("#nc-side", "french")
        alice.select_option("#nc-opponent", "player")
        alice.fill("#nc-username", "bob")
        alice.get_by_test_id("create-campaign").click()
        alice.wait_for_url("**/campaigns/*/")
        c = Campaign.objects.get()
        expect(alice.get_by_test_id("status-line")).to_contain_text("Waiting for an opponent")
        bob.goto("/campaigns/")
        bob.get_by_test_id(f"campaign-{c.pk}").get_by_test_id("join").click()
        bob.wait_for_url(f"**/campaigns/{c.pk}/")
        expect(bob.get_by_test_id("status-line")).to_contain_text("The French split")

        # alice's page notices the join by polling; she splits with the editor
        editor = alice.get_by_test_id("split-editor")
        expect(editor).to_be_visible()
        c.refresh_from_db()
        first = legal_actions(core_of(c), "french")[0]["decks"]
        card = first["quatre-bras"][0]
        count = editor.get_by_test_id("split-count-ligny")
        bp = editor.get_by_test_id("split-bp-ligny")
        before_count, before_bp = int(count.inner_text()), int(bp.inner_text())
        editor.locator(f"#card-{card}-ligny").check()
        expect(count).to_have_text(str(before_count + 1))  # the script recounts at once
        expect(bp).to_have_text(str(before_bp + TABLE[card].bp))
        editor.get_by_test_id("split-submit").click()
        moved(alice, 0)
        c.refresh_from_db()
        assert c.seq == 1 and card in c.actions.get(seq=1).action["decks"]["ligny"]

        # bob deploys a troop card face down and takes it back
        expect(play_area(bob)).to_have_attribute("data-seq", "1")
        buttons = bob.get_by_test_id("actions").get_by_test_id("action")
        troop = next(i for i in range(buttons.count())
                     if buttons.nth(i).get_attribute("data-type") == "deploy"
                     and TABLE[_card_of(buttons.nth(i))].kind in ("infantry", "cavalry"))
        buttons.nth(troop).click()
        moved(bob, 1)
        bob.get_by_test_id("undo").click()
        moved(bob, 2)
        expect(bob.get_by_test_id("undo-note")).to_contain_text("You took back your last action")
        expect(play_area(alice)).to_have_attribute("data-seq", "3")
        expect(alice.get_by_test_id("undo-note")).to_have_text(
            "The Allied player took back their last action (#2).")

        # both play on through the pages' buttons until the second phase's boards are up
        pages = {"french": alice, "allied": bob}
        retreats = 0
        for _ in range(120):
            c.refresh_from_db()
            if c.status != "active" or (c.phase == "second" and c.board):
                break
            page = pages[c.to_move]
            expect(play_area(page)).to_have_attribute("data-seq", str(c.seq))
            retreats += click_preferred(page, c.to_move) == "retreat"
        c.refresh_from_db()
        assert retreats == 2
        assert c.status == "active" and c.phase == "second"
        assert {b: r["winner"] for b, r in c.state["results"].items()
                if b in ("quatre-bras", "ligny")} == {"quatre-bras": "french", "ligny": "french"}
        for page in (alice, bob):
            expect(play_area(page)).to_have_attribute("data-seq", str(c.seq))
            expect(page.get_by_test_id("board-waterloo")).to_be_visible()
            expect(page.get_by_test_id("timeline")).to_contain_text("Wavre and Waterloo")
            expect(page.get_by_test_id("timeline")).to_contain_text(
                "The Allied retreat from Ligny")
    finally:
        bob.goto("about:blank")
        context.close()


def _card_of(button) -> int:
    import json

    form = button.locator("xpath=..")
    return json.loads(form.locator("input[name=action]").get_attribute("value"))["card"]
