"""The whole game page follows the game (issue 28): the creator of an open battle sees the
opponent's name and gets Resign when someone joins, without reloading; and the menu's
"Your move (1)" badge goes when the battle ends."""

from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import services
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

    services.resign(b.pk, bob)  # the battle ends, elsewhere
    expect(page.get_by_test_id("battle-play")).to_have_attribute("data-status", "finished",
                                                                 timeout=15_000)
    expect(page.get_by_test_id("your-move-badge")).to_have_count(0)
    expect(page.get_by_test_id("resign")).to_have_count(0)
    assert page.evaluate("window.eaglesMarker") == "still here"  # no reload
