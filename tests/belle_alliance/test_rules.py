"""One test per rule sentence of the rulebook (seeds/000), named after it, with forced dice.

They run on the test fixture edition (``fixture-v1.json``) unless the house edition is
named: the rules are the engine's, the tables the data's."""

from __future__ import annotations

import pytest

from belle_alliance import engine as e

from .helpers import al, fill, fixture, fr, game, house, kinds

# --- GAME COMPONENTS / GAME SETUP -------------------------------------------------------


def test_components_8_french_5_anglo_allied_1_prussian_card_18_14_6_markers() -> None:
    for cards in (fixture(), house()):
        french = cards.side_cards("french")
        allied = [c for c in cards.side_cards("allied") if c.kind != "prussians"]
        assert len(french) == 8 and len(allied) == 5
        assert len([c for c in cards.cards.values() if c.kind == "prussians"]) == 1
        assert sum(c.markers for c in french if c.kind == "corps") == 18
        assert sum(c.markers for c in allied if c.kind == "corps") == 14
        assert e.PRUSSIAN_MARKERS == 6


def test_setup_blue_markers_in_french_corps_red_in_allied_black_set_aside() -> None:
    s = game()
    for c in fixture().cards.values():
        if c.kind == "corps":
            assert s.markers[c.id] == c.markers > 0
    assert s.markers["blucher"] == 0 and s.reserve == 6


def test_setup_three_markers_in_grand_battery_and_plancenoit_french() -> None:
    s = game()
    assert s.markers["grand_battery"] == 3
    assert s.control["plancenoit"] == "french"


def test_setup_hougoumont_and_la_haye_sainte_anglo_allied() -> None:
    s = game()
    assert s.control["hougoumont"] == "allied" and s.control["la_haye_sainte"] == "allied"


def test_setup_morale_markers_on_10_and_time_marker_on_midday() -> None:
    s = game()
    assert s.morale == {"french": 10, "allied": 10}
    assert fixture().time_track[s.time] == "Midday"


# --- GAME RULES / TURN ORDER / PHASE SEQUENCES -------------------------------------------


def test_turn_order_french_phase_allied_phase_time_phase() -> None:
    s = game()
    assert s.to_move() == "french" and s.turn == 1
    ev = e.apply(s, fr("I", "orange"), [3])
    assert s.to_move() == "allied" and s.turn == 1
    assert kinds(ev, "phase") == [{"type": "phase", "side": "allied", "turn": 1}]
    ev = e.apply(s, al("orange", "I"), [3])
    assert s.to_move() == "french" and s.turn == 2
    assert kinds(ev, "phase")[-1] == {"type": "phase", "side": "french", "turn": 2}


def test_only_the_phasing_player_acts() -> None:
    s = game()
    assert e.legal_actions(s, "allied") == []
    with pytest.raises(e.IllegalAction):
        e.apply(s, al("orange", "I"), [3])


def test_player_chooses_an_action_with_one_corps_then_rolls_then_outcome_then_rout_test(
) -> None:
    s = game()
    fill(s, "allied", "reserve", 2)
    s.morale["allied"] = 3
    ev = e.apply(s, fr("I", "orange"), [3, 4])  # AC1 into the RT box; 4 > 3 routs
    assert [x["type"] for x in ev] == ["action", "roll", "casualty", "rout_test",
                                       "game_over"]


def test_game_continues_until_either_army_routs() -> None:
    s = game()
    fill(s, "allied", "reserve", 2)
    s.morale["allied"] = 3
    e.apply(s, fr("I", "orange"), [3, 4])
    assert e.outcome(s) == {"winner": "french", "reason": "rout test failed", "turn": 1}
    assert s.to_move() is None
    assert e.legal_actions(s, "french") == e.legal_actions(s, "allied") == []


# --- ACTIONS --------------------------------------------------------------------------


