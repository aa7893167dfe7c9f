"""001 §8: attacks and the Battle die (forced dice); RULINGS R7, R8, R10."""

import pytest

from stratego.engine import DiceExhausted, apply, legal_actions

from .helpers import act, at, find, position

F3 = find("french", "line_infantry", 3)
F3b = find("french", "line_infantry", 3, 1)
F4 = find("french", "line_infantry", 4)
F5 = find("french", "line_infantry", 5)
A3 = find("allied", "line_infantry", 3)
A3b = find("allied", "line_infantry", 3, 1)
A3c = find("allied", "line_infantry", 3, 2)
A4 = find("allied", "line_infantry", 4)
A1 = find("allied", "light_infantry", 1)
FLC = find("french", "light_cavalry")
FLCb = find("french", "light_cavalry", skip=1)
ALC = find("allied", "light_cavalry")
BLUE, RED, BLUE_PLUS, RED_PLUS, BLUE_R, RED_R = 1, 2, 3, 4, 5, 6


def attack(st, frm, target, via=None, dice=()):
    a = act(st, type="attack", **{"from": list(frm), "via": list(via or frm),
                                  "target": list(target)})
    return apply(st, a, list(dice))


def test_the_unit_with_the_lowest_strength_is_eliminated_and_given_to_the_opponent():
    st = position({F4: (5, 4), A3: (5, 5)})
    attack(st, (5, 4), (5, 5))
    assert st.pieces[A3].where == "eliminated"


def test_if_the_attacking_unit_is_victorious_it_takes_the_place_of_the_eliminated_unit():
    st = position({F4: (5, 4), A3: (5, 5)})
    attack(st, (5, 4), (5, 5))
    assert at(st, 5, 5) == F4 and at(st, 5, 4) is None


def test_if_the_defending_unit_wins_it_remains_firmly_on_the_square():
    st = position({F3: (5, 4), A4: (5, 5)})
    attack(st, (5, 4), (5, 5))
    assert at(st, 5, 5) == A4 and st.pieces[F3].where == "eliminated"


def test_both_pieces_are_then_revealed():
    st = position({F5: (5, 4), A4: (5, 5), A3: (0, 9)})
    events = attack(st, (5, 4), (5, 5))
    assert st.pieces[F5].revealed and st.pieces[A4].revealed and not st.pieces[A3].revealed
    combat = next(e for e in events if e["type"] == "combat")
    assert combat["attacker"]["id"] == F5 and combat["defender"]["strength"] == 4


def test_an_attack_is_always_the_end_of_an_action_but_a_piece_may_move_then_attack():
    li = find("french", "light_infantry", 2)
    a1 = find("allied", "light_infantry", 1)
    st = position({li: (5, 3), a1: (6, 5)})
    attacks = [a for a in legal_actions(st, "french") if a["type"] == "attack"]
    assert {tuple(a["via"]) for a in attacks} == {(6, 4), (5, 5)}  # within 2, then attack
    attack(st, (5, 3), (6, 5), via=(6, 4))
    assert at(st, 6, 5) == li and st.actions_left == 2
    # and it may attack again in the next action of the same turn
    assert any(a.get("from") == [6, 5] for a in legal_actions(st, "french"))


def test_cavalry_attacks_the_first_piece_in_its_line():
    st = position({FLC: (5, 0), A1: (5, 6), A3: (5, 7)})
    attacks = [a for a in legal_actions(st, "french") if a["type"] == "attack"]
    assert attacks == [{"type": "attack", "side": "french", "from": [5, 0], "via": [5, 5],
                        "target": [5, 6]}]
    attack(st, (5, 0), (5, 6), via=(5, 5))
    assert at(st, 5, 6) == FLC


def test_on_the_same_strength_the_attacker_rolls_the_die_blue():
    st = position({F3: (5, 4), A3: (5, 5)})
    events = attack(st, (5, 4), (5, 5), dice=[BLUE])
    assert at(st, 5, 5) == F3 and st.pieces[A3].where == "eliminated"
    assert next(e for e in events if e["type"] == "combat")["face"] == "Blue"


def test_the_die_red_the_red_piece_has_gained_a_victory():
    st = position({F3: (5, 4), A3: (5, 5)})
    attack(st, (5, 4), (5, 5), dice=[RED])
    assert st.pieces[F3].where == "eliminated" and at(st, 5, 5) == A3  # R7: it stays


def test_the_die_is_needed_only_on_the_same_strength():
    st = position({F3: (5, 4), A3: (5, 5)})
    with pytest.raises(DiceExhausted):
        attack(st, (5, 4), (5, 5), dice=[])


def test_blue_plus_the_blue_piece_attacks_the_next_adjacent_piece_in_the_same_direction():
    st = position({F3: (5, 4), A3: (5, 5), A1: (5, 6)})
    attack(st, (5, 4), (5, 5), dice=[BLUE_PLUS])
    assert st.pieces[A3].where == "eliminated" and st.pieces[A1].where == "eliminated"
    assert at(st, 5, 6) == F3


