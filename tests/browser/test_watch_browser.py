"""Finding things (issue 28): a visitor who is not logged in finds the public games under way
(a battle, a campaign, a Stratego: Waterloo game) from the home page and from the games lists
that need an account, and watches one; a private game is listed nowhere; the home page
mentions the Campaign Game."""

from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import services as battle_services
from campaigns import services as campaign_services
from online.stratego import services as stratego_services
from play import enqueue


def test_a_visitor_finds_and_watches_the_games_under_way(page, live_server, monkeypatch):
    monkeypatch.setattr(enqueue, "send_bot_move", lambda *args: None)  # no worker here
    ney = User.objects.create_user("ney", password="s3cret-pass-1815")
    b = battle_services.create_battle(ney, "ligny", "french", bot="random")
    hidden = battle_services.create_battle(ney, "wavre", "french", bot="random", public=False)
    c = campaign_services.create_campaign(ney, "french", bot="random")
    m = stratego_services.create_game(ney, "allied", bot="random")

    page.goto("/")
    expect(page.get_by_test_id("campaign-game")).to_contain_text("Campaign Game")
    on = page.get_by_test_id("on-now")
    expect(on.get_by_test_id(f"on-battles-{b.pk}")).to_contain_text("Ligny")
    expect(on.get_by_test_id(f"on-battles-{b.pk}")).to_contain_text("ney (French)")
    expect(on.get_by_test_id(f"on-campaigns-{c.pk}")).to_be_visible()
    expect(on.get_by_test_id(f"on-stratego-{m.pk}")).to_be_visible()
    expect(on.get_by_test_id(f"on-battles-{hidden.pk}")).to_have_count(0)

    # the battles list needs an account: a visitor sees what is on instead of a log-in form
    for path in ("/battles/", "/campaigns/", "/stratego/", "/lobby/"):
        page.goto(path)
        assert page.url.endswith(path), page.url
        expect(page.get_by_test_id("login-to-play")).to_be_visible()
        expect(page.get_by_test_id(f"on-battles-{b.pk}")).to_be_visible()
        expect(page.get_by_test_id(f"on-battles-{hidden.pk}")).to_have_count(0)

    page.get_by_test_id(f"on-battles-{b.pk}").get_by_role("link").click()
    page.wait_for_url(f"**/battles/{b.pk}/watch/")
    expect(page.get_by_test_id("board")).to_be_visible()
    page.goto("/watch/")
    page.get_by_test_id(f"on-campaigns-{c.pk}").get_by_role("link").click()
    page.wait_for_url(f"**/campaigns/{c.pk}/")
    page.goto("/watch/")
    page.get_by_test_id(f"on-stratego-{m.pk}").get_by_role("link").click()
    page.wait_for_url(f"**/stratego/{m.pk}/")