def test_french_choose_one_of_six_corps_cards_or_the_grand_battery() -> None:
    s = game()
    cards = {a["card"] for a in e.legal_actions(s, "french")}
    # VI may act only when the Prussians are on the battlefield (its card's requirement)
    assert cards == {"I", "II", "young_guard", "guard", "cavalry", "grand_battery"}
    s.markers["blucher"], s.reserve = 1, 5
    assert "VI" in {a["card"] for a in e.legal_actions(s, "french")}


def test_napoleon_once_per_game_makes_an_action_more_effective() -> None:
    s = game()  # fixture: Napoleon adds 2 to the die
    ev = e.apply(s, fr("I", "orange", napoleon=True), [3])
    roll = kinds(ev, "roll")[0]
    assert roll["dice"] == [3] and roll["modifier"] == 2 and roll["result"] == 5
    assert s.napoleon_used
    e.apply(s, al("orange", "I"), [3])
    assert not any(a.get("napoleon") for a in e.legal_actions(s, "french"))
    with pytest.raises(e.IllegalAction):
        e.apply(s, fr("I", "orange", napoleon=True), [3])


def test_napoleon_house_edition_rolls_two_dice_and_reads_the_higher() -> None:
    s = game(house())
    a = next(x for x in e.legal_actions(s, "french") if x["card"] == "grand_battery"
             and x["napoleon"])
    ev = e.apply(s, a, [2, 5])
    assert kinds(ev, "roll")[0]["dice"] == [2, 5]
    assert kinds(ev, "roll")[0]["result"] == 5


def test_allied_activate_one_of_four_corps_or_blucher() -> None:
    s = game(phase="allied")
    cards = {a["card"] for a in e.legal_actions(s, "allied")}
    assert cards == {"orange", "hill", "reserve", "uxbridge", "blucher", "wellington"}


def test_blucher_simulates_the_arrival_of_the_prussian_troops() -> None:
    s = game(phase="allied")
    ev = e.apply(s, al("blucher", action="march"), [4])  # fixture: 4-6 bring two
    assert s.markers["blucher"] == 2 and s.reserve == 4 and s.entered == 2
    assert kinds(ev, "enter")[0]["n"] == 2


def test_wellington_once_per_game_general_advance_counted_as_an_action() -> None:
    s = game(phase="allied")
    ev = e.apply(s, al("wellington", "guard", "advance"), [3])
    assert s.wellington_used and s.markers["guard"] == 2
    assert kinds(ev, "phase")  # it was the Allied player's action for the phase
    e.apply(s, fr("I", "orange"), [4])
    assert "wellington" not in {a["card"] for a in e.legal_actions(s, "allied")}


def test_repeated_actions_with_same_corps_allowed() -> None:
    s = game()
    e.apply(s, fr("I", "orange"), [4])
    e.apply(s, al("orange", "I"), [4])
    assert fr("I", "orange") in e.legal_actions(s, "french")


def test_corps_with_no_division_markers_cannot_be_activated() -> None:
    s = game()
    fill(s, "french", "young_guard", 1)
    assert "young_guard" not in {a["card"] for a in e.legal_actions(s, "french")}


def test_grand_battery_with_no_markers_cannot_be_activated() -> None:
    s = game()
    s.markers["grand_battery"] = 0
    assert "grand_battery" not in {a["card"] for a in e.legal_actions(s, "french")}


def test_counter_attack_only_if_opponents_last_action_was_by_its_target() -> None:
    s = game()
    e.apply(s, fr("I", "orange"), [4])
    legal = e.legal_actions(s, "allied")
    assert al("orange", "I", "counter") in legal
    assert al("orange", "guard", "counter") not in legal  # the Guard did not act
    assert al("uxbridge", "I", "counter") in legal


def test_counter_attacks_must_be_immediate() -> None:
    s = game()
    e.apply(s, fr("I", "orange"), [4])
    e.apply(s, al("hill", "II"), [4])  # the Allied player lets the moment pass
    e.apply(s, fr("II", "hill"), [4])
    legal = e.legal_actions(s, "allied")
    assert not any(a["action"] == "counter" for a in legal)


