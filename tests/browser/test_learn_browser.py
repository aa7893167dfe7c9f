"""Learning the game in the browser (issue 28): a newcomer who never read the rulebook opens
"How to play" from the menu, plays the first battle step by step (the real engine, scripted
dice) to its win, then starts a Quatre Bras against the random computer from the Battles
page and wins it, choosing each click by what the tutorial taught (tests/newcomer_policy.py;
seeded so the battle always goes the same way, and fast). Leaving the tutorial works at any
step. The skip link: on every page the first Tab reaches it and Enter moves the focus to
the main content.

As in test_battle_browser.py the test stands in for the Celery worker: it runs the computer's
move (``battles.bot_move``) while the page polls, through this thread (``serialise_polls``).
With EAGLES_SCREENSHOTS=DIR the how-to-play page is saved (docs/screens/)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from battles import services
from battles.models import Battle

from ..kinds import battle_tasks as tasks
from ..newcomer_policy import choose, choose_campaign
from .test_battle_browser import serialise_polls

SEED = 1815_0009  # the newcomer's policy beats the random computer in 12 actions (turn 2)


def _tutorial_through(page) -> int:
    clicks = 0
    while page.get_by_test_id("tutorial-action").count():
        at = page.get_by_test_id("tutorial-step").get_attribute("data-at")
        page.get_by_test_id("tutorial-action").click()
        clicks += 1
        expect(page.get_by_test_id("tutorial-step").or_(page.get_by_test_id(
            "tutorial-done"))).not_to_have_attribute("data-at", at)
    return clicks


def test_a_newcomer_finishes_the_tutorial_then_beats_the_random_computer(
        logged_in_page, live_server, monkeypatch):
    page = logged_in_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.get_by_role("navigation", name="Main").get_by_role("link", name="How to play").click()
    expect(page.get_by_test_id("how-to-play")).to_be_visible()
    expect(page.get_by_test_id("diagram-positions").locator("svg")).to_be_visible()
    if os.environ.get("EAGLES_SCREENSHOTS"):
        out = Path(os.environ["EAGLES_SCREENSHOTS"])
        out.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(out / "how-to-play-1280.png"))
    page.get_by_test_id("start-tutorial").click()
    expect(page.get_by_test_id("tutorial-step")).to_contain_text("Deployment")
    assert _tutorial_through(page) == 12
    expect(page.get_by_test_id("tutorial-done")).to_contain_text("You won!")
    expect(page.get_by_test_id("happened")).to_contain_text("routs")

    # Now a real battle: Quatre Bras, French, against the random computer.
    asked: list[tuple[int, int]] = []
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: asked.append(args))
    monkeypatch.setattr(services, "new_seed", lambda: SEED)
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Battles").click()
    page.get_by_label("Battle", exact=True).select_option("quatre-bras")
    page.get_by_label("French").check()
    page.get_by_label("Random").check()
    page.get_by_test_id("new-battle-submit").click()
    expect(page.get_by_test_id("battle-name")).to_contain_text("Quatre Bras")
    b = Battle.objects.get()
    user = b.french_player
    serialise_polls(page, b.pk)
    play = page.get_by_test_id("battle-play")
    clicks = 0
    for _ in range(200):
        b.refresh_from_db()
        if b.status != "active":
            break
        seq = b.seq
        if play.get_attribute("data-waiting") == "computer":
            tasks.bot_move(b.pk, seq)
        elif page.get_by_test_id("deploy-many-done").count():
            # the deployment as the page fills it in, in one click (a newcomer's way)
            page.get_by_test_id("deploy-many-done").click()
            clicks += 1
        else:
            bv = services.battle_view(b, user)
            chosen = choose(bv["legal_actions"], bv["view"])
            forms = page.get_by_test_id("actions").locator("form.b-act")
            index = next(i for i in range(forms.count()) if json.loads(
                forms.nth(i).locator("input[name=action]").get_attribute("value")) == chosen)
            forms.nth(index).get_by_test_id("action").click()
            clicks += 1
            page.wait_for_function("n => +document.getElementById('battle-play').dataset.seq"
                                   " > n || document.querySelector("
                                   "'[data-testid=confirm-button]')", arg=seq)
            if page.get_by_test_id("confirm-button").count():
                page.get_by_test_id("confirm-button").click()
                clicks += 1
        expect(play).not_to_have_attribute("data-seq", str(seq))
    b.refresh_from_db()
    assert b.status == "finished" and b.outcome["winner"] == "french", b.outcome
    assert clicks <= 20, clicks
    expect(page.get_by_test_id("outcome")).to_contain_text("you win")


def test_the_tutorial_can_be_left_at_any_step(page, live_server):
    page.goto("/learn/tutorial/")
    page.get_by_test_id("tutorial-action").click()
    expect(page.get_by_test_id("happened")).to_be_visible()
    page.get_by_test_id("tutorial-leave").click()
    expect(page.get_by_test_id("how-to-play")).to_be_visible()
    page.goto("/learn/tutorial/")  # a new one: from the first step again
    expect(page.get_by_test_id("tutorial-step")).to_contain_text("Step 1 of 12")


@pytest.mark.parametrize("path", ["/", "/learn/", "/learn/tutorial/", "/cards/",
                                  "/accounts/signup/", "/accounts/login/", "/tournaments/"])
def test_the_first_tab_reaches_the_skip_link_and_enter_moves_to_main(page, live_server,
                                                                    path):
    page.goto(path)
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.dataset.testid")
    assert focused == "skip-link", (path, focused)
    expect(page.get_by_test_id("skip-link")).to_be_visible()  # seen while it has the focus
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"


NO_OVERFLOW = "document.documentElement.scrollWidth <= innerWidth"


def _shot(page, name: str) -> None:
    if os.environ.get("EAGLES_SCREENSHOTS"):
        out = Path(os.environ["EAGLES_SCREENSHOTS"])
        out.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(out / name))


@pytest.mark.parametrize("width", [390, 1280])
def test_how_to_play_and_the_tutorial_fit_the_window(page, live_server, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/learn/")
    assert page.evaluate(NO_OVERFLOW)
    _shot(page, f"how-to-play-{width}.png")
    page.goto("/learn/tutorial/")
    assert page.evaluate(NO_OVERFLOW)
    box, step = (page.get_by_test_id(t).bounding_box() for t in ("board", "tutorial-step"))
    assert box and step
    if width == 390:  # on a phone the step to read comes first, the board under it
        assert step["y"] < box["y"]
    else:  # side by side
        assert step["x"] > box["x"] + box["width"] - 1
    _shot(page, f"tutorial-{width}.png")


def test_the_campaign_page_screens(logged_in_page, live_server, monkeypatch):
    """The campaign page against the computer at 1,280 and 390 px, without horizontal
    scrolling (saved with EAGLES_SCREENSHOTS=DIR: docs/screens/)."""
    from django.contrib.auth.models import User

    from campaigns import services as campaigns
    from campaigns.models import Campaign

    from ..campaign.helpers import small_pools
    from ..kinds import campaign_tasks

    pools = small_pools()
    campaign_tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(campaigns, "_pool_cards", lambda user, side, pool, records: pools[side])
    monkeypatch.setattr(campaigns, "new_seed", lambda: 1815)
    alice = User.objects.get(username="alice")
    c = campaigns.create_campaign(alice, "allied", bot="random")
    for _ in range(40):  # the computer splits and deploys; alice splits and deploys
        c = Campaign.objects.get(pk=c.pk)
        if c.to_move == "french":
            campaign_tasks.bot_move(c.pk, c.seq)
            continue
        from campaigns import selectors

        cv = selectors.campaign_view(c, alice)
        if cv["view"]["boards"]["quatre-bras"]["phase"] != "deploy":
            break
        campaigns.act(c.pk, alice, c.seq, choose_campaign(cv["legal_actions"], cv["view"]))
    for width in (1280, 390):
        page = logged_in_page
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/campaigns/{c.pk}/")
        expect(page.get_by_test_id("board-quatre-bras")).to_be_visible()
        assert page.evaluate(NO_OVERFLOW), width
        _shot(page, f"campaign-{width}.png")
