"""Hidden information of Stratego: Waterloo online (RULINGS R13): for a game mid-play (pieces
revealed by combat and fire, others not, reserves, the Prussians' pool), no unrevealed
identity of the opponent's pieces reaches a player, and none of either side's a spectator
(logged in or not), through the API view, the game page's HTML (with a piece selected, its
targets worded), the live channel's messages (a socket's hello and the prebuilt messages of
a change) or the log. Every check compares against the true state."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from online.stratego import selectors, services
from online.stratego.kind import state_of
from online.stratego.models import StrategoMatch
from play import opening
from play.live import messages

from ..kinds import KindTasks
from .helpers import (
    assert_no_identity,
    assert_view_hides,
    choose,
    client_for,
    hidden_from,
)

pytestmark = pytest.mark.django_db
tasks = KindTasks("stratego")


@pytest.fixture
def people(django_user_model, monkeypatch):
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: None)
    monkeypatch.setattr(opening, "new_seed", lambda: 1815061818150618276)
    return {name: django_user_model.objects.create_user(name, "", "pw")
            for name in ("alice", "bob", "carol")}


def mid_game(people, seed: int, actions: int = 30) -> StrategoMatch:
    """alice (French) and bob (Allied), both set up at random, then ``actions`` actions of
    a player who attacks when they can."""
    m = services.create_game(people["alice"], "french", opponent="open")
    services.join_game(m.pk, people["bob"])
    rng = random.Random(seed)
    users = {"french": people["alice"], "allied": people["bob"]}
    for _ in range(actions + 2):
        m = StrategoMatch.objects.get(pk=m.pk)
        if m.status != "active":
            break
        user = users[m.to_move]
        legal = selectors.game_view(m, user)["legal_actions"]
        services.act(m.pk, user, m.seq, choose(legal, rng))
    m = StrategoMatch.objects.get(pk=m.pk)
    st = state_of(m)
    assert m.status == "active"
    assert any(p.revealed for p in st.pieces.values())
    assert any(not p.revealed and p.where == "board" for p in st.pieces.values())
    return m


def page_client(user) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


@pytest.mark.parametrize("seed", [1, 2])
def test_no_hidden_identity_reaches_a_player_or_a_spectator(people, seed):
    m = mid_game(people, seed)
    viewers = {"french": people["alice"], "allied": people["bob"], "carol": people["carol"],
               "visitor": None}
    for name, user in viewers.items():
        side = name if name in ("french", "allied") else None
        hidden = hidden_from(m, side)
        assert hidden, "something must be hidden from everyone"
        # the API (logged in only)
        if user is not None:
            r = client_for(user).get(f"/api/games/stratego/{m.pk}/")
            assert r.status_code == 200
            assert_view_hides(r.json()["view"], m, side, f"API of {name}")
            assert_no_identity(r.content.decode(), hidden, f"API of {name}")
            assert r.json()["log"], "the log is part of the answer"
        # the page, and the page with each of the player's pieces selected in turn
        client = page_client(user)
        html = client.get(f"/stratego/{m.pk}/").content.decode()
        assert 'data-testid="board"' in html
        assert_no_identity(html, hidden, f"page of {name}")
        if side == m.to_move:
            view = selectors.game_view(m, user)
            froms = {tuple(a["from"]) for a in view["legal_actions"] if "from" in a}
            assert froms
            for col, row in sorted(froms)[:12]:
                html = client.get(f"/stratego/{m.pk}/?sel={col}-{row}").content.decode()
                assert 'data-testid="section-selected"' in html
                assert_no_identity(html, hidden, f"page of {name}, {col}-{row} selected")
        # the live channel: a socket's hello, and the prebuilt messages of a change
        viewer = messages.Viewer("stratego", m.pk, user or AnonymousUser(), side)
        hello = messages.message(viewer, 0)
        assert hello["type"] == "stratego" and hello["my_side"] == side and hello["events"]
        assert_view_hides(hello["view"], m, side, f"socket hello of {name}")
        assert_no_identity(json.dumps(hello), hidden, f"socket hello of {name}")
    change = messages.change_messages("stratego", m.pk, 0)
    assert change is not None and set(change.texts) == {"french", "allied", None}
    for side, text in change.texts.items():
        assert_no_identity(text, hidden_from(m, side), f"change message of {side}")
        assert_view_hides(json.loads(text)["view"], m, side, f"change message of {side}")


def test_the_true_state_is_richer_than_any_view(people):
    """The check above is not vacuous: the opponent's ids are in the stored state and the
    player's own ids in their own view."""
    m = mid_game(people, 3, actions=40)
    assert hidden_from(m, "french") & set(json.dumps(m.state).split('"'))
    own = selectors.game_view(m, people["alice"])
    mine = {p["id"] for p in own["view"]["board"] if p["side"] == "french"}
    assert len(mine) > 20
