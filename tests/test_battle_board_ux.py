"""Playing on the page: the last dice drawn as dice, the opponent's changes marked, the log per
turn, the action keys board.js reads, the loss warning (pure, and the confirm step of the
page), "Play Quatre Bras now" and the always-ask setting."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.test import Client

from accounts.models import preferences_of
from battles import services
from battles.engine import from_json, legal_actions
from battles.models import Battle, Status
from battles.setup import engine_cards
from cards.catalogue.file import catalogue_records
from frontend.battle import board_ux, play
from frontend.battle.board_svg import board_svg
from frontend.battle.dice_svg import dice_svg, last_roll
from frontend.battle.warnings import warning

from .kinds import battle_tasks

CARDS = {r["number"]: r for r in catalogue_records()}
INF1, INF2, GEN, ART, FR_INF = 127, 128, 111, 164, 15
SEED = 1815  # its battle has warned moves (most seeds do; a random one may not)


# --- dice -----------------------------------------------------------------------------------

def test_last_dice_drawn_with_pips_hits_and_misses():
    log = [{"seq": 3, "type": "fire", "side": "french", "piece": 1, "target": 2,
            "dice": [6, 2], "power": 2, "hits": 1},
           {"seq": 5, "type": "move", "piece": 4, "to": "allied_left"},
           {"seq": 7, "type": "shock", "side": "allied", "piece": 4, "target": 9,
            "dice": [3, 5, 1], "power": 3, "hits": 1},
           {"seq": 7, "type": "morale", "piece": 9, "dice": [2, 6], "value": 4,
            "routed": True},
           {"seq": 8, "type": "turn", "turn": 2}]
    seq, rolls = last_roll(log)
    assert seq == 7 and [r["dice"] for r in rolls] == [[3, 5, 1], [2, 6]]
    assert rolls[0]["good"] == [False, True, False]  # power 3: 4-6 hit (7.2)
    assert rolls[1]["good"] == [True, False] and rolls[1]["summary"] == "routed"
    svg = dice_svg(rolls)
    assert re.findall(r'class="die (\w+)" data-value="(\d)"', svg) == [
        ("miss", "3"), ("hit", "5"), ("miss", "1"), ("hit", "2"), ("miss", "6")]
    # pips: 3 + 5 + 1 + 2 + 6
    assert svg.count("<circle") == 17
    assert "Shock: 3, 5, 1 (1 hit)" in svg and "Morale: 2, 6 (routed)" in svg
    assert last_roll([{"seq": 1, "type": "deploy"}]) == (None, []) and dice_svg([]) == ""


# --- marks and the log per turn -------------------------------------------------------------

def test_changes_since_my_last_action_are_marked():
    log = [{"seq": 4, "type": "move", "piece": 1, "to": "french_left"},
           {"seq": 5, "type": "fire", "piece": 7, "target": 3, "dice": [1]},
           {"seq": 6, "type": "captured", "terrain": 11, "occupants": [7, 8]},
           {"seq": 6, "type": "turn", "turn": 3, "side": "allied"}]
    pieces, places = board_ux.changed_marks(log, since=4)
    assert pieces == {7, 3, 11, 8} and places == set()
    assert board_ux.changed_marks(log, since=None) == ({1, 3, 7, 8, 11}, {"french_left"})


def test_board_draws_a_ring_on_marked_pieces_and_places():
    from battles.engine import new_battle, view

    st = new_battle("quatre-bras", 5, cards=catalogue_records())
    v = view(st, "allied")
    pid = v["pieces"][0]["piece"] if v["pieces"] else None
    plain = board_svg(v, "allied", st.cards)
    marked = board_svg(v, "allied", st.cards, marked=({pid}, {"allied_left"}))
    assert 'class="ring"' not in plain and "changed" not in plain
    assert 'class="position changed"' in marked or 'class="position engaged changed"' in marked
    if pid is not None:
        assert marked.count('class="ring"') == 1


def test_log_grouped_per_turn_newest_open():
    events = [{"type": "deploy"}, {"type": "turn", "turn": 1, "side": "french"},
              {"type": "move"}, {"type": "turn", "turn": 2, "side": "allied"}, {"type": "fire"}]
    lines = [{"text": f"line {i}"} for i in range(5)]
    groups = board_ux.log_by_turn(events, lines)
    assert [g["title"] for g in groups] == ["Deployment", "Turn 1 (French)", "Turn 2 (Allied)"]
    assert [len(g["lines"]) for g in groups] == [1, 2, 2]
    assert [g["open"] for g in groups] == [False, False, True]
    assert board_ux.log_by_turn([], []) == []
    assert len(board_ux.log_by_turn(events, lines[:2])) == 1  # not aligned: one group


def test_action_keys():
    assert board_ux.action_keys({"type": "deploy", "card": 5, "to": "french_left"}) == {
        "select": "card:5", "target": "place:french_left", "plain": True}
    assert board_ux.action_keys({"type": "deploy", "card": 5, "to": "french_left",
                                 "formation": "square"})["plain"] is False
    assert board_ux.action_keys({"type": "fire", "piece": 3, "target": 9}) == {
        "select": "piece:3", "target": "piece:9", "plain": True}
    assert board_ux.action_keys({"type": "occupy", "piece": 3, "terrain": 4})["target"] == \
        "piece:4"
    assert board_ux.action_keys({"type": "move", "card": 8, "to": "french_center"})[
        "select"] == "card:8"
    assert board_ux.action_keys({"type": "end_turn"}) == {"select": "", "target": "",
                                                          "plain": True}


# --- the loss warning (pure) ----------------------------------------------------------------

def piece(pid, card, side, place, up=False):
    return {"piece": pid, "card": card, "side": side, "place": place, "face_up": up,
            "army": "british" if side == "allied" else "french"}


def test_warning_when_the_last_troop_card_leaves_a_position():
    view = {"viewer": "allied", "pieces": [
        piece(1, INF1, "allied", "allied_left"), piece(2, GEN, "allied", "allied_left", True),
        piece(3, INF2, "allied", "allied_center"), piece(4, ART, "allied", "allied_center"),
        {"piece": 5, "side": "french", "place": "allied_right", "army": "french"},
        piece(6, INF1 + 2, "allied", "allied_right")]}
    out = warning(view, "allied", {"type": "move", "piece": 1, "to": "allied_reserve"}, CARDS)
    assert out.startswith("This leaves your Left without a troop card: you lose the battle")
    assert out.endswith("Confirm?")
    # a General alone does not hold a Position (12.4 NOTE); Artillery does
    assert warning(view, "allied", {"type": "move", "piece": 3, "to": "french_left"},
                   CARDS) == ""
    # enemy cards already there: at once
    assert "while enemy cards stand in it" in warning(
        view, "allied", {"type": "move", "piece": 6, "to": "allied_reserve"}, CARDS)
    # the General leaving, another side's piece, other actions: nothing
    assert warning(view, "allied", {"type": "move", "piece": 2, "to": "allied_center"},
                   CARDS) == ""
    assert warning(view, "allied", {"type": "fire", "piece": 1, "target": 5}, CARDS) == ""
    assert warning(view, "allied", {"type": "move", "piece": 5, "to": "allied_center"},
                   CARDS) == ""
    # ending deployment with a Position holding no troop card
    bare = {"viewer": "allied", "pieces": [p for p in view["pieces"] if p["piece"] != 1]}
    assert "your Left" in warning(bare, "allied", {"type": "deployment_done"}, CARDS)
    assert warning(view, "allied", {"type": "deployment_done"}, CARDS) == ""
    assert warning(None, "allied", {"type": "deployment_done"}, CARDS) == ""


# --- the page -------------------------------------------------------------------------------

pytestmark_db = pytest.mark.django_db


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def actions_on(page: str) -> list[tuple[dict, str]]:
    """Each action form's action and its opening tag."""
    out = []
    for tag in re.findall(r'<form [^>]*class="b-act"[^>]*>', page):
        pos = page.index(tag)
        raw = re.search(r'name="action" value="([^"]*)"', page[pos:]).group(1)
        out.append((json.loads(html.unescape(raw)), tag))
    return out