def test_counter_attack_is_played_instead_of_the_normal_action() -> None:
    s = game()
    e.apply(s, fr("I", "orange"), [4])
    ev = e.apply(s, al("orange", "I", "counter"), [3])
    assert kinds(ev, "action")[0]["counter"] is True
    assert s.to_move() == "french" and s.turn == 2


# --- DIE ROLL / OUTCOMES ------------------------------------------------------------------


def test_most_actions_roll_one_d6() -> None:
    s = game()
    ev = e.apply(s, fr("I", "orange"), [6, 1, 1])
    assert kinds(ev, "roll")[0]["dice"] == [6]


def test_modifiers_are_added_to_the_die_roll_results() -> None:
    s = game()
    s.control["la_haye_sainte"] = "french"  # fixture: I Corps +1 when LHS is French
    ev = e.apply(s, fr("I", "orange"), [2])
    assert kinds(ev, "roll")[0]["modifier"] == 1 and kinds(ev, "roll")[0]["result"] == 3
    assert s.markers["orange"] == 3  # row 3: AC1


def test_fc_ac_fm_am_outcomes_are_recorded() -> None:
    s = game()
    e.apply(s, fr("I", "orange"), [5])  # row 5: AC1 FC1
    assert s.tracks == {"french": ["I"], "allied": ["orange"]}
    e.apply(s, al("orange", "I"), [4])  # row 4 (Allied): FM2
    assert s.morale["french"] == 8


def test_morale_loss_moves_the_marker_that_many_squares() -> None:
    s = game()
    ev = e.apply(s, fr("I", "orange"), [4])  # AM2
    assert s.morale["allied"] == 8
    assert kinds(ev, "morale") == [{"type": "morale", "side": "allied", "loss": 2,
                                    "morale": 8, "why": "AM"}]


def test_each_casualty_moves_one_marker_to_the_casualty_track_top_to_bottom() -> None:
    s = game()
    ev = e.apply(s, fr("I", "orange"), [6])  # AC2 AM1
    assert [(x["box"], x["card"]) for x in kinds(ev, "casualty")] == [(1, "orange"),
                                                                    (2, "orange")]
    assert s.tracks["allied"] == ["orange", "orange"] and s.markers["orange"] == 2


def test_casualty_is_taken_from_the_corps_targeted_by_the_action() -> None:
    s = game()
    e.apply(s, fr("I", "reserve"), [3])
    assert s.markers["reserve"] == 2 and s.markers["orange"] == 4


def test_empty_target_owner_chooses_another_corps_to_take_the_casualty() -> None:
    s = game()
    fill(s, "allied", "reserve", 3)  # the Reserve is empty; the next box is an RT box
    ev = e.apply(s, fr("I", "reserve"), [3])
    assert kinds(ev, "choose_casualty")[0]["options"] == ["orange", "hill", "uxbridge"]
    assert s.to_move() == "allied" and s.phase == "french"
    assert e.legal_actions(s, "allied") == [{"type": "casualty", "card": c}
                                            for c in ("orange", "hill", "uxbridge")]
    ev = e.apply(s, {"type": "casualty", "card": "hill"}, [1])  # and its rout test
    assert s.markers["hill"] == 2 and s.tracks["allied"][-1] == "hill"
    assert kinds(ev, "rout_test")[0]["side"] == "allied"
    assert s.to_move() == "allied" and s.phase == "allied"


def test_corps_losing_its_last_marker_costs_one_extra_morale() -> None:
    s = game(phase="allied")
    ev = e.apply(s, al("wellington", "young_guard", "advance"), [3])  # FC1: its last one
    assert s.markers["young_guard"] == 0 and s.morale["french"] == 9
    assert kinds(ev, "morale")[0]["why"] == "young_guard lost its last marker"


