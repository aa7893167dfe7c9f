"""001 §4 and §7: movement and the actions of a turn."""

from stratego.engine import apply, legal_actions

from .helpers import act, at, find, position

LI = find("french", "light_infantry", 1)
LINE = find("french", "line_infantry", 3)
LC = find("french", "light_cavalry")
ART = find("french", "artillery")


def destinations(st, c, r):
    return {tuple(a["to"]) for a in legal_actions(st, st.active)
            if a["type"] == "move" and a["from"] == [c, r]}


def test_light_infantry_moves_three_spaces_and_need_not_be_in_a_straight_line():
    st = position({LI: (5, 2)})
    dests = destinations(st, 5, 2)
    assert (5, 5) in dests and (6, 4) in dests and (7, 3) in dests
    assert (5, 6) not in dests and (7, 4) not in dests
    assert all(abs(c - 5) + abs(r - 2) <= 3 for c, r in dests)


def test_line_infantry_moves_two_spaces():
    st = position({LINE: (5, 2)})
    dests = destinations(st, 5, 2)
    assert (5, 4) in dests and (6, 3) in dests and (5, 5) not in dests


def test_light_cavalry_moves_unrestricted_in_one_direction_as_long_as_the_spaces_are_vacant():
    st = position({LC: (0, 0), LINE: (0, 7)})
    dests = destinations(st, 0, 0)
    assert {(0, r) for r in range(1, 7)} | {(c, 0) for c in range(1, 12)} == dests


def test_artillery_can_only_move_one_space_each_action():
    st = position({ART: (5, 2)})
    assert destinations(st, 5, 2) == {(5, 3), (5, 1), (4, 2), (6, 2)}


def test_there_can_only_be_one_piece_on_a_square_and_pieces_cannot_jump():
    others = {find("french", "line_infantry", 3, k): sq
              for k, sq in enumerate([(5, 3), (4, 2), (6, 2), (5, 1)])}
    st = position({LI: (5, 2), **others})
    assert destinations(st, 5, 2) == set()
    st = position({LC: (0, 0), LINE: (0, 1)})
    assert all(r == 0 for _, r in destinations(st, 0, 0))


def test_players_may_perform_three_actions_per_turn():
    st = position({LC: (0, 0)}, active="french")
    for k in range(3):
        assert st.active == "french" and st.actions_left == 3 - k
        apply(st, act(st, type="move", **{"from": [k % 2 * 5, 0], "to": [(k + 1) % 2 * 5, 0]}),
              [])
    assert st.active == "allied" and st.turn == 2


def test_a_player_may_end_his_turn_before_his_actions_are_used():
    st = position({LC: (0, 0)}, active="allied")
    apply(st, act(st, type="end_turn"), [])
    assert st.active == "french" and st.turn == 1


def test_a_unit_in_reserve_is_placed_on_the_bottom_row_and_this_costs_one_action():
    st = position({LC: (0, 0)}, active="french")
    enters = [a for a in legal_actions(st, "french") if a["type"] == "enter"]
    assert {tuple(a["to"]) for a in enters if a["piece"] == LINE} == {(c, 0) for c in
                                                                     range(1, 12)}
    apply(st, act(st, type="enter", piece=LINE, to=[3, 0]), [])
    assert at(st, 3, 0) == LINE and st.actions_left == 2


def test_the_allies_enter_reserves_on_their_own_bottom_row():
    a_line = find("allied", "line_infantry", 3)
    st = position({}, active="allied")
    assert {tuple(a["to"]) for a in legal_actions(st, "allied")
            if a["type"] == "enter" and a["piece"] == a_line} == {(c, 9) for c in range(12)}
