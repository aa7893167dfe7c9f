"""The setting "end my phase or turn for me when that is all that is left" (issue 28;
``accounts.Preferences.end_for_me``, ``play.autoplay``, ``play.passing.end_for_me``): off by
default (the lone end stays a click); switched on by the page's button beside such a lone
end, which ends it as the player's own click; from then on a lone end of their own phase
or turn is played for them, recorded as their action, flagged with the reason "end" and said
so in the log; never anything else, never for the computer; undo and replays unchanged."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import preferences_of
from battles import modules, services
from battles.engine import from_json, legal_actions, to_json, view
from battles.kind import KIND
from battles.models import Battle, Status
from battles.setup import engine_cards
from config.errors import Conflict
from play import autoplay
from play import undo as undo_rules

from .kinds import battle_tasks as tasks
from .newcomer_policy import choose

pytestmark = pytest.mark.django_db
OWN = ("end_phase", "end_turn")


def _legal(b: Battle) -> list[dict]:
    return legal_actions(from_json(b.state, engine_cards(b)), "french")


def _play_until(b: Battle, user, stop, limit: int = 600) -> list[list[dict]]:
    """The newcomer's battle (tests/newcomer_policy.py) until ``stop(b, legal)`` at a French
    decision; returns the legal lists they were shown."""
    shown = []
    for _ in range(limit):
        b.refresh_from_db()
        if b.status != Status.ACTIVE:
            return shown
        if services.priority(b) != "french":
            assert tasks.bot_move(b.pk, b.seq) >= 1
            continue
        state = from_json(b.state, engine_cards(b))
        legal = legal_actions(state, "french")
        if stop(b, legal):
            return shown
        shown.append(legal)
        services.act(b.pk, user, b.seq, dict(choose(legal, view(state, "french"))))
    raise AssertionError("the battle went on too long")


def _lone_end(b: Battle, legal: list[dict]) -> bool:
    return len(legal) == 1 and legal[0]["type"] in OWN


@pytest.fixture
def battle(user, monkeypatch) -> Battle:
    """Ligny (a long battle), seed 3: the newcomer's first lone end comes in turn 1."""
    monkeypatch.setattr(services, "new_seed", lambda: 3)
    return services.create_battle(user, "ligny", "french", bot="random")


def test_off_by_default_a_lone_end_stays_a_click(battle, user):
    assert preferences_of(user).end_for_me is False
    _play_until(battle, user, _lone_end)
    assert _lone_end(battle, _legal(battle))  # reached, and not played for them
    assert not battle.actions.filter(auto_reason="end").exists()


def test_switched_on_beside_a_lone_end_then_lone_ends_are_played_for_them(battle, user):
    _play_until(battle, user, _lone_end)
    seq = battle.seq
    ending = _legal(battle)[0]
    services.end_for_me(battle.pk, user, seq, True)
    assert preferences_of(user).end_for_me is True
    first = battle.actions.get(seq=seq + 1)
    assert (first.side, first.action, first.auto) == ("french", ending, False)  # their click
    shown = _play_until(battle, user, lambda b, legal: (b.turn or 0) >= 6)
    assert shown and not [legal for legal in shown if _lone_end(battle, legal)]
    ended = list(battle.actions.filter(auto_reason="end"))
    assert ended, "no lone end in five turns: pick another seed"
    for r in ended:  # the player's own ending, nothing else, flagged as their setting
        assert r.side == "french" and r.auto and r.action["type"] in OWN
    assert not battle.actions.filter(side="allied", auto_reason="end").exists()
    assert to_json(services.replay(battle)) == battle.state


def test_the_page_offers_it_beside_a_lone_end_and_the_log_says_it_was_their_setting(
        battle, user, client):
    client.force_login(user)
    _play_until(battle, user, _lone_end)
    page = client.get(reverse("battle", args=[battle.pk])).content.decode()
    assert 'data-testid="end-for-me"' in page and 'data-testid="end-for-me-off"' not in page
    r = client.post(reverse("battle-end-for-me", args=[battle.pk]),
                    {"seq": battle.seq, "on": "1"})
    assert r.status_code == 302 and preferences_of(user).end_for_me is True
    _play_until(battle, user, lambda b, legal: True)  # their next decision
    page = client.get(reverse("battle", args=[battle.pk])).content.decode()
    assert 'data-testid="end-for-me-off"' in page  # they can switch it off there
    assert 'data-testid="end-for-me"' not in page
    _play_until(battle, user, lambda b, legal: b.actions.filter(auto_reason="end").exists())
    page = client.get(reverse("battle", args=[battle.pk])).content.decode()
    assert "ended for you, your setting" in page