def test_grand_battery_losing_its_last_marker_costs_one_extra_morale() -> None:
    s = game()
    s.markers["grand_battery"] = 1
    e.apply(s, fr("grand_battery", "orange", "bombard"), [1])  # GB1
    assert s.markers["grand_battery"] == 0 and s.morale["french"] == 9


# --- ROUT TESTS ---------------------------------------------------------------------------


def test_casualty_placed_in_an_rt_box_calls_for_a_rout_test() -> None:
    s = game()
    fill(s, "allied", "reserve", 2)
    ev = e.apply(s, fr("I", "orange"), [3, 1])
    assert kinds(ev, "rout_test") == [{"type": "rout_test", "side": "allied", "dice": [1],
                                       "modifier": 0, "morale": 10, "routed": False}]


def test_no_rout_test_before_the_rt_boxes() -> None:
    s = game()
    ev = e.apply(s, fr("I", "orange"), [3])
    assert kinds(ev, "rout_test") == []


def test_rout_test_result_higher_than_morale_routs() -> None:
    s = game()
    fill(s, "allied", "reserve", 2)
    s.morale["allied"] = 4
    e.apply(s, fr("I", "orange"), [3, 5])
    assert s.winner == "french" and s.reason == "rout test failed"


def test_rout_test_result_equal_to_morale_does_not_rout() -> None:
    s = game()
    fill(s, "allied", "reserve", 2)
    s.morale["allied"] = 4
    e.apply(s, fr("I", "orange"), [3, 4])
    assert s.winner is None and s.to_move() == "allied"


def test_routing_player_loses_and_opponent_is_awarded_victory() -> None:
    s = game(phase="allied")
    fill(s, "french", "II", 2)
    s.morale["french"] = 1
    e.apply(s, al("orange", "I"), [3, 2])
    assert e.outcome(s) == {"winner": "allied", "reason": "rout test failed", "turn": 1}


def test_both_armies_in_rt_zone_non_phasing_player_tests_first() -> None:
    s = game()
    fill(s, "allied", "reserve", 2)
    fill(s, "french", "II", 2)
    ev = e.apply(s, fr("I", "orange"), [5, 1, 1])  # AC1 FC1: both into RT boxes
    assert [x["side"] for x in kinds(ev, "rout_test")] == ["allied", "french"]


def test_phasing_player_tests_only_if_non_phasing_passes() -> None:
    s = game()
    fill(s, "allied", "reserve", 2)
    fill(s, "french", "II", 2)
    s.morale["allied"] = 2
    dice = iter([5, 3, 6])
    ev = e.apply(s, fr("I", "orange"), dice)
    assert [x["side"] for x in kinds(ev, "rout_test")] == ["allied"]
    assert s.winner == "french" and next(dice) == 6  # the French die was never rolled


def test_rout_test_modifiers_added_to_the_raw_d6_above_6() -> None:
    s = game(phase="allied")
    fill(s, "french", "II", 3)  # next box: RT+1
    s.morale["french"] = 6
    ev = e.apply(s, al("orange", "I"), [3, 6])
    assert kinds(ev, "rout_test")[0]["modifier"] == 1
    assert s.winner == "allied"  # 6 + 1 = 7 > 6


def test_french_rt_plus_1_box_adds_one() -> None:
    s = game(phase="allied")
    fill(s, "french", "II", 3)
    s.morale["french"] = 6
    e.apply(s, al("orange", "I"), [3, 5])  # 5 + 1 = 6: not higher
    assert s.winner is None


def test_french_rt_plus_2_highest_modifier_is_added() -> None:
    s = game(phase="allied")
    fill(s, "french", "II", 4)  # RT+1 filled; next box RT+2
    s.morale["french"] = 6
    ev = e.apply(s, al("orange", "I"), [3, 5])
    assert kinds(ev, "rout_test")[0]["modifier"] == 2 and s.winner == "allied"


def test_only_the_french_casualty_track_has_rt_plus_boxes() -> None:
    doc = dict(fixture().doc)
    doc["map"] = {**doc["map"], "casualty_tracks": {
        "french": ["", "RT", "B"], "allied": ["", "RT+1", "B"]}}
    with pytest.raises(e.CardDataError):
        e.parse_cards(doc)


