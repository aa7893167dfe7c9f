"""Stratego: Waterloo in the browser against the computer: alice starts a game from the
Stratego page (the French; the computer, the Allies, sets up first while her page polls),
swaps two pieces in the set-up editor, then takes the random set-up; the computer opens the
battle; she selects a piece on the board, its moves light up, and she plays moves by
clicking lit squares, the computer answering; the page has no horizontal overflow at
390 px. As the other browser tests, the test stands in for the Celery worker (it runs
``play.bot_move`` itself) and routes the page's polls through this thread."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from online.stratego.models import StrategoMatch
from play import opening

from ..kinds import KindTasks

tasks = KindTasks("stratego")
NO_OVERFLOW = "document.documentElement.scrollWidth <= innerWidth"


@pytest.fixture
def worker(monkeypatch):
    asked: list[tuple[int, int]] = []
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: asked.append(args))
    monkeypatch.setattr(opening, "new_seed", lambda: 1815)
    return asked


def computer_plays(page, m: StrategoMatch) -> None:
    """The worker's turn for the computer; the page picks it up by itself."""
    assert tasks.bot_move(m.pk, m.seq) >= 1
    expect(page.get_by_test_id("stratego-game-play")).not_to_have_attribute(
        "data-seq", str(m.seq), timeout=10_000)


def test_alice_sets_up_and_plays_against_the_computer(logged_in_page, live_server, worker):
    page = logged_in_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/")
    page.get_by_role("link", name="Stratego").first.click()
    page.wait_for_url("**/stratego/")
    page.select_option("#ng-side", "french")
    page.select_option("#ng-bot", "random")
    page.get_by_test_id("create-game").click()
    page.wait_for_url("**/stratego/*/")
    m = StrategoMatch.objects.get()
    page.route(f"**/stratego/{m.pk}/", lambda route: route.fulfill(response=route.fetch()))
    assert worker == [(m.pk, 0)]
    expect(page.get_by_test_id("status-line")).to_contain_text("The Allied set up")
    computer_plays(page, m)
    # the set-up editor: click a piece, then another square: they swap
    expect(page.get_by_test_id("setup-board")).to_be_visible()
    before = json.loads(page.locator("#sw-placement").input_value())["placement"]
    page.locator('[data-piece][data-at="0,3"]').click()
    page.get_by_test_id("slot-r0").click(force=True)
    after = json.loads(page.locator("#sw-placement").input_value())["placement"]
    assert len(after) == len(before) - 1  # one piece went to the reserve tray
    assert page.evaluate(NO_OVERFLOW)
    page.get_by_test_id("random-setup").click()
    page.wait_for_load_state()
    m.refresh_from_db()
    assert m.phase == "play" and m.to_move == "allied"  # the Allies open the battle
    computer_plays(page, m)
    m.refresh_from_db()
    moves = 0
    for _ in range(12):
        m.refresh_from_db()
        if m.status != "active" or moves >= 4:
            break
        if m.to_move == "allied":
            computer_plays(page, m)
            continue
        expect(page.get_by_test_id("stratego-game-play")).to_have_attribute("data-seq",
                                                                           str(m.seq))
        picks = page.locator("a.pick")
        assert picks.count() > 0
        picks.first.click()
        page.wait_for_url("**?sel=*")
        expect(page.get_by_test_id("selected")).to_be_visible()
        targets = page.locator("a.target-link")
        if targets.count() == 0:
            page.get_by_test_id("section-finish").get_by_test_id("action").first.click()
        else:
            targets.first.click()
        page.wait_for_load_state()
        expect(page.get_by_test_id("stratego-game-play")).not_to_have_attribute(
            "data-seq", str(m.seq))
        moves += 1
    assert moves >= 3
    m.refresh_from_db()
    assert m.actions.filter(side="french").exclude(action__type="deploy").count() >= 3
    expect(page.get_by_test_id("board")).to_be_visible()
    expect(page.get_by_test_id("log")).to_contain_text("The Allied set up")
    expect(page.get_by_test_id("time-track")).to_contain_text("11:00")
    assert page.evaluate(NO_OVERFLOW), "horizontal overflow at 390 px"
    page.screenshot(path="/tmp/stratego-390.png", full_page=True)


