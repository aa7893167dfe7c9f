"""001 §11-§14: the Expert game (dice forced); RULINGS R33-R36."""

import pytest

from stratego.engine import apply, legal_actions, new_game, view
from stratego.engine.rules import start_turn
from stratego.module import GAME

from .helpers import TABLE, act, find, position

F3 = find("french", "line_infantry", 3)
F3b = find("french", "line_infantry", 3, 1)
FLC = find("french", "light_cavalry")
FA = find("french", "artillery")
NAP = find("french", "commander_in_chief")
WEL = find("allied", "commander_in_chief")
A3 = find("allied", "line_infantry", 3)
A3b = find("allied", "line_infantry", 3, 1)
ALC = find("allied", "light_cavalry")


def exp(pieces, **kw):
    return position(pieces, mode="expert", **kw)


def test_if_napoleon_falls_in_battle_the_game_ends_in_a_decisive_allied_victory():
    st = exp({A3: (5, 5), NAP: (5, 4), F3: (0, 0)}, active="allied")
    apply(st, act(st, type="attack", **{"from": [5, 5], "via": [5, 5], "target": [5, 4]}), [])
    assert st.outcome["winner"] == "allied" and st.outcome["reason"] == "napoleon_fell"


def test_if_wellington_falls_the_game_continues_with_two_actions_less():
    st = exp({F3: (5, 4), WEL: (5, 5), A3: (0, 9)})
    apply(st, act(st, type="attack", **{"from": [5, 4], "via": [5, 4], "target": [5, 5]}), [])
    assert st.phase == "play"
    apply(st, act(st, type="end_turn"), [])
    assert st.active == "allied" and st.actions_left == 1


def test_the_lines_of_retreat_cards_are_not_used():
    st = new_game(1, TABLE, "expert")
    assert st.lines == {}
    assert "lines_of_retreat" not in view(st, "allied")["sides"]["allied"]


def test_two_french_units_on_the_allied_centre_win_the_game():
    st = exp({F3: (4, 8), F3b: (6, 9), A3: (0, 6)})
    apply(st, act(st, type="move", **{"from": [4, 8], "to": [4, 9]}), [])
    assert st.outcome["winner"] == "french" and st.outcome["reason"] == "wellingtons_lines"


def test_two_french_units_on_an_allied_flank_lead_to_an_allied_retreat():
    st = exp({F3: (0, 8), F3b: (1, 9), A3: (6, 6)})
    apply(st, act(st, type="move", **{"from": [0, 8], "to": [0, 9]}), [])
    assert st.pursuit["defeated"] == "allied"  # the Pursuit: test_pursuit.py


def test_the_occupation_of_a_french_flank_or_centre_leads_to_a_french_retreat():
    st = exp({A3: (5, 1), A3b: (6, 0), F3: (0, 3)}, active="allied")
    apply(st, act(st, type="move", **{"from": [5, 1], "to": [5, 0]}), [])
    assert st.pursuit["defeated"] == "french"  # the Pursuit: test_pursuit.py


def test_hougoumont_is_occupied_by_two_allied_infantry_pieces_at_the_start():
    st = GAME.setup(2, {"variant": "expert"}, TABLE)
    GAME.apply(st, GAME.legal_actions(st, "allied")[0], GAME.dice(2, 0))
    inside = [st.at(r * 12 + c) for c, r in ((1, 4), (2, 4), (1, 5), (2, 5))]
    inside = [p for p in inside if p is not None]
    assert len(inside) == 2 and all("infantry" in p.type for p in inside)
    assert st.buildings["hougoumont"]["owner"] == "allied"


def test_ruling_r35_an_allied_placement_without_the_garrison_is_refused():
    st = new_game(1, TABLE, "expert")
    ids = [s.id for s in TABLE.army("allied")]
    squares = [[c, r] for r in range(6, 10) for c in range(12)]
    with pytest.raises(ValueError):
        apply(st, {"type": "deploy", "placement": dict(zip(ids, squares, strict=False))}, [])


def test_plancenoit_cavalry_and_artillery_cross_it_and_fire_chooses_units_or_village():
    st = exp({FLC: (9, 1), A3: (9, 3), FA: (10, 1)})
    moves = {tuple(a["to"]) for a in legal_actions(st, "french")
             if a["type"] == "move" and a["from"] == [9, 1]}
    assert (9, 2) in moves
    fires = [a for a in legal_actions(st, "french") if a["type"] == "fire"]
    assert {a.get("building") for a in fires} == {"plancenoit"}
    st2 = exp({FA: (10, 0), A3: (10, 2)})
    fires = [a for a in legal_actions(st2, "french") if a["type"] == "fire"]
    assert sorted(str(a.get("building")) for a in fires) == ["None", "plancenoit"]


def test_start_the_battle_early_the_french_move_first_at_9_30_without_14_pieces():
    st = GAME.setup(5, {"variant": "expert", "early_start": True}, TABLE)
    assert sum(p.where == "delayed" for p in st.pieces.values()) == 14
    GAME.apply(st, GAME.legal_actions(st, "allied")[0], GAME.dice(5, 0))
    GAME.apply(st, GAME.legal_actions(st, "french")[0], GAME.dice(5, 1))
    assert sum(p.where == "board" for p in st.side_pieces("french")) == 33
    while st.phase == "draft":
        GAME.apply(st, GAME.legal_actions(st, st.active)[0], [])
    assert st.active == "french" and view(st, None)["time"] == "09:30"


def test_ruling_r36_the_held_back_french_join_the_reserve_at_11():
    st = exp({F3: (0, 0), A3: (0, 9)}, turn=1, start=False)
    st.options["early_start"] = True
    for p in st.side_pieces("french"):
        if p.where == "reserve":
            p.where = "delayed"
    start_turn(st, [])
    assert not any(p.where == "delayed" for p in st.pieces.values())


@pytest.mark.parametrize("face,come", [(2, True), (1, False)])
def test_where_are_the_prussians_the_allied_die_at_turn_9(face, come):
    st = exp({F3: (0, 0), A3: (0, 9)}, active="allied", turn=9, start=False)
    st.options["grouchy"] = True
    start_turn(st, [])
    assert legal_actions(st, "allied") == [{"type": "roll_for_prussians", "side": "allied"}]
    apply(st, {"type": "roll_for_prussians"}, [face])
    assert st.options["prussians"] is come
    st.turn = 13
    start_turn(st, [])
    assert (sum(p.where == "board" for p in st.pieces.values()
                if p.spec.army == "prussian") == 2) is come