def test_b_box_on_casualty_track_routs_immediately_without_a_rout_test() -> None:
    s = game()
    fill(s, "allied", "reserve", 3)
    fill(s, "allied", "hill", 1)  # next box: B
    ev = e.apply(s, fr("I", "orange"), [3])
    assert kinds(ev, "rout_test") == []
    assert s.winner == "french" and s.reason == "B box on the casualties track"


def test_b_box_on_morale_track_routs_immediately() -> None:
    s = game()
    s.morale["allied"] = 2
    ev = e.apply(s, fr("I", "orange"), [4])  # AM2
    assert s.morale["allied"] == 0 and s.winner == "french"
    assert s.reason == "B box on the morale track" and kinds(ev, "rout_test") == []


# --- TIME ---------------------------------------------------------------------------------


def test_time_advances_when_prussians_get_their_fifth_marker_onto_the_battlefield() -> None:
    s = game(phase="allied")
    s.markers["blucher"], s.reserve, s.entered = 4, 2, 4
    ev = e.apply(s, al("blucher", action="march"), [1])
    assert s.entered == 5 and s.time == 1
    assert kinds(ev, "time") == [{"type": "time", "reason": "prussians", "time": 1,
                                  "label": "4 pm"}]


def test_time_advances_when_both_armies_together_have_ten_casualties() -> None:
    s = game(house(), phase="allied")
    fill(s, "french", "I", 4)
    fill(s, "allied", "reserve", 4)
    fill(s, "allied", "orange", 2)
    ev = e.apply(s, {"type": "act", "card": "hill", "action": "volley", "target": "II"},
                 [1] * 5)
    assert kinds(ev, "time")[0]["reason"] == "casualties" and s.time == 1


def test_time_advances_only_once_per_reason() -> None:
    s = game(house(), phase="allied")
    fill(s, "french", "I", 4)
    fill(s, "allied", "reserve", 4)
    fill(s, "allied", "orange", 2)
    a = {"type": "act", "card": "hill", "action": "volley", "target": "II"}
    e.apply(s, a, [1] * 5)
    e.apply(s, e.legal_actions(s, "french")[0], [1] * 5)
    ev = e.apply(s, a, [1] * 5)
    assert kinds(ev, "time") == [] and s.time == 1


# --- PLANCENOIT / HOUGOUMONT / LA HAYE SAINTE ---------------------------------------------


def test_prussians_capture_plancenoit_replacing_the_french_marker() -> None:
    s = game(phase="allied")
    s.markers["blucher"], s.reserve, s.entered = 1, 5, 1
    ev = e.apply(s, al("blucher", "VI"), [6])
    assert s.control["plancenoit"] == "allied"
    assert kinds(ev, "capture") == [{"type": "capture", "place": "plancenoit",
                                     "side": "allied"}]


def test_reille_ii_corps_can_capture_hougoumont() -> None:
    s = game()
    e.apply(s, fr("II", "orange"), [6])
    assert s.control["hougoumont"] == "french"


def test_derlon_i_corps_can_capture_la_haye_sainte() -> None:
    s = game()
    e.apply(s, fr("I", "orange"), [6])
    assert s.control["la_haye_sainte"] == "french"


def test_house_captures_belong_to_the_named_corps() -> None:
    """In the house edition only Reille's II Corps captures Hougoumont, d'Erlon's I Corps La
    Haye Sainte, and only the Prussians (and the Young Guard, back) Plancenoit."""
    captures: dict[str, set[str]] = {}
    for card in house().cards.values():
        for a in card.actions:
            for row in a.table:
                if row.capture:
                    captures.setdefault(row.capture, set()).add(card.id)
    assert captures == {"hougoumont": {"II"}, "la_haye_sainte": {"I"},
                        "plancenoit": {"blucher", "young_guard"}}
