"""001 §4 'Heavy Cavalry', 'Regaining strength'; §5 the commanders; RULINGS R11, R16."""

from stratego.engine import apply, legal_actions

from .helpers import act, at, find, position

HC = find("french", "heavy_cavalry", 4)
A3 = find("allied", "line_infantry", 3)
A3b = find("allied", "line_infantry", 3, 1)
A1 = find("allied", "light_infantry", 1)
NEY = find("french", "commander")
NAP = find("french", "commander_in_chief")
UX = find("allied", "commander")
WEL = find("allied", "commander_in_chief")


def test_heavy_cavalry_loses_1_strength_each_time_it_charges_a_piece():
    st = position({HC: (5, 3), A1: (5, 5), A3: (5, 7)})
    apply(st, act(st, type="attack", **{"from": [5, 3], "via": [5, 4], "target": [5, 5]}), [])
    assert st.pieces[HC].strength == 3 and st.pieces[HC].weakened == 1
    # now of the same strength as the line infantry: the die decides
    apply(st, act(st, type="attack", **{"from": [5, 5], "via": [5, 6], "target": [5, 7]}),
          [1])
    assert st.pieces[HC].strength == 2


def test_heavy_cavalry_is_taken_off_only_after_the_opponent_could_counter_charge():
    st = position({HC: (5, 3), A1: (5, 5)})
    apply(st, act(st, type="attack", **{"from": [5, 3], "via": [5, 4], "target": [5, 5]}), [])
    assert not [a for a in legal_actions(st, "french") if a["type"] == "rest"]
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="end_turn"), [])
    assert [a for a in legal_actions(st, "french") if a["type"] == "rest"]


def test_taking_them_off_costs_no_action_putting_them_back_does_with_all_their_strength():
    st = position({HC: (5, 3), A1: (5, 5)})
    apply(st, act(st, type="attack", **{"from": [5, 3], "via": [5, 4], "target": [5, 5]}), [])
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="rest", **{"from": [5, 5]}), [])
    assert st.pieces[HC].where == "resting" and st.actions_left == 3
    # R11: off the board for at least one game turn
    assert not [a for a in legal_actions(st, "french") if a.get("piece") == HC]
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="enter", piece=HC, to=[4, 0]), [])
    assert st.pieces[HC].strength == 4 and st.actions_left == 2


def test_commanders_are_light_cavalry_of_strength_5_and_dont_lose_strength_after_a_charge():
    st = position({NEY: (5, 0), A3: (5, 6), A3b: (5, 8)})
    assert st.pieces[NEY].strength == 5
    apply(st, act(st, type="attack", **{"from": [5, 0], "via": [5, 5], "target": [5, 6]}), [])
    assert st.pieces[NEY].strength == 5 and at(st, 5, 6) == NEY


def test_losing_the_commander_costs_one_action_in_the_following_turns():
    st = position({NAP: (0, 0), UX: (11, 9)}, active="french")
    st.lift(st.pieces[NEY], "eliminated")
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="end_turn"), [])
    assert st.actions_left == 2


def test_losing_the_commander_in_chief_costs_two_actions():
    st = position({NEY: (0, 0), UX: (11, 9)}, active="allied")
    st.lift(st.pieces[NAP], "eliminated")
    apply(st, act(st, type="end_turn"), [])
    assert st.active == "french" and st.actions_left == 1
    assert st.phase == "play"  # Basic game: it goes on


def test_commanders_in_chief_destroy_all_units_when_they_attack():
    a6 = find("allied", "line_infantry", 5)
    st = position({NAP: (5, 4), a6: (5, 5)})
    apply(st, act(st, type="attack", **{"from": [5, 4], "via": [5, 4], "target": [5, 5]}), [])
    assert st.pieces[a6].where == "eliminated" and at(st, 5, 5) == NAP


def test_commanders_in_chief_attacked_by_any_piece_are_eliminated():
    st = position({A1: (5, 5), NAP: (5, 4)}, active="allied")
    apply(st, act(st, type="attack", **{"from": [5, 5], "via": [5, 5], "target": [5, 4]}), [])
    assert st.pieces[NAP].where == "eliminated" and at(st, 5, 4) == A1


def test_the_game_is_lost_if_a_player_loses_his_commander_and_commander_in_chief():
    st = position({A1: (5, 5), NAP: (5, 4), UX: (11, 9), WEL: (10, 9)}, active="allied")
    st.lift(st.pieces[NEY], "eliminated")
    events = apply(st, act(st, type="attack", **{"from": [5, 5], "via": [5, 5],
                                                 "target": [5, 4]}), [])
    assert st.outcome == {"winner": "allied", "reason": "commanders_lost", "turn": 1}
    assert events[-1]["type"] == "game_over"
    assert legal_actions(st, "french") == legal_actions(st, "allied") == []
