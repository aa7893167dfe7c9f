"""001 §14 'Create your own battlefield' and the mud tiles: one test per sentence; RULINGS
R42, R43. Mud is placed with the setup option ``battlefield`` (Expert game)."""

import pytest

from stratego.engine import legal_actions, new_game, view
from stratego.module import GAME

from .helpers import TABLE, find, position

F3 = find("french", "line_infantry", 3)
FLI = find("french", "light_infantry")
FLC = find("french", "light_cavalry")
NEY = find("french", "commander")
FA = find("french", "artillery")
A3 = find("allied", "line_infantry", 3)

MUD = {"mud": [[4, 4]]}  # squares (4-5, 4-5)


def muddy(pieces, **kw):
    st = position(pieces, mode="expert", start=False, **kw)
    st.options["mud"] = [[4, 4], [5, 4], [4, 5], [5, 5]]
    from stratego.engine.rules import start_turn
    start_turn(st, [])
    return st


def moves(st, frm):
    return sorted(tuple(a["to"]) for a in legal_actions(st, st.active)
                  if a["type"] == "move" and a["from"] == list(frm))


def test_the_players_place_the_mud_tiles_before_set_up():
    st = GAME.setup(1, {"variant": "expert", "battlefield": {"mud": [[4, 4], [0, 6]]}},
                    TABLE)
    assert st.options["mud"] == [[4, 4], [5, 4], [4, 5], [5, 5],
                                 [0, 6], [1, 6], [0, 7], [1, 7]]
    assert view(st, None)["options"]["mud"] == st.options["mud"]


@pytest.mark.parametrize("battlefield", [
    {"mud": [[1, 4]]},  # over Hougoumont
    {"mud": [[11, 4]]},  # off the board
    {"mud": [[3, 3], [4, 4]]},  # one over the other
    {"mud": [[0, 6], [3, 6], [6, 0]]},  # three: the box has two (001 §1)
    {"hill": [[0, 6]]},  # only mud is placed (R43)
])
def test_a_battlefield_that_cannot_be_laid_is_refused(battlefield):
    with pytest.raises(ValueError):
        new_game(1, TABLE, "expert", options={"battlefield": battlefield})


def test_mud_is_a_scenario_of_the_expert_game():
    with pytest.raises(ValueError):
        new_game(1, TABLE, "standard", options={"battlefield": MUD})


def test_mud_breaks_the_momentum_of_infantry_one_space_for_every_action():
    st = muddy({F3: (4, 4)})
    # ahead, left or right; not back (R42)
    assert moves(st, (4, 4)) == [(3, 4), (4, 5), (5, 4)]


def test_mud_breaks_the_momentum_of_cavalry_and_commanders():
    st = muddy({FLC: (4, 5), NEY: (5, 5)})
    assert moves(st, (4, 5)) == [(3, 5), (4, 6)]
    assert moves(st, (5, 5)) == [(5, 6), (6, 5)]


def test_a_piece_moving_into_the_mud_stops_there():
    st = muddy({F3: (4, 2), FLC: (5, 0)})
    assert (4, 4) in moves(st, (4, 2)) and (4, 5) not in moves(st, (4, 2))
    assert (5, 4) in moves(st, (5, 0)) and (5, 5) not in moves(st, (5, 0))
    assert (5, 6) not in moves(st, (5, 0))


def test_light_infantry_do_not_experience_any_restrictions_in_the_mud():
    st = muddy({FLI: (4, 4)})
    assert (4, 7) in moves(st, (4, 4)) and (4, 1) in moves(st, (4, 4))


def test_artillery_cannot_move_onto_a_mud_tile():
    st = muddy({FA: (4, 3)})
    assert (4, 4) not in moves(st, (4, 3)) and (3, 3) in moves(st, (4, 3))


def test_from_the_mud_a_piece_attacks_one_space_ahead():
    st = muddy({F3: (4, 5), A3: (4, 6)})
    attacks = [a for a in legal_actions(st, "french") if a["type"] == "attack"]
    assert attacks == [{"type": "attack", "side": "french", "from": [4, 5], "via": [4, 5],
                        "target": [4, 6]}]


def test_a_game_on_ones_own_battlefield_plays_to_the_end():
    from stratego.simulate import play
    bots = {"french": GAME.bot("greedy", TABLE), "allied": GAME.bot("greedy", TABLE)}
    st_opts = {"battlefield": {"mud": [[4, 4], [0, 2]]}}
    out = play(3, bots, 40, TABLE, "expert", st_opts)
    assert out["reason"]