def test_plus_again_on_the_same_strength_the_dice_has_to_be_thrown_again():
    st = position({F3: (5, 4), A3: (5, 5), A3b: (5, 6), A3c: (5, 7)})
    attack(st, (5, 4), (5, 5), dice=[BLUE_PLUS, BLUE_PLUS, RED])
    assert [st.pieces[p].where for p in (A3, A3b, F3)] == ["eliminated"] * 3
    assert at(st, 5, 7) == A3c


def test_plus_if_the_adjacent_field_is_unoccupied_or_the_edge_nothing_happens():
    st = position({F3: (5, 4), A3: (5, 5), A1: (5, 7)})
    events = attack(st, (5, 4), (5, 5), dice=[BLUE_PLUS])
    assert at(st, 5, 5) == F3 and at(st, 5, 7) == A1
    assert events[-1] == {"type": "rampage_ends", "at": [5, 5]}
    st = position({F3: (5, 8), A3: (5, 9)})
    attack(st, (5, 8), (5, 9), dice=[BLUE_PLUS])
    assert at(st, 5, 9) == F3


def test_plus_even_if_the_next_piece_is_his_own_a_lower_one_is_eliminated():
    """001's example: 'the blue cavalry piece attacks its own blue cavalry piece!'"""
    st = position({FLC: (5, 4), ALC: (5, 5), F3: (5, 6)})
    attack(st, (5, 4), (5, 5), dice=[BLUE_PLUS])
    assert st.pieces[ALC].where == "eliminated"
    # the light cavalry (2) attacks its own line infantry (3) and loses
    assert st.pieces[FLC].where == "eliminated" and at(st, 5, 6) == F3


def test_ruling_r8_plus_on_an_own_piece_of_the_same_strength_the_die_colour_decides():
    st = position({FLC: (5, 4), ALC: (5, 5), FLCb: (5, 6)})
    attack(st, (5, 4), (5, 5), dice=[BLUE_PLUS, RED_PLUS])
    assert st.pieces[FLC].where == "eliminated" and at(st, 5, 6) == FLCb
    st = position({FLC: (5, 4), ALC: (5, 5), FLCb: (5, 6), F3: (5, 7)})
    attack(st, (5, 4), (5, 5), dice=[BLUE_PLUS, BLUE_PLUS])
    # the colour of its own army: the other piece falls; '+' does not go on (R8)
    assert st.pieces[FLCb].where == "eliminated" and at(st, 5, 6) == FLC and at(st, 5, 7) == F3


def test_red_plus_the_red_piece_takes_the_place_of_the_blue_and_attacks_the_next_piece():
    # R7: the defender goes on along the line of the attack, away from where it came from
    f1 = find("french", "light_infantry", 1)
    st = position({F3: (5, 4), f1: (5, 3), A3: (5, 5)})
    attack(st, (5, 4), (5, 5), dice=[RED_PLUS])
    assert st.pieces[F3].where == "eliminated" and st.pieces[f1].where == "eliminated"
    assert at(st, 5, 3) == A3


def test_red_plus_also_against_his_ally():
    p1 = find("prussian", "light_infantry", 1)
    st = position({F3: (5, 4), A3: (5, 5), p1: (5, 3)})
    attack(st, (5, 4), (5, 5), dice=[RED_PLUS])
    assert st.pieces[p1].where == "eliminated" and at(st, 5, 3) == A3


def test_blue_r_the_red_piece_withdraws_off_the_board_and_comes_back_next_turn():
    st = position({F3: (5, 4), A3: (5, 5)}, active="french")
    events = attack(st, (5, 4), (5, 5), dice=[BLUE_R])
    assert at(st, 5, 5) == F3 and st.pieces[A3].where == "withdrawn"
    assert any(e["type"] == "withdrawn" for e in events)
    apply(st, act(st, type="end_turn"), [])
    # R10: from its owner's next turn, for an action, on its back row
    assert st.active == "allied"
    enter = act(st, type="enter", piece=A3, to=[0, 9])
    apply(st, enter, [])
    assert at(st, 0, 9) == A3 and st.actions_left == 2


def test_red_r_the_blue_piece_withdraws_and_may_come_back_only_starting_next_turn():
    st = position({F3: (5, 4), A3: (5, 5)}, active="french")
    attack(st, (5, 4), (5, 5), dice=[RED_R])
    assert at(st, 5, 5) == A3 and st.pieces[F3].where == "withdrawn"
    assert not any(a["type"] == "enter" and a["piece"] == F3
                   for a in legal_actions(st, "french"))
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="end_turn"), [])
    assert any(a["type"] == "enter" and a["piece"] == F3 for a in legal_actions(st, "french"))


def test_a_withdrawn_commander_costs_an_action_unless_reinstated_that_turn():
    ney = find("french", "commander")
    a5 = find("allied", "line_infantry", 5)
    st = position({ney: (5, 4), a5: (5, 5)}, active="french")
    attack(st, (5, 4), (5, 5), dice=[RED_R])
    assert st.pieces[ney].where == "withdrawn"
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="end_turn"), [])
    assert st.active == "french" and st.actions_left == 2  # one action lost
    apply(st, act(st, type="enter", piece=ney, to=[0, 0]), [])
    assert st.actions_left == 2  # returning costs an action, and the lost one comes back
