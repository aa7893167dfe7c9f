"""Replays (issue 28): a replay opens at its first step, where "Next" leads on; a battle
ended by a resignation has that resignation as its last step; and with no dice rolled the
fair-dice check says so instead of "they match"."""

from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import services
from play import autoplay, enqueue


def test_a_resigned_battle_replays_from_the_start_to_the_resignation(logged_in_page,
                                                                      monkeypatch):
    monkeypatch.setattr(enqueue, "send_bot_move", lambda *args: None)  # no worker here
    monkeypatch.setattr(autoplay, "extend", lambda *args, **kwargs: 0)
    alice = User.objects.get(username="alice")
    b = services.create_battle(alice, "quatre-bras", "allied", bot="random")
    legal = services.battle_view(b, alice)["legal_actions"]
    services.act(b.pk, alice, b.seq, next(a for a in legal if a["type"] == "deploy"))
    services.resign(b.pk, alice)

    page = logged_in_page
    page.goto(f"/battles/{b.pk}/replay/")
    expect(page.get_by_test_id("step")).to_have_text("0")
    page.get_by_test_id("next").click()
    expect(page.get_by_test_id("step")).to_have_text("1")
    expect(page.get_by_test_id("step-action")).to_contain_text("Deploy")
    page.get_by_test_id("next").click()
    expect(page.get_by_test_id("step")).to_have_text("2")  # the resignation is a step
    expect(page.get_by_test_id("step-action")).to_have_text("You resigned")
    expect(page.get_by_test_id("board")).to_be_visible()
    page.get_by_test_id("last").click()
    expect(page.get_by_test_id("step")).to_have_text("2")
    sentence = page.get_by_test_id("dice-sentence")
    expect(sentence).to_contain_text("No dice were rolled")
    expect(sentence).not_to_contain_text("they match")
    page.get_by_test_id("viewpoint-all").click()
    expect(page.get_by_test_id("step-action")).to_have_text("The Allies resigned")
