"""Auto-pass and forced moves (play/autoplay.py): a pass that is the only legal action is
played for the human unless they asked to be always asked; any other single action too,
except ending one's own phase or turn; the computer's side never; each auto-played action is
the human's, with the dice of its own seq, so the replay is exact; an auto-pass names no card.
Also the click count of the Quatre Bras first-battle flow before and after (printed)."""

from __future__ import annotations

import random

import pytest

from accounts.models import preferences_of
from battles import modules, services
from battles.engine import from_json, legal_actions, to_json
from battles.kind import KIND
from battles.models import Battle, Status
from battles.setup import engine_cards
from game import ENDING_ACTIONS
from play import autoplay

from .kinds import battle_tasks as tasks

pytestmark = pytest.mark.django_db


# --- the pure choice ------------------------------------------------------------------------

def test_forced_action_rules():
    p = {"type": "pass", "side": "allied"}
    assert modules.forced_action([p], always_ask=False) == p
    assert modules.forced_action([p], always_ask=True) is None
    fire = {"type": "fire", "side": "allied", "piece": 3, "target": 4}
    assert modules.forced_action([p, fire], always_ask=False) is None  # a choice: asked
    for kept in ("end_turn", "end_phase"):
        assert modules.forced_action([{"type": kept, "side": "allied"}], False) is None
    for forced in ("roll_morale", "deployment_done"):
        a = {"type": forced, "side": "allied"}
        assert modules.forced_action([a], always_ask=True) == a
    assert modules.forced_action([], always_ask=False) is None


# --- whole battles --------------------------------------------------------------------------

def choose(b: Battle, legal: list[dict]) -> dict:
    """A new player's seeded choice, fixed by the battle's seq alone (so the same battle is
    played with and without auto-play): mostly a move, sometimes the first way to finish."""
    rng = random.Random(f"click:{b.seq}")
    moves = [a for a in legal if a["type"] not in ENDING_ACTIONS]
    if moves and rng.random() < 0.75:
        return rng.choice(moves)
    ending = [a for a in legal if a["type"] in ENDING_ACTIONS]
    return ending[0] if ending else rng.choice(legal)


# Catalogue 1.3.0 changed the British Quatre Bras pool (#130 out, #164 in), so seed 1815's
# battle no longer opens a response window for the French in 4 turns; 1816's does.
SEED = 1816


def play(user, capture, *, until_turn: int, seed: int = SEED, always_ask=False,
         side="french") -> tuple[Battle, int, list[list[dict]]]:
    """A Quatre Bras battle against the greedy computer, the human choosing with ``choose``
    until ``until_turn`` starts; returns the battle, the human's clicks and the legal lists
    the human was shown."""
    prefs = preferences_of(user)
    prefs.always_ask = always_ask
    prefs.save()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(services, "new_seed", lambda: seed)
        b = services.create_battle(user, "quatre-bras", side, bot="greedy")
    clicks, shown = 0, []
    for _ in range(2000):
        b.refresh_from_db()
        if b.status != Status.ACTIVE or (b.turn or 0) >= until_turn:
            break
        if services.priority(b) == side:
            state = from_json(b.state, engine_cards(b))
            legal = legal_actions(state, side)
            shown.append(legal)
            with capture(execute=False):
                services.act(b.pk, user, b.seq, choose(b, legal))
            clicks += 1
        else:
            assert tasks.bot_move(b.pk, b.seq) >= 1
    return b, clicks, shown


def test_auto_pass_and_forced_moves_over_a_battle(user, sent,
                                                  django_capture_on_commit_callbacks):
    b, clicks, shown = play(user, django_capture_on_commit_callbacks, until_turn=5)
    human = [r for r in b.actions.order_by("seq") if r.side == "french"]
    # the human was never shown a screen with one action to click, but ending a turn/phase
    for legal in shown:
        assert len(legal) > 1 or legal[0]["type"] in ("end_turn", "end_phase"), legal
    auto = len(human) - clicks
    assert auto > 0  # some were played for them
    passes = [r for r in human if r.action["type"] == "pass"]
    assert passes, "no response window in 4 turns: pick another seed"
    for r in passes:  # hidden info: an auto-pass is just a pass, it names no card
        assert r.action == {"type": "pass", "side": "french"}
    # replay is exact (dice of each action's own seq)
    assert to_json(services.replay(b)) == b.state


def test_always_ask_keeps_the_pass_a_click(user, sent, django_capture_on_commit_callbacks):
    b, clicks, shown = play(user, django_capture_on_commit_callbacks, until_turn=5,
                            always_ask=True)
    assert [{"type": "pass", "side": "french"}] in shown  # asked, with only Pass to click
    human = [r for r in b.actions.order_by("seq") if r.side == "french"]
    auto_types = {r.action["type"] for r in human} - {"pass"}
    assert auto_types  # the human played
    assert to_json(services.replay(b)) == b.state


def test_never_for_the_computer(user, sent):
    b = services.create_battle(user, "quatre-bras", "french", bot="greedy")
    state = from_json(b.state, engine_cards(b))
    assert b.computer_side() == "allied" and services.priority(b) == "allied"  # Allies first
    moves: list = []
    assert autoplay.extend(KIND, b, state, moves, always_ask=lambda u: False) == 0 and moves == []


def test_clicks_of_the_first_battle_before_and_after(user, sent,
                                                     django_capture_on_commit_callbacks,
                                                     monkeypatch, capsys):
    """The Quatre Bras first-battle flow: the clicks through deployment and turn 1 (and
    through turn 2, the computer's first turn with its fire to answer), with and without
    auto-play; the same battle both ways (choices and dice fixed by seq)."""
    figures = {}
    for until in (2, 3):  # (2, 3, 7) measured once: turns 1-6, 44 clicks before, 34 after
        _b, after, shown_after = play(user, django_capture_on_commit_callbacks,
                                      until_turn=until)
        with monkeypatch.context() as m:
            m.setattr(autoplay, "extend", lambda *a, **k: 0)
            _b2, before, shown = play(user, django_capture_on_commit_callbacks,
                                      until_turn=until)
        # the same battle both ways (one may stop a few actions later, past the turn's start)
        a1 = list(_b.actions.order_by("seq").values_list("side", "action", "events"))
        a2 = list(_b2.actions.order_by("seq").values_list("side", "action", "events"))
        n = min(len(a1), len(a2))
        assert a1[:n] == a2[:n] and abs(len(a1) - len(a2)) <= 3
        assert after < before
        singles = (sum(len(legal) == 1 for legal in shown),
                   sum(len(legal) == 1 for legal in shown_after))
        figures[until - 1] = (before, after, singles)
    with capsys.disabled():
        for turn, (before, after, (one, one_after)) in figures.items():
            print(f"\nQuatre Bras, deployment and turns 1-{turn}: {before} clicks before "
                  f"({one} on a one-button screen), {after} after ({one_after})")
