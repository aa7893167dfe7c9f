"""La Belle Alliance pages (issue 27, "the page"): the list (a new game against the computer,
the house note, the navigation's link), a game's page (the battlefield map drawn as SVG from
the data: every card's box with its markers, the three places, both morale and casualty
tracks with their RT/RT+1/RT+2 and B boxes, the time track; the cards with their outcome
tables and the house note; the legal actions as buttons; the last die; the log per turn), an
action posted (a refusal shown with its status), a spectator's page, the replay with the dice
check, and the live channel's hooks giving each viewer class the API's view."""

from __future__ import annotations

import html as markup
import json
import re

import pytest

from online.belle_alliance import selectors, services
from online.belle_alliance.kind import KIND, cards_of
from online.belle_alliance.models import BelleAllianceMatch
from play.live.hooks import live_hooks

from .helpers import login

pytestmark = pytest.mark.django_db
HOUSE = "house edition (ours, not the publisher's)"


def test_the_list_starts_a_game_against_the_computer(user, no_worker):
    c = login(user)
    html = c.get("/").content.decode()
    assert 'href="/belle-alliance/"' in html  # the navigation
    r = c.get("/belle-alliance/")
    assert r.status_code == 200 and HOUSE in r.content.decode()
    r = c.post("/belle-alliance/", {"side": "french", "opponent": "computer",
                                    "bot": "greedy", "time_control": "untimed",
                                    "public": "on"})
    m = BelleAllianceMatch.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/belle-alliance/{m.pk}/"
    assert m.bot == "greedy" and m.french_player == user and m.status == "active"
    r = c.post("/belle-alliance/", {"side": "prussian", "time_control": "untimed"})
    assert r.status_code == 400 and "Side must be one of" in r.content.decode()
    assert f'data-testid="game-{m.pk}"' in c.get("/belle-alliance/").content.decode()


def test_the_game_page_draws_the_map_from_the_data_and_plays_an_action(user, no_worker):
    m = services.create_game(user, "french", bot="random")
    c = login(user)
    html = c.get(f"/belle-alliance/{m.pk}/").content.decode()
    cards = cards_of(m)
    start = html.index('<svg xmlns="http://www.w3.org/2000/svg" class="lba-map"')
    svg = html[start:html.index("</svg>", start)]
    # every card's box, with its division markers
    for card in cards.cards.values():
        assert f'data-card="{card.id}"' in svg
    assert svg.count('class="marker on"') == 18 + 14 + 3  # corps and the Grand Battery
    for place, holder in (("plancenoit", "french"), ("hougoumont", "allied"),
                          ("la_haye_sainte", "allied")):
        assert f'data-place="{place}" data-control="{holder}"' in svg
    assert 'data-side="french" data-morale="10"' in svg
    assert 'data-side="allied" data-morale="10"' in svg
    for side in ("french", "allied"):
        labels = cards.casualty_tracks[side]
        track = svg[svg.index(f'data-side="{side}" data-casualties="0"'):]
        track = track[:track.index("</g>")]
        assert re.findall(r'data-label="([^"]*)"', track) == list(labels)
    assert 'data-label="RT+1"' in svg and 'data-label="RT+2"' in svg
    assert 'data-label="B"' in svg and 'data-time="0"' in svg and "Midday" in svg
    # the cards with their tables, and the house note
    assert html.count('data-testid="outcomes"') == sum(
        len(card.actions) for card in cards.cards.values())
    assert 'data-testid="house-note"' in html and HOUSE in markup.unescape(html)
    # the legal actions as buttons; one played
    v = selectors.game_view(m, user)
    assert html.count('data-testid="action"') == len(v["legal_actions"])
    act = next(a for a in v["legal_actions"] if a["card"] == "I")
    r = c.post(f"/belle-alliance/{m.pk}/act/", {"seq": v["seq"], "action": json.dumps(act)})
    assert r.status_code == 302
    m.refresh_from_db()
    assert m.seq >= 1 and m.to_move == "allied"
    html = c.get(f"/belle-alliance/{m.pk}/").content.decode()
    assert 'data-testid="dice"' in html and 'class="die' in html  # the last die drawn
    assert 'data-testid="log-turn"' in html and "Turn 1" in html
    assert "d'Erlon" in markup.unescape(html)
    # an illegal action: the page again with the message, status 400 (or 409: not my move)
    r = c.post(f"/belle-alliance/{m.pk}/act/", {"seq": m.seq, "action": '{"type": "fly"}'})
    assert r.status_code in (400, 409) and 'data-testid="belle_alliance-error"' in \
        r.content.decode()


def test_a_spectator_sees_the_map_and_no_buttons_and_the_replay_checks_the_dice(
        user, other_user, no_worker):
    m = services.create_game(user, "allied", opponent="open")
    services.join_game(m.pk, other_user)
    m.refresh_from_db()
    v = selectors.game_view(m, other_user)
    services.act(m.pk, other_user, v["seq"], v["legal_actions"][0])
    carol = login(type(user).objects.create_user("carol", "", "pw"))
    html = carol.get(f"/belle-alliance/{m.pk}/").content.decode()
    assert "You are watching" in html and 'data-testid="battlefield"' in html
    assert 'data-testid="action"' not in html
    assert carol.get(f"/belle-alliance/{m.pk}/replay/").status_code == 404  # not over
    services.resign(m.pk, user)
    r = carol.get(f"/belle-alliance/{m.pk}/replay/?step=1")
    html = r.content.decode()
    assert r.status_code == 200 and "they match" in html and "French" in html
    assert 'data-testid="battlefield"' in html


def test_the_live_hooks_give_each_viewer_class_the_api_view(user, other_user, no_worker):
    m = services.create_game(user, "french", opponent="open")
    services.join_game(m.pk, other_user)
    m.refresh_from_db()
    hooks = live_hooks(KIND)
    assert hooks.find(user, m.pk) == m and hooks.side_of(m, other_user) == "allied"
    assert hooks.watched(m)
    assert hooks.view(m, "french", 0, None) == selectors.game_view(m, user)
    spectator = hooks.view(m, None, 0, None)
    assert spectator["legal_actions"] == [] and spectator["my_side"] is None
    v = selectors.game_view(m, user)
    hooks.act(m.pk, user, v["seq"], v["legal_actions"][0])
    m.refresh_from_db()
    assert m.seq >= 1 and m.to_move == "allied"
