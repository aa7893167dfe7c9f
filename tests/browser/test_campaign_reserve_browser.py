"""The campaign page's Reserve panel (issue 28, "No log, no dice, no reserve panel"): each
board shows the player's own Reserve there by name, as a battle's page does, with the enemy's
Reserve as a count only (hidden information never leaks); after a card is deployed from it,
the panel follows without a reload."""

from django.contrib.auth.models import User
from playwright.sync_api import expect

from campaigns import selectors
from campaigns import services as campaigns
from campaigns.kind import core_of
from campaigns.models import Campaign
from decks.catalogue import cards_by_number

from ..campaign.helpers import small_pools
from ..kinds import campaign_tasks
from ..newcomer_policy import choose_campaign


def test_each_board_shows_my_reserve_by_name_and_the_enemys_as_a_count(logged_in_page,
                                                                       monkeypatch):
    pools = small_pools()
    campaign_tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(campaigns, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(campaigns, "new_seed", lambda: 1815)
    alice = User.objects.get(username="alice")
    c = campaigns.create_campaign(alice, "allied", bot="random")
    for _ in range(40):  # the computer splits and deploys; alice splits, then her deployment
        c = Campaign.objects.get(pk=c.pk)
        if c.to_move == "french":
            campaign_tasks.bot_move(c.pk, c.seq)
            continue
        cv = selectors.campaign_view(c, alice)
        if any(a["type"] == "deploy" for a in cv["legal_actions"]):
            break
        campaigns.act(c.pk, alice, c.seq, choose_campaign(cv["legal_actions"], cv["view"]))
    names = {n: card["name"] for n, card in cards_by_number().items()}
    page = logged_in_page
    page.goto(f"/campaigns/{c.pk}/")
    page.evaluate("window.eaglesMarker = 'still here'")
    boards = cv["view"]["boards"]
    assert boards
    for key, bv in boards.items():
        mine = bv["reserves"]["allied"]["cards"]
        theirs = bv["reserves"]["french"]
        assert "cards" not in theirs  # the view itself hides them
        panel = page.get_by_test_id(f"reserve-{key}")
        n = len(mine)
        expect(panel).to_contain_text(f"({n} card{'s' if n != 1 else ''}; the enemy holds "
                                      f"{theirs['count']})")
        expect(panel.get_by_test_id("reserve-card")).to_have_count(n)
        for num in mine:
            expect(panel).to_contain_text(names[num])
    # the core's French Reserve at each board is named nowhere in the panels
    core = core_of(Campaign.objects.get(pk=c.pk))
    assert core is not None
    for key in boards:
        text = page.get_by_test_id(f"reserve-{key}").inner_text()
        french = [names[n] for n in core.boards[key].reserve[0]
                  if names[n] not in {names[m] for m in boards[key]["reserves"]["allied"]["cards"]}]
        assert french and not [name for name in french if name in text], (key, french)

    # deploy one card by clicking: it leaves its board's panel, without a reload
    shown = page.locator("[data-testid^=reserve-] [data-testid=reserve-card]")
    before = shown.count()
    page.locator("[data-testid=action][data-type=deploy]").first.click()
    confirm = page.get_by_test_id("confirm-button")
    for _ in range(50):
        if shown.count() == before - 1 or confirm.count():
            break
        page.wait_for_timeout(100)
    if confirm.count():
        confirm.click()
    expect(shown).to_have_count(before - 1)
    assert page.evaluate("window.eaglesMarker") == "still here"
