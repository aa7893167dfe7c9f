"""La Belle Alliance on the shared game views (issue 27 follow-up): its page POSTs are
``frontend.play.posts``'s (an htmx action gets the play fragment), its list is the one game
list (``frontend.play.game_list`` and ``templates/frontend/play/list.html``, Stratego's too),
``/watch/`` lists its public games, the menu's "your move" badge counts every kind's games,
and it imports nothing of Stratego's (the API's shared words are ``play.help_texts``)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from django.test import Client, RequestFactory

from frontend.context_processors import notification_counts
from notifications.selectors import your_move_counts
from online.belle_alliance import selectors, services
from online.stratego import services as stratego_services

from .helpers import login

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def two_people(user, other_user, public: bool = True):
    m = services.create_game(user, "french", opponent="open", public=public)
    services.join_game(m.pk, other_user)
    m.refresh_from_db()
    return m


def test_an_htmx_action_gets_the_play_fragment_a_plain_post_a_redirect(user, no_worker):
    m = services.create_game(user, "french", bot="random")
    c = login(user)
    v = selectors.game_view(m, user)
    r = c.post(f"/belle-alliance/{m.pk}/act/", {"seq": v["seq"], "action": json.dumps(
        v["legal_actions"][0])}, headers={"HX-Request": "true"})
    assert r.status_code == 200 and b"<html" not in r.content
    m.refresh_from_db()
    assert m.seq >= 1
    r = c.post(f"/belle-alliance/{m.pk}/undo/", {"seq": "x"})  # a refusal: the page, 4xx
    assert 400 <= r.status_code < 500 and b'data-testid="belle_alliance-error"' in r.content


def test_both_lists_are_the_one_game_list(user, other_user, no_worker):
    waiting = services.create_game(other_user, "allied", opponent="open")
    c = login(user)
    lba = c.get("/belle-alliance/")
    stratego = c.get("/stratego/")
    for r in (lba, stratego):
        assert "frontend/play/list.html" in [t.name for t in r.templates]
    html = lba.content.decode()
    assert f'data-testid="open-{waiting.pk}"' in html
    assert f'action="/belle-alliance/{waiting.pk}/join/"' in html
    assert 'name="variant"' not in html and 'name="variant"' in stratego.content.decode()
    assert "La Belle Alliance ratings" in html
    r = c.post(f"/belle-alliance/{waiting.pk}/join/")  # the shared seat view
    assert r.status_code == 302 and r["Location"] == f"/belle-alliance/{waiting.pk}/"
    r = c.post(f"/belle-alliance/{waiting.pk}/join/")  # the seat is mine now: 409, the list
    assert r.status_code == 409 and b'data-testid="lba-error"' in r.content


def test_watch_lists_public_la_belle_alliance_games_only(user, other_user):
    public = two_people(user, other_user)
    private = two_people(user, other_user, public=False)
    html = Client().get("/watch/").content.decode()  # anyone, not logged in
    assert f'data-testid="on-belle_alliance-{public.pk}"' in html
    assert f'href="/belle-alliance/{public.pk}/"' in html
    assert "alice (French) vs bob (Allied)" in html
    assert f"/belle-alliance/{private.pk}/" not in html
    assert 'data-testid="nothing-on"' not in html
    # a visitor who opens the list sees what is on, with a word on logging in
    visitor = Client().get("/belle-alliance/").content.decode()
    assert 'data-testid="login-to-play"' in visitor and f"on-belle_alliance-{public.pk}" in visitor


def test_the_your_move_badge_counts_every_kinds_games(user, no_worker):
    lba = services.create_game(user, "french", bot="greedy")  # the French act first
    assert lba.to_move == "french"
    counts = your_move_counts(user)
    assert counts["belle_alliance"] == 1 and sum(counts.values()) == 1
    request = RequestFactory().get("/")
    request.user = user
    menu = notification_counts(request)
    assert menu["your_move_count"]() == 1 and menu["your_move_url"]() == "/belle-alliance/"
    game = stratego_services.create_game(user, "allied", bot="greedy")  # the Allies set up
    assert game.to_move == "allied"
    counts = your_move_counts(user)
    assert counts["stratego"] == 1 and counts["belle_alliance"] == 1
    html = login(user).get("/decks/").content.decode()
    assert "<title>(2) " in html and 'data-testid="your-move-badge">Your move (2)</a>' in html


def test_la_belle_alliance_imports_nothing_of_stratego():
    for folder in ("belle_alliance", "frontend/belle_alliance"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                assert not any(n.split(".")[0] == "stratego" for n in names), path
