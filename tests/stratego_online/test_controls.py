"""The Standard and Expert games' own controls on the Stratego page (issue 26, "the
manoeuvre hand"; frontend/stratego/controls.py): the draft as card choices, the hand drawn as
cards (a card played from it; the Fighting spirit chosen first, its squares lit on the
board), the tiles (buildings, the hill, Plancenoit, the mud of one's own battlefield) drawn
from the view, the Pursuit's cavalry selectable; the Expert options through the service."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from config.errors import BadInput
from online.stratego import selectors, services
from online.stratego.kind import state_of
from online.stratego.models import StrategoMatch

from ..kinds import KindTasks

pytestmark = pytest.mark.django_db
tasks = KindTasks("stratego")


@pytest.fixture
def people(django_user_model, monkeypatch):
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    return {name: django_user_model.objects.create_user(name, "", "pw")
            for name in ("alice", "bob")}


def _page(user, m, query: str = "") -> str:
    c = Client()
    c.force_login(user)
    r = c.get(reverse("stratego-game", args=[m.pk]) + query)
    assert r.status_code == 200
    return r.content.decode()


def _play(m, users, until, pick=None, limit=80):
    """Act for whoever is to move (set-up at random; ``pick(legal)`` or the first legal
    action) until ``until(match, legal)``; returns (match, side to move, legal)."""
    for _ in range(limit):
        m = StrategoMatch.objects.get(pk=m.pk)
        side = m.to_move
        legal = selectors.game_view(m, users[side])["legal_actions"]
        if until(m, legal):
            return m, side, legal
        action = (pick(legal) if pick else None) or legal[0]
        services.act(m.pk, users[side], m.seq, action)
    raise AssertionError("never reached")


def _standard(people, variant="standard", **kw):
    m = services.create_game(people["alice"], "french", opponent="open", variant=variant, **kw)
    services.join_game(m.pk, people["bob"])
    return m, {"french": people["alice"], "allied": people["bob"]}


def _keep_spirit(legal):
    return next((a for a in legal if a["type"] == "draft"
                 and a["keep"] == "fighting_spirit"), None)


def test_the_draft_is_offered_as_card_choices(people):
    m, users = _standard(people)
    m, side, legal = _play(m, users, lambda m, legal: legal[0]["type"] == "draft")
    html = _page(users[side], m)
    picks = re.findall(r'data-testid="draft-pick"', html)
    assert len(picks) == sum(1 for a in legal if a["type"] == "draft")
    assert 'data-testid="draft"' in html and "Keep " in html


def test_the_hand_is_drawn_as_cards_and_a_card_is_played_from_it(people):
    m, users = _standard(people)
    m, side, legal = _play(
        m, users, lambda m, legal: any(a["type"] == "card" and "square" not in a
                                       and "from" not in a for a in legal),
        pick=_keep_spirit)
    html = _page(users[side], m)
    st = state_of(m)
    hand = st.cards["hands"][side]
    assert len(re.findall(r'data-testid="card" data-card=', html)) == len(hand)
    playable = next(a for a in legal if a["type"] == "card" and "square" not in a
                    and "from" not in a)
    assert f'data-testid="play-card" data-card="{playable["card"]}"' in html
    # the opponent's hand is a count, never its cards
    enemy = "allied" if side == "french" else "french"
    assert f"the opponent holds {len(st.cards['hands'][enemy])}" in html
    c = Client()
    c.force_login(users[side])
    r = c.post(reverse("stratego-game-act", args=[m.pk]),
               {"seq": m.seq, "action": json.dumps(playable)})
    assert r.status_code == 302
    m.refresh_from_db()
    assert state_of(m).card is not None or playable["card"] == "fighting_spirit"
    assert 'data-testid="card-in-play"' in _page(users[side], m)


def test_fighting_spirit_is_chosen_then_its_squares_light_up(people):
    m, users = _standard(people)
    m, side, legal = _play(
        m, users, lambda m, legal: any(a["type"] == "card" and a["card"] == "fighting_spirit"
                                       for a in legal), pick=_keep_spirit)
    spirit = [a for a in legal if a["type"] == "card" and a["card"] == "fighting_spirit"]
    html = _page(users[side], m)
    assert 'data-testid="choose-card" data-card="fighting_spirit"' in html
    assert 'class="target card"' not in html
    html = _page(users[side], m, "?card=fighting_spirit")
    assert 'data-testid="chosen-card"' in html
    assert len(re.findall(r'class="target card"', html)) == len(spirit)
    sq = spirit[0]["square"]
    assert f'data-testid="target-{sq[0]}-{sq[1]}"' in html
    # a card not in the hand (or nonsense) lights nothing
    assert 'class="target card"' not in _page(users[side], m, "?card=grand_battery%3Cx")


def test_the_tiles_are_drawn_from_the_view(people):
    m, users = _standard(people)
    html = _page(people["alice"], m)
    for tile in ("hougoumont", "la_haye_sainte", "mont_st_jean"):
        assert f'data-testid="tile-{tile}"' in html
    assert 'data-testid="terrain"' in html and "Mont St Jean" in html
    basic, _ = _standard(people, variant="basic")
    assert 'data-testid="tile-' not in _page(people["alice"], basic)


def test_an_expert_game_with_mud_shows_it_and_plancenoit(people):
    m, users = _standard(people, variant="expert",
                         options={"battlefield": {"mud": [[3, 4]]}, "grouchy": True})
    m.refresh_from_db()
    assert m.settings == {"battlefield": {"mud": [[3, 4]]}, "grouchy": True}
    assert state_of(m).options["mud"] == [[3, 4], [4, 4], [3, 5], [4, 5]]
    html = _page(people["bob"], m)
    for col, row in ((3, 4), (4, 4), (3, 5), (4, 5)):
        assert f'data-testid="mud-{col}-{row}"' in html
    assert 'data-testid="tile-plancenoit"' in html and "1 tiles" not in html


@pytest.mark.parametrize("variant,options,words", [
    ("standard", {"grouchy": True}, "Expert game"),
    ("expert", {"grouchy": "yes"}, "true or false"),
    ("expert", {"mud": []}, "unknown option"),
    ("expert", {"battlefield": {"mud": [[11, 4]]}}, "runs off the board"),
    ("expert", {"battlefield": {"mud": [[1, 4]]}}, "another tile"),
    ("expert", [], "an object"),
])
def test_bad_expert_options_are_refused_with_a_reason(people, variant, options, words):
    with pytest.raises(BadInput, match=words):
        services.create_game(people["alice"], "french", variant=variant, options=options)


def test_the_pursuits_cavalry_is_selected_and_its_targets_light_up(people):
    from online.stratego.kind import save_state

    from ..stratego.test_pursuit import A3, AA, AHC, FLC, retreat

    m, users = _standard(people, variant="expert")
    m = StrategoMatch.objects.get(pk=m.pk)  # joined: both seats taken
    st = retreat({FLC: (5, 3), A3: (3, 6), AA: (8, 7), AHC: (6, 6)})
    save_state(m, st)
    m.save()
    html = _page(users["french"], m)
    assert 'data-testid="pursuit"' in html
    assert html.count('data-testid="pursuer-pick"') == 1
    assert 'class="target pursue"' not in html
    html = _page(users["french"], m, f"?sel=p-{FLC}")
    assert 'data-testid="target-3-6"' in html and 'data-testid="target-8-7"' in html
    assert len(re.findall(r'class="target pursue"', html)) == 2
    assert "Pursue the enemy cavalry set aside (slot" in html  # off the board: a button
    # the Allied player sees the French cavalry set aside by its back, not its identity
    allied = _page(users["allied"], m)
    assert FLC not in allied and 'data-testid="pursuer-pick"' not in allied
