"""Undo and the replay page in the browser (issue 12): alice deploys a card, takes it back
with the Undo button (through htmx: no reload), then replays a finished battle: steps
forward, switches to all cards, and reads the dice check. The page fixture fails the test
on any Content-Security-Policy violation."""

import json
import random

from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import services
from battles.engine import from_json, legal_actions
from cards.catalogue.file import catalogue_records

from ..kinds import battle_tasks as tasks
from ..test_battle_replay import play as play_battle


def test_undo_button_and_replay_page(logged_in_page, live_server, monkeypatch):
    page = logged_in_page
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    alice = User.objects.get(username="alice")
    b = services.create_battle(alice, "quatre-bras", "allied", bot="random")  # Allies first
    page.goto(f"/battles/{b.pk}/")
    page.evaluate("window.eaglesMarker = 'still here'")
    play = page.get_by_test_id("battle-play")
    expect(page.get_by_test_id("undo")).to_have_count(0)
    state = from_json(b.state, cards=catalogue_records())
    troop = next(a for a in legal_actions(state, "allied") if a["type"] == "deploy"
                 and state.cards[a["card"]].kind in ("infantry", "cavalry", "artillery"))
    value = json.dumps(troop, separators=(",", ":"))
    page.locator(f"form:has(input[name=action][value='{value}']) button").click()
    expect(play).to_have_attribute("data-seq", "1")
    page.get_by_test_id("undo").click()
    expect(play).to_have_attribute("data-seq", "2")
    expect(page.get_by_test_id("log-line").last).to_contain_text(
        "You took back your last action (#1)")
    expect(page.get_by_test_id("undo")).to_have_count(0)
    assert page.evaluate("window.eaglesMarker") == "still here"

    monkeypatch.setattr(services, "new_seed", lambda: 1815061818150618171)
    done = services.create_battle(alice, "quatre-bras", "french", bot="greedy",
                                  settings={"turn_cap": 6})
    done = play_battle(done, alice, random.Random("replay"))
    page.goto(f"/battles/{done.pk}/")
    page.get_by_test_id("replay-link").click()
    expect(page.get_by_test_id("dice-sentence")).to_contain_text(
        f"re-derived from the revealed seed {done.seed}: they match")
    page.get_by_test_id("first").click()
    expect(page.get_by_test_id("step")).to_have_text("0")
    page.get_by_test_id("next").click()
    expect(page.get_by_test_id("step")).to_have_text("1")
    page.get_by_test_id("viewpoint-all").click()
    expect(page.get_by_test_id("viewpoint")).to_have_text("All cards")
    expect(page.get_by_test_id("step")).to_have_text("1")
    turn2 = page.get_by_test_id("turn-select").locator("option", has_text="Turn 2")
    first_step_of_turn_2 = turn2.get_attribute("value")
    page.get_by_test_id("turn-select").select_option(label="Turn 2")
    page.get_by_role("button", name="Go").click()
    expect(page.get_by_test_id("step")).to_have_text(first_step_of_turn_2)
    expect(page.get_by_test_id("viewpoint")).to_have_text("All cards")  # kept
    assert first_step_of_turn_2 != "1"
    expect(page.get_by_test_id("board").locator("svg")).to_be_visible()