@pytest.mark.django_db
def test_page_has_keys_dice_legend_and_log_per_turn(user, sent,
                                                    django_capture_on_commit_callbacks):
    c = client_for(user)
    with django_capture_on_commit_callbacks(execute=True):
        r = c.post("/battles/play-now/")
    b = Battle.objects.get()
    assert r.status_code == 302 and r["Location"] == f"/battles/{b.pk}/"
    assert (b.battle, b.french_player, b.bot) == ("quatre-bras", user, "greedy")
    assert b.deck_choices["french"] == {"pool": "set", "historical": True} or \
        "historical" in json.dumps(b.deck_choices)
    battle_tasks.bot_move(b.pk, 0)  # the Allies deploy
    page = c.get(f"/battles/{b.pk}/").content.decode()
    forms = actions_on(page)
    assert forms
    for action, tag in forms:
        keys = board_ux.action_keys(action)
        if keys["select"]:
            assert f'data-select="{keys["select"]}"' in tag
        if keys["target"]:
            assert f'data-target="{keys["target"]}"' in tag
    assert 'data-testid="legend"' in page and "not</em> morale grades" in page
    assert 'data-testid="log-turn"' in page and "frontend/board.js" in page
    # the computer's deployment is marked (my first action is still to come)
    assert 'class="ring"' in page
    cards = re.findall(r'data-testid="reserve-card" data-select="card:(\d+)"', page)
    assert cards and all(f'data-select="card:{n}"' in page for n in cards)


