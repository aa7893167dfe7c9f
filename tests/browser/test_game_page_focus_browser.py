"""The focus order of every game page, not only the battle page's
(test_game_page_actions_browser.py; issue 28, "The finish button comes first and keeps the
focus"): on the campaign page a Retreat (it concedes a battle) and the finishes come after
every board action, and after an action the focus goes to the next sensible action, never
to a finish nor to the Retreat (static/frontend/play.js)."""

from __future__ import annotations

import random

from django.contrib.auth.models import User
from playwright.sync_api import expect

from campaigns import services
from game import ENDING_ACTIONS

from .test_campaign_contradictions_browser import both_running, drive, pools  # noqa: F401

NOT_FOCUSED = (*ENDING_ACTIONS, "retreat")
FOCUSED = "[document.activeElement.dataset.testid || document.activeElement.id," \
          " document.activeElement.dataset.type]"


def test_campaign_page_retreat_and_finish_come_last_and_never_take_the_focus(
        logged_in_page, pools):  # noqa: F811 - the fixture imported above
    page = logged_in_page
    alice = User.objects.get(username="alice")
    c = services.create_campaign(alice, "french", bot="random", settings={"turn_cap": 4})
    drive(c, alice, "french", lambda c, legal: both_running(c, legal) and {
        a["type"] for a in legal} >= {"retreat", "change_formation"}, random.Random(2))
    page.goto(f"/campaigns/{c.pk}/")
    play = page.get_by_test_id("campaign-play")
    expect(play).to_have_attribute("data-seq", str(c.seq))
    keys = [s.get_attribute("data-testid") for s in
            page.get_by_test_id("actions").locator(".b-section").all()]
    assert keys[-2:] == ["section-retreat", "section-finish"], keys
    buttons = page.get_by_test_id("actions").get_by_test_id("action")
    assert buttons.first.get_attribute("data-type") not in NOT_FOCUSED

    # an action that asks nothing first: the focus goes to the next sensible action
    form = page.locator("[data-testid=actions] form.b-act:not([data-warn])").filter(
        has=page.locator("[data-type=change_formation]")).first
    form.locator("[data-testid=action]").click()
    expect(play).to_have_attribute("data-seq", str(c.seq + 1))
    focused = page.evaluate(FOCUSED)
    assert focused[0] in ("action", "actions-title"), focused
    assert focused[1] not in NOT_FOCUSED, focused
