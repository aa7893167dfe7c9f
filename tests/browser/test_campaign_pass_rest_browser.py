""""Pass for the rest of this enemy turn" and the choice of which response windows to be
asked in, on the campaign page (issue 28, "Pass after Pass"): alice (the Allies, holding
Specials that could answer) is asked whether to answer the French computer's fire; one click
on "Pass for the rest of this enemy turn" passes (no reload: htmx) and every further window
of that turn is passed for her, the log saying it was her choice; then she unticks every kind
of window in "When to ask you to answer" and is not asked again, the log saying why.

The campaign is played through the service up to the first window (as in
test_campaign_browser.py the test stands in for the worker); the page shows it and takes
the clicks.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import modules
from campaigns import selectors, services
from campaigns.models import Campaign

from ..kinds import campaign_tasks as tasks
from .test_campaign_contradictions_browser import ANSWERS, drive, pools  # noqa: F401

CHOSEN_TURN = "You passed automatically: you chose to pass for the rest of this turn"
CHOSEN_KIND = "You passed automatically: you chose not to be asked about enemy"


def window(c: Campaign, legal) -> bool:
    return len(legal) > 1 and any(a["type"] == "pass" for a in legal)


def test_pass_for_the_rest_of_the_turn_and_the_windows_to_be_asked_in(
        logged_in_page, pools, monkeypatch):  # noqa: F811
    pools["allied"] = sorted(set(pools["allied"] + ANSWERS))
    # a seed where windows with an answer come up twice in one enemy turn (as
    # tests/test_campaign_pass_choices.py's)
    monkeypatch.setattr(services, "new_seed", lambda: 2)
    page = logged_in_page
    alice = User.objects.get(username="alice")
    c = services.create_campaign(alice, "allied", bot="greedy", settings={"turn_cap": 4})
    page.route(f"**/campaigns/{c.pk}/", lambda route: route.fulfill(response=route.fetch()))
    rng = random.Random(1)
    drive(c, alice, "allied", window, rng)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"/campaigns/{c.pk}/")
    play = page.get_by_test_id("campaign-play")
    expect(play).to_have_attribute("data-seq", str(c.seq))
    for width in (390, 1280):  # the window fits a phone and a desktop (screenshots)
        page.set_viewport_size({"width": width, "height": 900})
        expect(page.get_by_test_id("pass-rest")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), width
        if os.environ.get("EAGLES_SCREENSHOTS"):
            Path(os.environ["EAGLES_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
            page.screenshot(full_page=True, path=f"{os.environ['EAGLES_SCREENSHOTS']}/"
                                                 f"campaign-window-{width}.png")
    page.evaluate("window.eaglesMarker = 'still here'")
    rest = page.get_by_test_id("pass-rest")
    expect(rest).to_have_text("Pass for the rest of this enemy turn")
    rest.click()
    expect(play).not_to_have_attribute("data-seq", str(c.seq))
    assert page.evaluate("window.eaglesMarker") == "still here"  # no reload
    c.refresh_from_db()
    assert c.pass_choices["allied"]["turn"]
    mine = c.actions.filter(side="allied").order_by("-seq").first()
    assert mine.action["type"] == "pass" and not mine.auto  # her own click
    # the computer plays on; the rest of that turn's windows are passed for her
    for _ in range(200):
        c.refresh_from_db()
        if c.actions.filter(auto_reason="turn").exists() or c.status != "active":
            break
        if c.to_move == "french":
            assert tasks.bot_move(c.pk, c.seq) >= 1
        else:
            legal = selectors.campaign_view(c, alice)["legal_actions"]
            services.act(c.pk, alice, c.seq,
                         rng.choice([a for a in legal if a["type"] != "retreat"]))
    assert c.actions.filter(auto_reason="turn", auto=True, side="allied").exists()
    expect(page.get_by_test_id("log")).to_contain_text(CHOSEN_TURN, timeout=10_000)
    # the standing choice: she is asked about nothing any more
    c.refresh_from_db()
    if c.to_move != "allied":
        drive(c, alice, "allied", lambda c, legal: True, rng)
    page.goto(f"/campaigns/{c.pk}/")
    passing = page.get_by_test_id("passing")
    passing.locator("summary").click()
    for kind in modules.RESPONSE_KINDS:
        passing.get_by_test_id(f"ask-{kind}").uncheck()
    page.evaluate("window.eaglesMarker = 'still here'")
    passing.get_by_test_id("passing-save").click()
    expect(page.get_by_test_id("passing").locator("summary")).to_contain_text(
        "4 kinds passed for you")
    assert page.evaluate("window.eaglesMarker") == "still here"
    c.refresh_from_db()
    assert c.pass_choices["allied"]["skip"] == list(modules.RESPONSE_KINDS)
    for _ in range(3000):
        c.refresh_from_db()
        if c.status != "active" or c.actions.filter(auto_reason__startswith="skip:").exists():
            break
        if c.to_move == "french":
            assert tasks.bot_move(c.pk, c.seq) >= 1
            continue
        legal = selectors.campaign_view(c, alice)["legal_actions"]
        assert not any(a["type"] == "pass" for a in legal), "asked again"
        services.act(c.pk, alice, c.seq, rng.choice([a for a in legal if a["type"] != "retreat"]))
    assert c.actions.filter(auto_reason__startswith="skip:", auto=True).exists()
    page.goto(f"/campaigns/{c.pk}/")
    expect(page.get_by_test_id("log")).to_contain_text(CHOSEN_KIND)

