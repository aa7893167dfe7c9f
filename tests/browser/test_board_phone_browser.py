"""At 390 px the selected card's actions sit next to it (issue 28, "Keyboard"; board.js): on a
phone the action list comes below the whole board, so selecting a card of the Reserve or a
piece on the board docks the list (its actions only) just under that card, measured by
bounding boxes; "Show all actions" puts it back in its place. Clicking a docked action still
plays it through htmx."""

from __future__ import annotations

from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import services
from battles.models import Battle

from ..kinds import battle_tasks as tasks
from ..newcomer_policy import choose

NEXT_TO = 40  # px between the card's bottom and the top of its actions, at most


def _box(locator) -> dict:
    box = locator.bounding_box()
    assert box is not None
    return box


def _page_top(locator) -> float:
    return locator.evaluate("el => el.getBoundingClientRect().top + window.scrollY")


def _next_to(card, panel) -> None:
    c, a = _box(card), _box(panel)
    assert 0 <= a["y"] - (c["y"] + c["height"]) <= NEXT_TO, (c, a)
    assert a["x"] < c["x"] + c["width"] and c["x"] < a["x"] + a["width"], (c, a)  # overlap


def test_at_390_px_the_selected_cards_actions_sit_next_to_it(logged_in_page, monkeypatch):
    page = logged_in_page
    page.set_viewport_size({"width": 390, "height": 844})
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(services, "new_seed", lambda: 1815_0009)
    alice = User.objects.get(username="alice")
    b = services.create_battle(alice, "quatre-bras", "allied", bot="random")
    page.goto(f"/battles/{b.pk}/")
    panel = page.get_by_test_id("actions")
    # A card of the Reserve (deployment: the Allies first).
    card = page.locator(".b-reserve li.selectable").first
    undocked = _page_top(panel)
    card.locator("a").click()
    expect(page.get_by_test_id("filter-note")).to_be_visible()
    _next_to(card, panel)
    page.get_by_role("button", name="Show all actions").click()
    expect(page.get_by_test_id("filter-note")).to_have_count(0)
    assert abs(_page_top(panel) - undocked) < 2  # back in its place

    # A piece on the board, in alice's Combat Phase.
    for _ in range(60):
        b.refresh_from_db()
        bv = services.battle_view(b, alice)
        if bv["view"]["phase"] == "combat" and any(a.get("piece") for a in bv["legal_actions"]):
            break
        if bv["legal_actions"]:
            services.act(b.pk, alice, b.seq, choose(bv["legal_actions"], bv["view"]))
        else:
            tasks.bot_move(b.pk, b.seq)
    assert Battle.objects.get(pk=b.pk).status == "active"
    page.reload()
    piece = page.locator("[data-testid=board] svg .piece.selectable").first
    piece.click()
    expect(page.get_by_test_id("filter-note")).to_be_visible()
    _next_to(piece, panel)
    seq = page.get_by_test_id("battle-play").get_attribute("data-seq")
    panel.locator("form.b-act:visible button").first.click()
    page.wait_for_function("n => document.getElementById('battle-play').dataset.seq !== n || "
                           "document.querySelector('[data-testid=confirm-button]')", arg=seq)
