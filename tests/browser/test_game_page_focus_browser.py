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
from play import opening

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
    # play.js moves the focus once htmx has settled the swap
    page.wait_for_function("document.activeElement && document.activeElement !== document.body")
    focused = page.evaluate(FOCUSED)
    assert focused[0] in ("action", "actions-title"), focused
    assert focused[1] not in NOT_FOCUSED, focused


def test_la_belle_alliance_page_focus_goes_to_an_action_never_to_pass(
        logged_in_page, monkeypatch):
    """After alice's action and after the computer's answer (the page updates by itself),
    the focus is on the actions heading or on an action, never on a Pass."""
    from ..kinds import KindTasks

    tasks = KindTasks("belle_alliance")
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(opening, "new_seed", lambda: 1815)
    page = logged_in_page
    page.goto("/belle-alliance/")
    page.select_option("#ng-side", "french")
    page.select_option("#ng-bot", "random")
    page.get_by_test_id("create-game").click()
    page.wait_for_url("**/belle-alliance/*/")
    from online.belle_alliance.models import BelleAllianceMatch

    m = BelleAllianceMatch.objects.get()
    play = page.get_by_test_id("belle-alliance-game-play")
    for _ in range(2):  # two French turns, each answered by the computer
        m.refresh_from_db()
        expect(play).to_have_attribute("data-seq", str(m.seq))
        page.get_by_test_id("actions").get_by_test_id("action").first.click()
        expect(play).not_to_have_attribute("data-seq", str(m.seq))
        focused = page.evaluate(FOCUSED)
        assert focused[0] in ("action", "actions-title") and focused[1] not in NOT_FOCUSED, \
            focused
        m.refresh_from_db()
        if m.status != "active":
            return
        while m.to_move == "allied" and m.status == "active":
            assert tasks.bot_move(m.pk, m.seq) >= 1
            m.refresh_from_db()
        # the page picks the answer up by itself (polling here: no websocket in the tests)
        expect(play).to_have_attribute("data-seq", str(m.seq), timeout=15_000)
        focused = page.evaluate(FOCUSED)
        assert focused[1] not in NOT_FOCUSED, focused


def test_stratego_page_focus_after_a_move_goes_to_an_action_never_to_end_the_turn(
        logged_in_page, monkeypatch):
    """Stratego's actions post whole forms (the answer is a new page): after a move, the new
    page puts the focus on the next action or the actions heading, never on "End the turn";
    a page opened afresh moves no focus."""
    from online.stratego.models import StrategoMatch

    from ..kinds import KindTasks

    tasks = KindTasks("stratego")
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(opening, "new_seed", lambda: 1815)
    page = logged_in_page
    page.goto("/stratego/")
    page.select_option("#ng-side", "french")
    page.select_option("#ng-bot", "random")
    page.get_by_test_id("create-game").click()
    page.wait_for_url("**/stratego/*/")
    m = StrategoMatch.objects.get()
    play = page.get_by_test_id("stratego-game-play")
    assert tasks.bot_move(m.pk, m.seq) >= 1  # the Allies set up
    m.refresh_from_db()
    page.goto(f"/stratego/{m.pk}/")
    assert page.evaluate("document.activeElement === document.body")  # opened afresh
    page.get_by_test_id("random-setup").click()
    page.wait_for_load_state()
    m.refresh_from_db()
    while m.to_move == "allied" and m.status == "active":  # the Allies open the battle
        assert tasks.bot_move(m.pk, m.seq) >= 1
        m.refresh_from_db()
    page.goto(f"/stratego/{m.pk}/")
    expect(play).to_have_attribute("data-seq", str(m.seq))
    page.locator("a.pick").first.click()
    page.wait_for_url("**?sel=*")
    targets = page.locator("a.target-link")
    assert targets.count() > 0
    targets.first.click()
    expect(page.get_by_test_id("stratego-game-play")).not_to_have_attribute(
        "data-seq", str(m.seq))
    page.wait_for_load_state()
    focused = page.evaluate(FOCUSED)
    assert focused[0] in ("action", "actions-title"), focused
    assert focused[1] not in NOT_FOCUSED, focused