@pytest.mark.django_db
def test_the_confirm_step(user, sent, monkeypatch):
    b = services.create_battle(user, "quatre-bras", "allied", bot="greedy")
    legal = legal_actions(from_json(b.state, engine_cards(b)), "allied")
    action = legal[0]
    calls = []

    def fake(view, side, a, cards=None):
        calls.append(a)
        return "This leaves your Left without a troop card: ... Confirm?" if a == action else ""

    monkeypatch.setattr(play, "warning", fake)
    monkeypatch.setattr(play, "WARNED", (action["type"],))  # a move or the end of deployment
    c = client_for(user)
    data = {"seq": "0", "action": json.dumps(action)}
    r = c.post(f"/battles/{b.pk}/act/", data)
    b.refresh_from_db()
    assert r.status_code == 200 and b.seq == 0  # asked, nothing played
    text = r.content.decode()
    assert 'data-testid="confirm"' in text and "without a troop card" in text
    assert 'name="confirm" value="1"' in text
    r = c.post(f"/battles/{b.pk}/act/", {**data, "confirm": "1"})
    b.refresh_from_db()
    assert r.status_code == 302 and b.seq >= 1 and b.actions.get(seq=1).action == action
    # the same through htmx: the fragment with the question
    other = legal_actions(from_json(b.state, engine_cards(b)), "allied")
    if b.to_move == "allied" and other:
        r = c.post(f"/battles/{b.pk}/act/", {"seq": str(b.seq),
                                             "action": json.dumps(other[0])},
                   headers={"HX-Request": "true"})
        assert r.status_code == 200


def engine_says_loses_hold(state, action) -> bool:
    """From the engine's own state: ``action`` moves the allied side's last troop card out of
    one of its Positions, or ends deployment with a Position holding none."""
    from battles.engine.board import PLACE_NAMES

    mine = [p for p in state.pieces.values() if p.side == 1]

    def troops(place, without=None):
        return [p for p in mine if PLACE_NAMES[p.place] == place and p.pid != without
                and state.cards[p.num].kind in ("infantry", "cavalry", "artillery")]

    if action["type"] == "move" and "piece" in action:
        p = state.pieces[action["piece"]]
        place = PLACE_NAMES[p.place]
        return (p.side == 1 and place.startswith("allied_") and place != "allied_reserve"
                and state.cards[p.num].kind in ("infantry", "cavalry", "artillery")
                and not troops(place, p.pid))
    if action["type"] == "deployment_done":
        return any(not troops(f"allied_{pos}") for pos in ("left", "center", "right"))
    return False


