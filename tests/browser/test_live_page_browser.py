"""The whole game page follows the game (issue 28): the creator of an open battle sees the
opponent's name and gets Resign when someone joins, without reloading; and the menu's
"Your move (1)" badge and the tab title's "(1)" follow the turn and go when the battle ends."""

import re

from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import selectors, services
from play import autoplay


def test_the_header_and_the_badge_follow_the_battle(logged_in_page, monkeypatch):
    monkeypatch.setattr(autoplay, "extend", lambda *args, **kwargs: 0)
    alice = User.objects.get(username="alice")
    bob = User.objects.create_user("bob", password="s3cret-pass-1815")
    b = services.create_battle(alice, "quatre-bras", "allied", opponent="open")
    page = logged_in_page
    page.goto(f"/battles/{b.pk}/")
    page.evaluate("window.eaglesMarker = 'still here'")
    expect(page.get_by_test_id("no-position")).to_be_visible()
    expect(page.get_by_test_id("resign")).to_have_count(0)

    services.join_battle(b.pk, bob)  # bob takes the other seat, elsewhere
    expect(page.get_by_test_id("opponent")).to_have_text("bob", timeout=15_000)
    expect(page.get_by_test_id("resign")).to_be_visible()
    expect(page.get_by_test_id("your-move-badge")).to_have_text("Your move (1)")
    expect(page).to_have_title(re.compile(r"^\(1\) "))

    # the turn changes elsewhere (alice's other tab, then bob): the title follows, no reload
    play_until_not_mine(b, alice)
    expect(page.get_by_test_id("your-move-badge")).to_have_count(0, timeout=15_000)
    expect(page).not_to_have_title(re.compile(r"^\(\d+\) "))
    play_until_not_mine(b, bob)
    expect(page.get_by_test_id("your-move-badge")).to_have_text("Your move (1)",
                                                                timeout=15_000)
    expect(page).to_have_title(re.compile(r"^\(1\) "))

    services.resign(b.pk, bob)  # the battle ends, elsewhere
    expect(page.get_by_test_id("battle-play")).to_have_attribute("data-status", "finished",
                                                                 timeout=15_000)
    expect(page.get_by_test_id("your-move-badge")).to_have_count(0)
    expect(page).not_to_have_title(re.compile(r"^\(\d+\) "))
    assert "Eagles Online" in page.title()
    expect(page.get_by_test_id("resign")).to_have_count(0)
    assert page.evaluate("window.eaglesMarker") == "still here"  # no reload


def play_until_not_mine(b, user) -> None:
    """``user`` plays (first legal action each time, through the service) until the move is
    the opponent's."""
    for _ in range(80):
        b.refresh_from_db()
        bv = selectors.battle_view(b, user)
        if bv["waiting_for"] != "you":
            return
        services.act(b.pk, user, bv["seq"], bv["legal_actions"][0])
    raise AssertionError("still my move")
