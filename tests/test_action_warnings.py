"""The loss warning (4.3) through the API and the websocket, not only the page: the battle
view's ``warnings`` marks each legal action that would leave one of the player's Positions
without a troop card, with the text the page asks to confirm (one pure rule,
``battles/warnings.py``); the act needs no confirmation through the API (documented)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from battles import services
from battles.engine import from_json, legal_actions, view
from battles.models import Battle, Status
from battles.setup import cards_of
from battles.warnings import action_warnings, warning
from cards.catalogue.file import catalogue_records
from frontend.battle import warnings as page_warnings
from play.live import messages

from .kinds import battle_tasks

CARDS = {r["number"]: r for r in catalogue_records()}
INF1, INF2, GEN, ART = 127, 128, 111, 164
SEED = 1815  # its Quatre Bras battle has warned moves (test_battle_board_ux)


def piece(pid, card, side, place, up=False):
    return {"piece": pid, "card": card, "side": side, "place": place, "face_up": up,
            "army": "british" if side == "allied" else "french"}


VIEW = {"viewer": "allied", "pieces": [
    piece(1, INF1, "allied", "allied_left"), piece(2, GEN, "allied", "allied_left", True),
    piece(3, INF2, "allied", "allied_center"), piece(4, ART, "allied", "allied_center"),
    {"piece": 5, "side": "french", "place": "allied_right", "army": "french"},
    piece(6, INF1 + 2, "allied", "allied_right")]}


def test_action_warnings_marks_the_actions_warning_warns_about():
    legal = [{"type": "fire", "piece": 1, "target": 5},
             {"type": "move", "piece": 1, "to": "allied_reserve"},
             {"type": "move", "piece": 2, "to": "allied_center"},
             {"type": "move", "piece": 3, "to": "allied_reserve"},
             {"type": "move", "piece": 6, "to": "front_left"},
             {"type": "end_turn"}]
    out = action_warnings(VIEW, "allied", legal, CARDS)
    assert [w["index"] for w in out] == [1, 4]
    for w in out:
        assert w["warning"] == warning(VIEW, "allied", legal[w["index"]], CARDS) != ""
    assert "while enemy cards stand in it" in out[1]["warning"]
    assert action_warnings(VIEW, "allied", [{"type": "end_turn"}], CARDS) == []
    assert action_warnings(None, "allied", legal, CARDS) == []
    # card tables keyed by text and engine cards work alike
    assert action_warnings(VIEW, "allied", legal, {str(k): v for k, v in CARDS.items()}) == out
    # the page asks with the very same function
    assert page_warnings.warning is warning


def test_the_rule_is_pure():
    code = ("import sys\nimport battles.warnings, frontend.battle.warnings\n"
            "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('django', 'rest_framework', 'celery'))))")
    out = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).parent.parent,
                         capture_output=True, text=True, check=True,
                         env={"PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == ""


def expected(b: Battle, side: str) -> list[dict]:
    state = from_json(b.state, cards_of(b))
    legal = legal_actions(state, side)
    seen = view(state, side)
    return [{"index": i, "warning": warning(seen, side, a, cards_of(b))}
            for i, a in enumerate(legal) if warning(seen, side, a, cards_of(b))]


@pytest.mark.django_db
def test_the_api_and_the_socket_carry_the_warnings_along_a_battle(user, sent, monkeypatch):
    monkeypatch.setattr(services, "new_seed", lambda: SEED)
    b = services.create_battle(user, "quatre-bras", "allied", bot="greedy")
    c = Client()
    c.force_login(user)
    viewer = messages.Viewer("battle", b.pk, user, "allied")
    warned = 0
    for _ in range(60):
        b.refresh_from_db()
        if b.status != Status.ACTIVE:
            break
        if b.to_move != "allied":
            battle_tasks.bot_move(b.pk, b.seq)
            continue
        bv = c.get(f"/api/battles/{b.pk}/").json()
        assert bv["warnings"] == expected(b, "allied")
        msg = messages.message(viewer, b.seq)  # what the websocket sends
        assert msg["warnings"] == bv["warnings"] and msg["legal_actions"] == bv["legal_actions"]
        for w in bv["warnings"]:
            assert bv["legal_actions"][w["index"]]["type"] in ("move", "deployment_done")
            assert w["warning"].startswith("This leaves your ")
        if bv["warnings"] and not warned:
            # the page's confirmation says the same words
            action = bv["legal_actions"][bv["warnings"][0]["index"]]
            page = c.post(f"/battles/{b.pk}/act/", {"seq": str(b.seq),
                                                    "action": json.dumps(action)})
            text = bv["warnings"][0]["warning"]
            assert page.status_code == 200 and text in page.content.decode()
            # the API needs no confirmation (battles/README.md): the warned action plays
            r = c.post(f"/api/battles/{b.pk}/act/", {"seq": b.seq, "action": action},
                       content_type="application/json")
            assert r.status_code == 200, r.content
            warned += 1
            continue
        warned += bool(bv["warnings"])
        legal = bv["legal_actions"]
        moves = [a for a in legal if a["type"] not in ("end_turn", "end_phase", "pass")]
        choice = (moves or legal)[b.seq % len(moves or legal)]
        services.act(b.pk, user, b.seq, choice)
    assert warned >= 1, "no warned action in this battle: pick another seed"


@pytest.mark.django_db
def test_no_warnings_when_it_is_not_my_move(user, other_user, sent):
    b = services.create_battle(user, "quatre-bras", "french", opponent=other_user.username)
    services.join_battle(b.pk, other_user)
    b.refresh_from_db()
    waiting = "allied" if b.to_move == "french" else "french"
    c = Client()
    c.force_login(b.player(waiting))
    bv = c.get(f"/api/battles/{b.pk}/").json()
    assert bv["legal_actions"] == [] and bv["warnings"] == []


def test_a_general_walked_alone_into_an_enemy_position_is_warned_and_is_lost():
    """Issue 28, 12.4 NOTE ("If Generals are alone in a Position and engaged, they are
    eliminated immediately"): the warning covers it, and the engine indeed eliminates him."""
    from battles.engine import view as engine_view
    from battles.engine.cards import load_cards

    from .engine.helpers import BR_INF, FR_INF, RECORDS, REILLE, blank, do, event, legal, put

    st = blank(active="french")
    put(st, FR_INF, "french_center")
    general = put(st, REILLE, "french_center")
    put(st, BR_INF, "allied_center")  # the enemy stands in its Centre
    seen = engine_view(st, "french")
    cards = load_cards(RECORDS)
    moves = [a for a in legal(st, "french", "move") if a.get("piece") == general.pid]
    into = next(a for a in moves if a["to"] == "allied_center")
    text = warning(seen, "french", into, cards)
    assert "General alone into the enemy Centre" in text and "12.4" in text
    assert [w["index"] for w in action_warnings(seen, "french", [into], cards)] == [0]
    # with a troop card of his side already there, he is not alone: no warning
    with_troop = blank(active="french")
    put(with_troop, FR_INF, "french_center")
    g2 = put(with_troop, REILLE, "french_center")
    put(with_troop, BR_INF, "allied_center")
    put(with_troop, FR_INF + 1, "allied_center")
    assert warning(engine_view(with_troop, "french"), "french",
                   {**into, "piece": g2.pid}, cards) == ""
    ev = do(st, into)
    gone = event(ev, "eliminated")
    assert gone["piece"] == general.pid and gone["reason"] == "alone"
    assert general.pid not in st.pieces
