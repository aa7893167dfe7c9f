"""Every game page's actions (issue 28): the finish button ("Deployment done", "End the
Combat Phase"...) comes last in the action list, and after each action the keyboard focus
goes to the next sensible action, never to a finish: Enter twice does not end a turn."""

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import selectors, services
from game import ENDING_ACTIONS
from play import autoplay

from ..kinds import battle_tasks as tasks


@pytest.fixture
def quiet(monkeypatch):
    """Computer moves played here, by the test (none sent to a worker); no auto-play."""
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(autoplay, "extend", lambda *args, **kwargs: 0)
    monkeypatch.setattr(services, "new_seed", lambda: 1815061818150618176)


def in_combat_with_a_choice(user):
    """A battle against the computer, played by the service until alice (Allied) is in her
    Combat Phase with actions to take and "End the Combat Phase" among them."""
    b = services.create_battle(user, "quatre-bras", "allied", bot="random")
    for _ in range(60):
        bv = selectors.battle_view(b, user)
        types = {a["type"] for a in bv["legal_actions"]}
        if bv["waiting_for"] == "computer":
            tasks.bot_move(b.pk, bv["seq"])
        elif "end_phase" in types and types - set(ENDING_ACTIONS):
            return b
        else:
            legal = bv["legal_actions"]
            services.act(b.pk, user, bv["seq"],
                         next((a for a in legal if a["type"] == "deploy"), legal[0]))
        b.refresh_from_db()
    raise AssertionError("no Combat Phase with a choice")


def test_finish_comes_last_and_never_takes_the_focus(logged_in_page, live_server, quiet):
    page = logged_in_page
    b = in_combat_with_a_choice(User.objects.get(username="alice"))
    page.goto(f"/battles/{b.pk}/")
    sections = page.get_by_test_id("actions").locator(".b-section")
    assert sections.count() >= 2
    assert sections.last.get_attribute("data-testid") == "section-finish"
    buttons = page.get_by_test_id("actions").get_by_test_id("action")
    assert buttons.last.get_attribute("data-type") in ENDING_ACTIONS
    assert buttons.first.get_attribute("data-type") not in ENDING_ACTIONS

    seq = b.seq
    play = page.get_by_test_id("battle-play")
    page.locator("[data-testid=action][data-type=change_formation]").first.click()
    expect(play).to_have_attribute("data-seq", str(seq + 1))
    # play.js moves the focus once htmx has settled the swap (htmx:afterSettle, a few ms after
    # the new seq is in the page): wait for that, not for the swap alone
    page.wait_for_function("document.activeElement && document.activeElement !== document.body")
    focused = page.evaluate("[document.activeElement.dataset.testid || document.activeElement.id,"
                            " document.activeElement.dataset.type]")
    assert focused[0] in ("action", "actions-title"), focused
    assert focused[1] not in ENDING_ACTIONS, focused
    # Enter twice: never the end of the Combat Phase
    for _ in range(2):
        if page.evaluate("document.activeElement.dataset.testid") != "action":
            break
        before = int(play.get_attribute("data-seq"))
        page.keyboard.press("Enter")
        page.wait_for_function(
            "n => +document.getElementById('battle-play').dataset.seq > n || "
            "document.querySelector('[data-testid=confirm-button]')", arg=before)
        if page.get_by_test_id("confirm-button").count():
            break  # a risky move asks first: the question has the focus, not a finish
        assert page.evaluate("document.activeElement.dataset.type") not in ENDING_ACTIONS
    b.refresh_from_db()
    log = selectors.battle_view(b, b.allied_player)["log"]
    assert "end_phase" not in [e.get("type") for e in log if e.get("side") == "allied"]


def test_the_keyboard_reaches_the_moves_in_a_few_keys(logged_in_page, live_server, quiet):
    """Issue 28, "Keyboard": 32 Tabs to the first action on a game page (20 in a Combat Phase
    with the main skip link alone: every piece on the board takes the focus first). The
    second skip link goes to the moves: Tab, Tab, Enter, then the next Tab is on an action."""
    page = logged_in_page
    b = in_combat_with_a_choice(User.objects.get(username="alice"))
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/battles/{b.pk}/")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.testid") == "skip-link"
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.testid") == "skip-to-actions"
        expect(page.get_by_test_id("skip-to-actions")).to_be_visible()  # seen with the focus
        expect(page.get_by_test_id("skip-to-actions")).to_have_text("Skip to your moves")
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "actions-title"
        page.keyboard.press("Tab")
        focused = page.evaluate("[document.activeElement.dataset.testid,"
                                " document.activeElement.dataset.type]")
        assert focused[0] == "action" and focused[1] not in ENDING_ACTIONS, focused


def test_the_board_and_each_rule_number_lead_to_how_to_play(logged_in_page, live_server,
                                                            quiet):
    """Issue 28, "Learning the game": how to play is linked from the board and from each
    group of actions' rule number; each rule link lands on a section of /learn/ that exists."""
    page = logged_in_page
    b = in_combat_with_a_choice(User.objects.get(username="alice"))
    page.goto(f"/battles/{b.pk}/")
    links = page.get_by_test_id("actions").get_by_test_id("rule-link")
    assert links.count() >= 1
    targets = {links.nth(i).get_attribute("href") for i in range(links.count())}
    assert all(t.startswith("/learn/#") for t in targets), targets
    page.get_by_test_id("legend").locator("summary").click()
    page.get_by_test_id("how-to-play-link").click()
    page.wait_for_url("**/learn/")
    expect(page.get_by_test_id("how-to-play")).to_be_visible()
    for target in sorted(targets):
        page.goto(target)
        anchor = target.split("#", 1)[1]
        expect(page.locator(f"[id='{anchor}']")).to_be_visible()
