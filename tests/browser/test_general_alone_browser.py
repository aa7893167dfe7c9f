"""Issue 28: a General walked alone into an enemy Position is eliminated at once (12.4 NOTE).
The battle page asks first, with the loss warning's words, before the move is played; the
API and websocket side: tests/test_action_warnings.py (whose position this is)."""

import json

from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import selectors, services
from battles.kind import save_state
from battles.models import Battle

from ..engine.helpers import BR_INF, FR_INF, REILLE, blank, put
from .test_game_page_actions_browser import quiet  # noqa: F401 - a fixture


def general_alone_position(user) -> tuple[Battle, int]:
    """alice (French) in her Combat Phase: Reille and a brigade in her Centre, a British
    brigade in the enemy Centre; returns the battle and Reille's piece."""
    b = services.create_battle(user, "waterloo", "french", bot="random")
    st = blank(active="french")
    put(st, FR_INF, "french_center")
    general = put(st, REILLE, "french_center")
    put(st, BR_INF, "allied_center")
    b.save(update_fields=save_state(b, st))
    return b, general.pid


def test_the_page_warns_before_a_general_walks_alone_into_an_enemy_position(
        logged_in_page, live_server, quiet):  # noqa: F811 - the fixture imported above
    page = logged_in_page
    b, general = general_alone_position(User.objects.get(username="alice"))
    page.goto(f"/battles/{b.pk}/")
    play = page.get_by_test_id("battle-play")
    seq = int(play.get_attribute("data-seq"))
    move = page.locator("[data-testid=actions] form.b-act").filter(
        has=page.locator(f"input[name=action][value*='\"piece\":{general}']")).filter(
        has=page.locator("input[name=action][value*='\"to\":\"allied_center\"']"))
    expect(move).to_have_count(1)
    action = json.loads(move.locator("input[name=action]").get_attribute("value"))
    assert action["type"] == "move"
    assert move.get_attribute("data-warn") == "1"  # the page knows it asks
    move.locator("[data-testid=action]").click()
    # asked first: the move is not played yet, and the question says why
    question = page.get_by_test_id("confirm")
    expect(question).to_be_visible()
    expect(question).to_contain_text("General alone into the enemy Centre")
    expect(question).to_contain_text("12.4")
    expect(page.get_by_test_id("confirm-button")).to_be_focused()
    assert int(play.get_attribute("data-seq")) == seq
    assert on_the_board(b, general)
    # "No, choose again": nothing happened
    page.get_by_test_id("confirm-cancel").click()
    expect(page.get_by_test_id("confirm")).to_have_count(0)
    assert int(play.get_attribute("data-seq")) == seq
    # answered yes, the move is played and the General is lost (12.4)
    move.locator("[data-testid=action]").click()
    page.get_by_test_id("confirm-button").click()
    expect(play).to_have_attribute("data-seq", str(seq + 1))
    assert not on_the_board(b, general)


def on_the_board(b: Battle, piece: int) -> bool:
    b.refresh_from_db()
    seen = selectors.battle_view(b, b.french_player)
    return any(p.get("piece") == piece for p in seen["view"]["pieces"])
