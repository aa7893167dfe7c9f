"""Issue 28's two click-savers on the shared game page, in Chromium, on the campaign page
(the same frame and views serve the battle page):

- "Deploy several cards at once" (frontend/battle/deploy_form.py, play.turns.act_many):
  the form comes filled in with one troop card in each empty Position; "Deploy these and end
  my deployment" places them and ends the deployment in one click, without a reload; five
  cards sent to one Position (4.1: at most four face-down) are refused with the page naming
  the fifth card, and nothing is placed.
- "End it, and from now on end it for me when that is all that is left" (accounts
  Preferences.end_for_me, play.autoplay): offered beside a lone end of the player's phase or
  turn; one click ends it (their own action, no reload) and switches the setting on; later
  lone ends are played for them, the log saying it was their setting; "Ask me instead"
  switches it off.

The campaign is played through the service (the newcomer policy, tests/newcomer_policy.py)
up to the screen under test; the test stands in for the Celery worker, as
test_campaign_newcomer_browser.py does."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from accounts.models import preferences_of
from campaigns import selectors, services
from campaigns.models import Campaign
from frontend.battle.deploy_form import suggested
from frontend.campaigns.views import action_warning, cards_of

from ..kinds import campaign_tasks as tasks
from ..newcomer_policy import choose_campaign

ENDED_FOR_YOU = "ended for you, your setting"


@pytest.fixture
def worker(monkeypatch):
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)


def _create(seed: int, monkeypatch) -> tuple[Campaign, User]:
    monkeypatch.setattr(services, "new_seed", lambda: seed)
    alice = User.objects.get(username="alice")
    return services.create_campaign(alice, "french", bot="random"), alice


def _drive(c: Campaign, user: User, stop: Callable[[Campaign, list[dict]], bool],
           limit: int = 2000) -> list[dict]:
    """The newcomer's campaign through the services until ``stop(c, legal)`` at a French
    decision; returns that decision's legal actions."""
    for _ in range(limit):
        c.refresh_from_db()
        assert c.status == "active", "the campaign ended first: pick another seed"
        if c.to_move != "french":
            assert tasks.bot_move(c.pk, c.seq) >= 1
            continue
        cv = selectors.campaign_view(c, user)
        legal = cv["legal_actions"]
        if stop(c, legal):
            return legal
        cards = cards_of(c)
        warned = [a for a in legal if action_warning(cv, a, cards)]
        services.act(c.pk, user, c.seq, dict(choose_campaign(legal, cv["view"], warned)))
    raise AssertionError("never reached")


def _open(page, c: Campaign) -> None:
    page.route(f"**/campaigns/{c.pk}/", lambda route: route.fulfill(response=route.fetch()))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/campaigns/{c.pk}/")
    expect(page.get_by_test_id("campaign-play")).to_have_attribute("data-seq", str(c.seq))
    page.evaluate("window.eaglesMarker = 'still here'")


def _deploying(c: Campaign, legal: list[dict]) -> bool:
    return any(a["type"] == "deploy" for a in legal)


def test_deploy_several_cards_and_end_the_deployment_in_one_click(
        logged_in_page, worker, monkeypatch):
    page = logged_in_page
    c, alice = _create(1815, monkeypatch)
    legal = _drive(c, alice, _deploying)
    board = next(a["board"] for a in legal if a["type"] == "deploy")
    cv = selectors.campaign_view(c, alice)
    pick = suggested(legal, cv["view"]["boards"][board], "french", cards_of(c))
    assert sorted(pick.values()) == ["french_center", "french_left", "french_right"]
    _open(page, c)
    form = page.get_by_test_id("deploy-many")
    expect(form).to_be_visible()
    for num, to in pick.items():  # filled in with the suggestion
        expect(page.get_by_test_id(f"place-{num}")).to_have_value(to)
    seq = c.seq
    page.get_by_test_id("deploy-many-done").click()
    expect(page.get_by_test_id("campaign-play")).not_to_have_attribute("data-seq", str(seq))
    assert page.evaluate("window.eaglesMarker") == "still here"  # no reload: htmx
    rows = list(c.actions.filter(seq__gt=seq, side="french", auto=False).order_by("seq"))
    assert [(r.action["type"], r.action.get("card"), r.action.get("to")) for r in rows] == [
        *(("deploy", n, to) for n, to in pick.items()), ("deployment_done", None, None)]
    expect(page.get_by_test_id("deploy-many")).to_have_count(0)  # deployed: the form is gone


def test_five_cards_to_one_position_are_refused_naming_the_fifth(
        logged_in_page, worker, monkeypatch):
    page = logged_in_page
    c, alice = _create(1815, monkeypatch)
    _drive(c, alice, _deploying)
    _open(page, c)
    selects = page.get_by_test_id("deploy-many").locator("select")
    troops = page.get_by_test_id("deploy-many").locator(
        "select[data-kind=infantry], select[data-kind=cavalry]")
    left = [s for s in troops.all() if "french_left" in s.inner_html()][:5]
    assert len(left) == 5, "fewer than five troop cards could go Left: pick another seed"
    for s in selects.all():
        s.select_option("")
    for s in left:
        s.select_option("french_left")
    fifth = int(str(left[4].get_attribute("name")).removeprefix("place-"))
    seq, rows = c.seq, c.actions.count()
    page.get_by_test_id("deploy-many-submit").click()
    error = page.get_by_test_id("campaign-error")
    expect(error).to_contain_text("Action 5 of 5")
    expect(error).to_contain_text(cards_of(c)[fifth].name)
    c.refresh_from_db()
    assert (c.seq, c.actions.count()) == (seq, rows)  # nothing placed


def test_end_it_and_from_now_on_end_it_for_me(logged_in_page, worker, monkeypatch):
    page = logged_in_page
    c, alice = _create(3, monkeypatch)
    _drive(c, alice, lambda c, legal: len(legal) == 1
           and legal[0]["type"] in ("end_phase", "end_turn"))
    _open(page, c)
    lone = page.get_by_test_id("actions").locator("form.b-act")
    expect(lone).to_have_count(1)
    offer = page.get_by_test_id("end-for-me")
    expect(offer).to_be_visible()
    seq = c.seq
    offer.click()
    expect(page.get_by_test_id("campaign-play")).not_to_have_attribute("data-seq", str(seq))
    assert page.evaluate("window.eaglesMarker") == "still here"  # no reload: htmx
    assert preferences_of(alice).end_for_me is True
    mine = c.actions.get(seq=seq + 1)
    assert mine.side == "french" and mine.action["type"] in ("end_phase", "end_turn")
    assert not mine.auto  # her own click
    _drive(c, alice, lambda c, legal: c.actions.filter(auto_reason="end").exists())
    page.goto(f"/campaigns/{c.pk}/")
    expect(page.get_by_test_id("log")).to_contain_text(ENDED_FOR_YOU)
    off = page.get_by_test_id("end-for-me-off")
    expect(off).to_be_visible()
    off.click()
    expect(page.get_by_test_id("end-for-me-off")).to_have_count(0)
    assert preferences_of(alice).end_for_me is False
