"""A campaign's clocks in the browser (RULINGS 16-o): alice plays a live campaign against
bob; on her page her running clock (one for the whole campaign) counts down each second with
the battle page's script (static/frontend/clock.js; the page fixture fails on any CSP
violation), then she resigns and the page names how it ended."""

import re

from django.contrib.auth.models import User
from playwright.sync_api import expect

from campaigns import services
from campaigns.models import Campaign

from ..campaign.helpers import small_pools
from ..kinds import campaign_tasks as tasks


def seconds(text: str) -> int:
    minutes, secs = re.fullmatch(r"(\d+):(\d\d)", text.strip()).groups()
    return int(minutes) * 60 + int(secs)


def test_the_campaign_clock_counts_down_then_alice_resigns(logged_in_page, monkeypatch):
    pools = small_pools()
    monkeypatch.setattr(services, "_pool_cards", lambda user, side, pool, records: pools[side])
    tasks.patch(monkeypatch, "send_flag_fall", lambda *args: None)  # no broker here
    page = logged_in_page
    alice = User.objects.get(username="alice")
    bob = User.objects.create_user("bob", "bob@example.com", "s3cret-pass-1815")
    c = services.create_campaign(alice, "french", opponent="open",
                                 time_control={"kind": "live", "base": 600, "increment": 5})
    services.join_campaign(c.pk, bob)
    page.goto(f"/campaigns/{c.pk}/")
    running = page.locator("[data-clock-running] .b-clock-left")
    expect(running).to_have_count(1)
    expect(page.get_by_test_id("clock-french")).to_have_attribute("data-clock-running", "1")
    first = seconds(running.text_content())
    page.wait_for_timeout(2300)
    assert first - 4 <= seconds(running.text_content()) <= first - 1  # counted down
    assert seconds(page.locator('[data-testid="clock-allied"] .b-clock-left')
                   .text_content()) == 600  # bob's clock stands still
    page.get_by_text("Resign the campaign…").click()
    page.get_by_test_id("resign-confirm").click()
    expect(page.get_by_test_id("outcome")).to_contain_text(
        "The Allied win the campaign (French resigned).")
    assert Campaign.objects.get(pk=c.pk).outcome["reason"] == "resigned"
    expect(page.locator("[data-clock-running]")).to_have_count(0)  # the clocks stopped