def test_a_standard_game_against_the_computer_with_the_hand_at_390_px(
        logged_in_page, live_server, worker):
    """The Standard game's own controls in the browser (issue 26): alice starts a Standard
    game against the computer from the list page, sets up at random, drafts her four
    manoeuvre cards from the card choices (the computer drafting in turn), plays a card from
    her hand when her turn comes (a Fighting spirit: chosen, then its lit square clicked),
    sees the tiles drawn, and resigns: the game is over, its replay offered. No horizontal
    overflow at 390 px at any step."""
    page = logged_in_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/stratego/")
    page.select_option("#ng-side", "french")
    page.select_option("#ng-bot", "random")
    page.select_option("#ng-variant", "standard")
    page.get_by_test_id("create-game").click()
    page.wait_for_url("**/stratego/*/")
    m = StrategoMatch.objects.get()
    assert m.variant == "standard"
    page.route(f"**/stratego/{m.pk}/*", lambda route: route.fulfill(response=route.fetch()))
    computer_plays(page, m)  # the Allies set up
    page.get_by_test_id("random-setup").click()
    page.wait_for_load_state()
    for _ in range(12):  # the draft, turn about; then the computer opens the battle
        m.refresh_from_db()
        if m.to_move == "allied":
            computer_plays(page, m)
            continue
        picks = page.get_by_test_id("draft-pick")
        if not picks.count():
            break
        assert page.evaluate(NO_OVERFLOW), "horizontal overflow at 390 px (the draft)"
        picks.filter(has_text="Keep Fighting spirit").or_(picks).first.click()
        page.wait_for_load_state()
        expect(page.get_by_test_id("stratego-game-play")).not_to_have_attribute(
            "data-seq", str(m.seq))
    m.refresh_from_db()
    assert m.phase == "play" and m.to_move == "french"
    expect(page.get_by_test_id("stratego-game-play")).to_have_attribute("data-seq", str(m.seq))
    hand = page.get_by_test_id("hand")
    expect(hand.get_by_test_id("card")).to_have_count(4)
    expect(page.get_by_test_id("tile-hougoumont")).to_be_attached()
    assert page.evaluate(NO_OVERFLOW), "horizontal overflow at 390 px (the hand)"
    page.screenshot(path="/tmp/stratego-hand-390.png", full_page=True)
    played = False
    choose = hand.get_by_test_id("choose-card")
    if choose.count():  # a card played on a piece: chosen, then its square clicked
        choose.first.click()
        page.wait_for_url("**?card=*")
        expect(page.get_by_test_id("chosen-card")).to_be_visible()
        page.locator("a.target-link").first.click()
        played = True
    elif hand.get_by_test_id("play-card").count():
        hand.get_by_test_id("play-card").first.click()
        played = True
    assert played, "no card of the hand could be played at the start of the turn"
    page.wait_for_load_state()
    expect(page.get_by_test_id("stratego-game-play")).not_to_have_attribute(
        "data-seq", str(m.seq))
    m.refresh_from_db()
    assert m.actions.filter(side="french", action__type="card").count() == 1
    assert page.evaluate(NO_OVERFLOW), "horizontal overflow at 390 px (a card played)"
    page.get_by_test_id("resign").locator("summary").click()
    page.get_by_test_id("resign-confirm").click()
    page.wait_for_load_state()
    m.refresh_from_db()
    assert m.status == "finished" and m.outcome["winner"] == "allied"
    expect(page.get_by_test_id("outcome")).to_contain_text("The Allied win")
    expect(page.get_by_test_id("replay-link")).to_be_visible()
