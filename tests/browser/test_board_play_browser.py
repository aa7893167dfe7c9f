"""Playing on the board in the browser (static/frontend/board.js): alice selects a card of her
Reserve, its Positions light up and the action list shows only its actions; a click on a lit
Position deploys it (through htmx, no reload), and the card stands there on the new board."""

import os
import re
from pathlib import Path

from playwright.sync_api import expect

from battles import services
from battles.models import Battle

from ..kinds import battle_tasks as tasks


def test_select_a_card_see_its_targets_lit_and_play_by_clicking_one(logged_in_page,
                                                                    monkeypatch):
    page = logged_in_page
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    from django.contrib.auth.models import User

    b = services.create_battle(User.objects.get(username="alice"), "quatre-bras", "allied",
                               bot="greedy")  # 4.1: the Allies deploy first: alice's move
    page.goto(f"/battles/{b.pk}/")
    page.evaluate("window.eaglesMarker = 'still here'")
    # a Reserve card whose plain action goes to a place (a deploy in Line)
    key, target = page.evaluate("""() => {
        const f = document.querySelector(
          'form.b-act[data-select^="card:"][data-target^="place:"][data-plain]');
        return [f.dataset.select, f.dataset.target]; }""")
    n_mine = page.locator(f'form.b-act[data-select="{key}"]').count()
    card = page.locator(f'.b-reserve li[data-select="{key}"]')
    card.locator("a").click()  # the card's name selects it (Ctrl-click: its page)
    expect(card).to_have_class("army-british selectable selected")
    assert len(page.context.pages) == 1  # selected, not opened in a new tab
    place = target.split(":", 1)[1]
    lit = page.locator(f'[data-testid=board] svg .position[data-place="{place}"]')
    expect(lit).to_have_class("position lit")
    assert page.locator("form.b-act:visible").count() == n_mine  # the list shows its actions
    expect(page.get_by_test_id("filter-note")).to_be_visible()
    if os.environ.get("EAGLES_SCREENSHOTS"):
        Path(os.environ["EAGLES_SCREENSHOTS"]).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{os.environ['EAGLES_SCREENSHOTS']}/board-selected.png",
                        full_page=True)
    # a click on the lit Position plays the plain deploy there
    lit.click(position={"x": 30, "y": 8})  # the Position's name, a text inside it
    expect(page.get_by_test_id("battle-play")).to_have_attribute("data-seq", "1")
    assert page.evaluate("window.eaglesMarker") == "still here"  # htmx, no reload
    row = Battle.objects.get(pk=b.pk).actions.get(seq=1)
    assert row.action["type"] == "deploy" and row.action["to"] == place
    assert f"card:{row.action['card']}" == key
    assert page.locator(f'[data-testid=board] svg .position[data-place="{place}"] '
                        f'.piece[data-side="allied"]').count() >= 1
    # the keyboard: Enter on a Reserve card selects it, Escape clears; the list is whole again
    other = page.locator(".b-reserve li.selectable").first
    other.focus()
    page.keyboard.press("Enter")
    expect(other).to_have_class(re.compile(r"\bselected\b"))
    expect(page.get_by_test_id("filter-note")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("filter-note")).to_have_count(0)
