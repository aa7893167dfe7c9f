"""R13 hidden identities in views and events; the module as the game service uses it."""

import random

from play.protocol import GameModule
from stratego.engine import apply, events_for, view
from stratego.module import GAME

from .helpers import TABLE, act, find, position

F3 = find("french", "line_infantry", 3)
A4 = find("allied", "line_infantry", 4)
A1 = find("allied", "light_infantry", 1)


def test_the_module_is_a_game_module():
    assert isinstance(GAME, GameModule)
    assert GAME.kind == "stratego" and GAME.sides == ("french", "allied")


def test_an_opponents_unrevealed_piece_shows_only_its_back():
    st = position({F3: (5, 4), A4: (5, 6)})
    seen = {tuple(p["square"]): p for p in view(st, "french")["board"]}
    assert seen[(5, 6)] == {"side": "allied", "back": "infantry", "square": [5, 6]}
    assert seen[(5, 4)]["id"] == F3 and seen[(5, 4)]["strength"] == 3
    spectator = {tuple(p["square"]): p for p in view(st, None)["board"]}
    assert "id" not in spectator[(5, 4)] and "id" not in spectator[(5, 6)]


def test_a_move_names_the_piece_only_to_its_owner():
    st = position({F3: (5, 2), A4: (5, 7)})
    events = apply(st, act(st, type="move", **{"from": [5, 2], "to": [5, 3]}), [])
    assert events_for(events, "french")[0]["secret"] == {"for": "french", "piece": F3}
    for viewer in ("allied", None):
        assert F3 not in str(events_for(events, viewer))


def test_revealed_pieces_stay_known_to_everyone():
    st = position({F3: (5, 4), A4: (5, 5), A1: (0, 9)})
    apply(st, act(st, type="attack", **{"from": [5, 4], "via": [5, 4], "target": [5, 5]}), [])
    spectator = {tuple(p["square"]): p for p in view(st, None)["board"]}
    assert spectator[(5, 5)]["id"] == A4 and "id" not in spectator[(0, 9)]
    assert view(st, None)["sides"]["french"]["eliminated"][0]["id"] == F3


def test_undo_closes_on_a_die_a_reveal_or_the_end_of_a_turn():
    st = position({F3: (5, 2), A4: (5, 7)})
    moved = apply(st, act(st, type="move", **{"from": [5, 2], "to": [5, 3]}), [])
    assert GAME.undo_refusal({}, moved, "french", None, GAME.to_json(st)) is None
    st = position({F3: (5, 4), A4: (5, 5)})
    fought = apply(st, act(st, type="attack", **{"from": [5, 4], "via": [5, 4],
                                                 "target": [5, 5]}), [])
    assert GAME.undo_refusal({}, fought, "french", None, GAME.to_json(st))
    assert GAME.undo_turn_refusal(GAME.to_json(st), "french") is None
    assert GAME.undo_turn_refusal(GAME.to_json(st), "allied")


def test_turns_ended_counts_each_players_turn():
    st = position({F3: (5, 2)}, active="allied")
    before = GAME.to_json(st)
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="end_turn"), [])
    assert GAME.turns_ended(before, GAME.to_json(st)) == ["allied", "french"]


def test_dice_and_bot_streams_are_fixed_by_seed_and_sequence():
    a = GAME.dice(7, 3)
    b = GAME.dice(7, 3)
    assert [next(iter(a)) for _ in range(20)] == [next(iter(b)) for _ in range(20)]
    assert GAME.bot_rng(7, 3).random() == GAME.bot_rng(7, 3).random()
    assert set(next(iter(GAME.dice(s, 0))) for s in range(200)) == set(range(1, 7))


def test_a_draw_by_agreement():
    st = position({F3: (5, 2)}, active="french")
    apply(st, act(st, type="offer_draw"), [])
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="accept_draw"), [])
    assert st.outcome == {"winner": None, "reason": "agreement", "turn": 2}


def test_a_draw_offer_lapses_after_the_opponents_turn():
    st = position({F3: (5, 2)}, active="french")
    apply(st, act(st, type="offer_draw"), [])
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="end_turn"), [])
    assert st.draw_offer is None


def test_the_turn_cap_for_bots_ends_the_game_drawn():
    st = GAME.setup(5, {"turn_cap": 2}, TABLE)
    rng = random.Random(0)
    seq = 0
    while GAME.to_move(st):
        legal = GAME.legal_actions(st, GAME.to_move(st))
        GAME.apply(st, rng.choice(legal), GAME.dice(5, seq), legal=legal)
        seq += 1
    assert GAME.outcome(st)["reason"] in ("turn_cap", "agreement", "lines_of_retreat",
                                          "commanders_lost")
    assert st.turn <= 2
