"""The order "Fire with every ready card (each at its suggested target)" (issue 28:
``play.passing.fire_order``) in Chromium, on the campaign page and on the battle page (the
shared frame's ``_sections.html`` and ``_passing.html``): the button sits in the fire
section, each ready card's suggested target is marked in the fire list, one click fires the
first card without a reload and shows "Stop firing for me"; the computer answers each fire
(the test stands in for the Celery worker) and the order fires the rest, the log saying it
was the player's order; "Stop firing for me" cancels it.

Both games are played through the services (the newcomer policy, tests/newcomer_policy.py)
up to the first French decision where two cards or more can fire."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from battles import services as battle_services
from battles.engine import from_json, legal_actions, view
from battles.models import Battle
from battles.setup import engine_cards
from campaigns import selectors, services
from campaigns.models import Campaign
from frontend.campaigns.views import action_warning, cards_of

from ..kinds import battle_tasks, campaign_tasks
from ..newcomer_policy import choose, choose_campaign

FIRED_FOR_YOU = "fired for you, your order"


@pytest.fixture
def worker(monkeypatch):
    campaign_tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    battle_tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)


def _ready(legal: list[dict]) -> int:
    return len({a["piece"] for a in legal if a["type"] == "fire"})


def _drive_campaign(c: Campaign, user: User, stop: Callable[[list[dict]], bool]) -> None:
    for _ in range(2000):
        c.refresh_from_db()
        assert c.status == "active", "the campaign ended first: pick another seed"
        if c.to_move != "french":
            assert campaign_tasks.bot_move(c.pk, c.seq) >= 1
            continue
        cv = selectors.campaign_view(c, user)
        legal = cv["legal_actions"]
        if stop(legal):
            return
        cards = cards_of(c)
        warned = [a for a in legal if action_warning(cv, a, cards)]
        services.act(c.pk, user, c.seq, dict(choose_campaign(legal, cv["view"], warned)))
    raise AssertionError("never reached")


def _drive_battle(b: Battle, user: User, stop: Callable[[list[dict]], bool]) -> None:
    for _ in range(2000):
        b.refresh_from_db()
        assert b.status == "active", "the battle ended first: pick another seed"
        if battle_services.priority(b) != "french":
            assert battle_tasks.bot_move(b.pk, b.seq) >= 1
            continue
        state = from_json(b.state, engine_cards(b))
        legal = legal_actions(state, "french")
        if stop(legal):
            return
        battle_services.act(b.pk, user, b.seq, dict(choose(legal, view(state, "french"))))
    raise AssertionError("never reached")


def _order_on_the_page(page, match, url: str, dom_id: str, ready: int,
                       computer: Callable[[], None]) -> None:
    page.route(f"**{url}", lambda route: route.fulfill(response=route.fetch()))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(url)
    play = page.get_by_test_id(dom_id)
    expect(play).to_have_attribute("data-seq", str(match.seq))
    page.evaluate("window.eaglesMarker = 'still here'")
    attack = page.get_by_test_id("section-attack")
    expect(attack.get_by_test_id("suggested")).to_have_count(ready)  # one per ready card
    button = attack.get_by_test_id("fire-order")
    expect(button).to_have_text("Fire with every ready card (each at its suggested target)")
    expect(page.get_by_test_id("fire-order-off")).to_have_count(0)
    seq = match.seq
    button.click()
    expect(play).not_to_have_attribute("data-seq", str(seq))
    assert page.evaluate("window.eaglesMarker") == "still here"  # no reload: htmx
    expect(page.get_by_test_id("fire-order-off")).to_be_visible()  # "Stop firing for me"
    first = match.actions.get(seq=seq + 1)
    assert (first.side, first.action["type"], first.auto) == ("french", "fire", False)
    computer()  # the computer answers each fire; the order fires the next card
    assert match.actions.filter(side="french", auto_reason="order").exists()
    page.goto(url)
    expect(page.get_by_test_id("log")).to_contain_text(FIRED_FOR_YOU)
    expect(page.get_by_test_id("section-attack")).to_have_count(0)  # every card fired
    page.get_by_test_id("fire-order-off").click()
    expect(page.get_by_test_id("fire-order-off")).to_have_count(0)
    match.refresh_from_db()
    assert "fire" not in match.pass_choices["french"]


def test_fire_with_every_ready_card_on_the_campaign_page(logged_in_page, worker, monkeypatch):
    monkeypatch.setattr(services, "new_seed", lambda: 4)
    alice = User.objects.get(username="alice")
    c = services.create_campaign(alice, "french", bot="random")
    _drive_campaign(c, alice, lambda legal: _ready(legal) >= 2)
    ready = _ready(selectors.campaign_view(c, alice)["legal_actions"])

    def computer() -> None:
        for _ in range(200):
            c.refresh_from_db()
            if c.to_move == "french":
                return
            assert campaign_tasks.bot_move(c.pk, c.seq) >= 1

    _order_on_the_page(logged_in_page, c, f"/campaigns/{c.pk}/", "campaign-play", ready,
                       computer)


def test_fire_with_every_ready_card_on_the_battle_page(logged_in_page, worker, monkeypatch):
    monkeypatch.setattr(battle_services, "new_seed", lambda: 4)
    alice = User.objects.get(username="alice")
    b = battle_services.create_battle(alice, "ligny", "french", bot="random")
    _drive_battle(b, alice, lambda legal: _ready(legal) >= 2)
    ready = _ready(legal_actions(from_json(b.state, engine_cards(b)), "french"))

    def computer() -> None:
        for _ in range(200):
            b.refresh_from_db()
            if battle_services.priority(b) == "french":
                return
            assert battle_tasks.bot_move(b.pk, b.seq) >= 1

    _order_on_the_page(logged_in_page, b, f"/battles/{b.pk}/", "battle-play", ready, computer)


def test_pass_and_do_not_ask_me_about_this_kind_again(logged_in_page, worker, monkeypatch):
    """The per-kind choice as a button beside Pass (``play.passing.pass_and_skip_kind``):
    one click passes the window without a reload and unticks its kind under "When to ask
    you to answer"."""
    from battles import modules

    monkeypatch.setattr(services, "new_seed", lambda: 4)
    alice = User.objects.get(username="alice")
    c = services.create_campaign(alice, "french", bot="random")
    _drive_campaign(c, alice, lambda legal: any(a["type"] == "pass" for a in legal))
    kind = modules.CAMPAIGN.response_kind(services.replay(c), "french")
    page = logged_in_page
    url = f"/campaigns/{c.pk}/"
    page.route(f"**{url}", lambda route: route.fulfill(response=route.fetch()))
    page.goto(url)
    play = page.get_by_test_id("campaign-play")
    expect(play).to_have_attribute("data-seq", str(c.seq))
    page.evaluate("window.eaglesMarker = 'still here'")
    button = page.get_by_test_id("pass-kind")
    expect(button).to_contain_text("Pass, and do not ask me about enemy")
    seq = c.seq
    button.click()
    expect(play).not_to_have_attribute("data-seq", str(seq))
    assert page.evaluate("window.eaglesMarker") == "still here"  # no reload: htmx
    c.refresh_from_db()
    assert c.pass_choices["french"]["skip"] == [kind]
    mine = c.actions.get(seq=seq + 1)
    assert (mine.side, mine.action["type"], mine.auto) == ("french", "pass", False)
    expect(page.get_by_test_id(f"ask-{kind}")).not_to_be_checked()