@pytest.mark.django_db
def test_warned_buttons_are_marked_on_a_real_battle(user, sent, monkeypatch):
    """Along a real battle, every button marked data-warn is a move out of one of my
    Positions (or the end of deployment), and the warning agrees with the engine state."""
    monkeypatch.setattr(services, "new_seed", lambda: SEED)  # a battle with warnings
    b = services.create_battle(user, "quatre-bras", "allied", bot="greedy")
    c = client_for(user)
    seen = 0
    for _ in range(60):
        b.refresh_from_db()
        if b.status != Status.ACTIVE:
            break
        if b.to_move != "allied":
            battle_tasks.bot_move(b.pk, b.seq)
            continue
        page = c.get(f"/battles/{b.pk}/").content.decode()
        state = from_json(b.state, engine_cards(b))
        for action, tag in actions_on(page):
            expected = engine_says_loses_hold(state, action)
            assert ('data-warn="1"' in tag) == expected, action
            seen += expected
            if expected and seen == 1:  # the page asks first, and nothing is played
                r = c.post(f"/battles/{b.pk}/act/", {"seq": str(b.seq),
                                                     "action": json.dumps(action)})
                assert r.status_code == 200 and 'data-testid="confirm"' in r.content.decode()
                assert Battle.objects.get(pk=b.pk).seq == b.seq
        legal = legal_actions(state, "allied")
        moves = [a for a in legal if a["type"] not in ("end_turn", "end_phase", "pass")]
        choice = (moves or legal)[b.seq % len(moves or legal)]
        services.act(b.pk, user, b.seq, choice)
    assert seen > 0


@pytest.mark.django_db
def test_always_ask_setting(user):
    c = client_for(user)
    page = c.get("/battles/").content.decode()
    assert 'data-testid="always-ask"' in page and "checked" not in page.split(
        'data-testid="always-ask"')[1][:20]
    assert 'data-testid="play-now"' in page
    r = c.post("/battles/preferences/", {"always_ask": "1"})
    assert r.status_code == 302 and preferences_of(user).always_ask is True
    assert ' checked' in c.get("/battles/").content.decode().split(
        'data-testid="always-ask"')[1][:20]
    c.post("/battles/preferences/", {})
    assert preferences_of(user).always_ask is False
    assert c.get("/battles/preferences/").status_code == 405


@pytest.mark.django_db
def test_home_offers_play_now(user, client):
    assert 'data-testid="play-now"' in client_for(user).get("/").content.decode()
    anon = client.get("/").content.decode()
    assert 'data-testid="play-now"' not in anon and "play Quatre Bras" in anon
    r = client.post("/battles/play-now/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    assert not Battle.objects.exists()


def test_the_new_renderers_are_pure():
    """dice_svg, warnings and board_ux import nothing from Django (the pure renderers)."""
    import subprocess
    import sys
    from pathlib import Path

    code = ("import sys\n"
            "import frontend.battle.dice_svg, frontend.battle.warnings, "
            "frontend.battle.board_ux\n"
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('django', 'rest_framework', 'celery'))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parent.parent,
                         capture_output=True, text=True, check=True,
                         env={"PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == ""


def test_a_morale_roll_in_words_shows_its_grade_and_modifiers():
    """Issue 28: "(morale 5)" read oddly beside cards graded A-D; the roll says the grade, each
    modifier and what the dice must show."""
    from frontend.battle.words import describe_event

    roll = {"type": "morale", "piece": 9, "value": 4, "dice": [4], "routed": False,
            "modifiers": [["general", 1], ["square", 1]], "side": "french"}
    text = describe_event(roll, "french")
    assert "rolls 4 against morale 4 (grade C 2, its general +1, square +1; 4 or less holds, " \
           "a 6 always routs): holds" in text
    hidden = {k: v for k, v in roll.items() if k != "modifiers"}
    assert "against morale 4 (4 or less holds, a 6 always routs)" in describe_event(hidden,
                                                                                     "allied")