def test_not_at_a_lone_end_it_is_refused_and_nothing_changes(battle, user):
    _play_until(battle, user, lambda b, legal: len(legal) > 1 and any(
        a["type"] in OWN for a in legal))
    seq = battle.seq
    with pytest.raises(Conflict) as exc:
        services.end_for_me(battle.pk, user, seq, True)
    assert "not all that is left" in exc.value.message
    battle.refresh_from_db()
    assert battle.seq == seq and preferences_of(user).end_for_me is False


def test_switched_off_the_lone_end_is_a_click_again(battle, user):
    _play_until(battle, user, _lone_end)
    services.end_for_me(battle.pk, user, battle.seq, True)
    services.end_for_me(battle.pk, user, battle.seq, False)
    assert preferences_of(user).end_for_me is False
    _play_until(battle, user, _lone_end)
    assert _lone_end(battle, _legal(battle))
    assert not battle.actions.filter(auto_reason="end").exists()


def test_an_end_is_never_played_while_they_could_take_back_their_last_action(battle, user):
    """Ending the turn closes undo: the site ends it for them only when their last action
    could not be taken back anyway (a die rolled, a card revealed); otherwise the lone end
    stays theirs to click, with Undo still offered beside it."""
    _play_until(battle, user, _lone_end)
    services.end_for_me(battle.pk, user, battle.seq, True)
    asked_with_undo = []

    def note(b: Battle, legal: list[dict]) -> bool:
        if _lone_end(b, legal):
            asked_with_undo.append(undo_rules.can_undo(KIND, b, "french"))
        return False

    _play_until(battle, user, note)
    assert all(asked_with_undo), asked_with_undo  # when asked, Undo was open beside it
    ended = list(battle.actions.filter(auto_reason="end"))
    assert ended
    game = modules.EaglesBattle()
    for r in ended:  # the player's action just before it could not have been taken back
        before = battle.actions.filter(seq__lt=r.seq, side="french").order_by("-seq").first()
        assert game.undo_refusal(before.action, before.events, "french", None, {}), before.action


def test_autoplay_plays_a_lone_end_only_for_a_player_who_asked(battle, user):
    _play_until(battle, user, _lone_end)
    state = from_json(battle.state, engine_cards(battle))
    for on in (False, True):
        moves: list = []
        reasons: list[str] = []
        n = autoplay.extend(KIND, battle, modules.EaglesBattle().copy_state(state), moves,
                            end_for_me=lambda u, on=on: on, reasons=reasons)
        assert n == (1 if on else 0)
        if on:
            assert moves[0][1] == _legal(battle)[0] and reasons == ["end"]


def test_autoplay_leaves_the_end_when_their_action_just_before_could_be_taken_back(
        battle, user):
    _play_until(battle, user, _lone_end)
    state = from_json(battle.state, engine_cards(battle))
    move = {"type": "move", "side": "french", "piece": 1, "to": "french_reserve"}
    quiet = [{"type": "move", "side": "french", "piece": 1, "to": "french_reserve",
              "visibility": "all"}]
    rolled = [{"type": "fire", "side": "french", "dice": [3], "visibility": "all"}]
    for events, added in ((quiet, 0), (rolled, 1)):
        moves: list = [("french", move, events)]
        n = autoplay.extend(KIND, battle, modules.EaglesBattle().copy_state(state), moves,
                            end_for_me=lambda u: True)
        assert n == added, events


def test_the_setting_under_how_you_play(user, client):
    client.force_login(user)
    page = client.get("/battles/").content.decode()
    box = page.split('data-testid="end-for-me-setting"')[1][:20]
    assert "checked" not in box  # off by default
    r = client.post("/battles/preferences/", {"end_for_me": "1"})
    assert r.status_code == 302 and preferences_of(user).end_for_me is True
    assert preferences_of(user).always_ask is False  # the other setting untouched
    assert " checked" in client.get("/battles/").content.decode().split(
        'data-testid="end-for-me-setting"')[1][:20]
    client.post("/battles/preferences/", {})
    assert preferences_of(user).end_for_me is False
