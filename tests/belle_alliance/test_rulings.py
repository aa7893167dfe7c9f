"""One test per ruling of belle_alliance/RULINGS.md (R1-R20), with forced dice."""

from __future__ import annotations

import copy

from belle_alliance import engine as e

from .helpers import al, fill, fixture, fr, game, house, kinds


def test_r1_time_moves_in_the_time_phase_once_per_reason() -> None:
    s = game(house())
    fill(s, "french", "I", 4)
    fill(s, "allied", "reserve", 4)
    fill(s, "allied", "orange", 2)  # ten casualties during the French phase
    s.markers["blucher"], s.reserve, s.entered = 4, 2, 4
    e.apply(s, e.legal_actions(s, "french")[0], [1] * 5)
    assert s.time == 0  # not before the time phase
    ev = e.apply(s, {"type": "act", "card": "blucher", "action": "march", "target": None},
                 [1] * 5)  # the fifth Prussian marker enters too
    assert [x["reason"] for x in kinds(ev, "time")] == ["prussians", "casualties"]
    assert s.time == 2 == len(house().time_track) - 1


def test_r1_time_marker_stops_on_the_last_box() -> None:
    s = game(house(), phase="allied")
    s.time = 2
    s.markers["blucher"], s.reserve, s.entered = 4, 2, 4
    e.apply(s, {"type": "act", "card": "blucher", "action": "march", "target": None}, [1])
    assert s.time == 2 and s.time_reasons == ["prussians"]


def test_r2_no_turn_limit() -> None:
    s = game()
    s.turn = 500
    assert e.legal_actions(s, "french") and s.to_move() == "french"
    e.apply(s, fr("I", "orange"), [3])
    assert s.winner is None


def test_r3_modified_result_above_6_reads_row_6() -> None:
    s = game()
    s.control["la_haye_sainte"] = "french"
    ev = e.apply(s, fr("I", "orange"), [6])
    assert kinds(ev, "roll")[0]["result"] == 6


def test_r3_modified_result_below_1_reads_row_1() -> None:
    doc = copy.deepcopy(dict(fixture().doc))
    doc["edition"] = "test-minus"
    card = next(c for c in doc["cards"] if c["id"] == "II")
    card["actions"][0]["modifiers"] = [{"value": -3}]
    s = game(e.parse_cards(doc))
    ev = e.apply(s, fr("II", "orange"), [2])
    assert kinds(ev, "roll")[0]["result"] == 1 and s.tracks["french"] == ["II"]


def test_r4_napoleon_goes_with_any_french_action_before_the_roll() -> None:
    s = game()
    assert fr("grand_battery", "orange", "bombard", napoleon=True) in e.legal_actions(
        s, "french")
    s.last_card["allied"] = "uxbridge"
    assert fr("cavalry", "uxbridge", "counter", napoleon=True) in e.legal_actions(
        s, "french")
    ev = e.apply(s, fr("cavalry", "uxbridge", "counter", napoleon=True), [1])
    assert kinds(ev, "action")[0]["napoleon"] and kinds(ev, "roll")[0]["result"] == 3


def test_r5_acting_armys_casualties_come_from_the_acting_corps() -> None:
    s = game()
    e.apply(s, fr("I", "orange"), [1])  # row 1: own casualty
    assert s.tracks["french"] == ["I"] and s.markers["I"] == 4


def test_r5_card_without_markers_owner_chooses() -> None:
    s = game(phase="allied")
    ev = e.apply(s, al("wellington", "guard", "advance"), [1])  # AC1 on Wellington's action
    assert kinds(ev, "choose_casualty")[0]["side"] == "allied"
    assert s.to_move() == "allied"


def test_r6_grand_battery_markers_are_not_division_markers() -> None:
    s = game()
    assert "grand_battery" not in e.candidates(s, "french")
    e.apply(s, fr("I", "orange"), [3])
    ev = e.apply(s, al("uxbridge", "I", "counter"), [4])  # FC1 GB1
    assert s.markers["grand_battery"] == 2 and s.tracks["french"] == ["I"]
    assert kinds(ev, "battery") == [{"type": "battery", "lost": 1, "left": 2}]


def test_r7_no_marker_left_nothing_is_placed() -> None:
    s = game(phase="allied")
    for c in ("I", "II", "VI", "young_guard", "guard", "cavalry"):
        s.markers[c] = 0
    ev = e.apply(s, al("orange", "I"), [3])
    assert kinds(ev, "no_marker") == [{"type": "no_marker", "side": "french"}]
    assert s.tracks["french"] == []


def test_r8_one_rout_test_per_army_per_action() -> None:
    s = game()
    fill(s, "allied", "reserve", 2)  # boxes 3 and 4 are RT
    ev = e.apply(s, fr("I", "orange"), [6, 1, 1])  # AC2 AM1
    assert len(kinds(ev, "rout_test")) == 1


def test_r8_rout_test_after_the_whole_outcome_with_morale_as_it_stands() -> None:
    s = game()
    fill(s, "allied", "reserve", 2)
    s.morale["allied"] = 5
    ev = e.apply(s, fr("guard", "orange"), [6, 5])  # AC2 then AM1: morale 4 when testing
    assert kinds(ev, "rout_test")[0]["morale"] == 4 and s.winner == "french"


def test_r9_b_box_before_rout_tests_and_non_phasing_army_first() -> None:
    s = game()
    fill(s, "allied", "reserve", 3)
    fill(s, "allied", "hill", 1)  # allied: next box B
    fill(s, "french", "II", 4)
    fill(s, "french", "cavalry", 1)  # french: next box B
    ev = e.apply(s, fr("I", "orange"), [5])  # AC1 FC1: both reach B
    assert s.winner == "french" and kinds(ev, "rout_test") == []
    assert kinds(ev, "game_over")[0]["loser"] == "allied"


def test_r10_prussian_casualties_go_on_the_anglo_allied_track() -> None:
    s = game()
    s.markers["blucher"], s.reserve, s.entered = 2, 4, 2
    e.apply(s, fr("VI", "blucher"), [3])
    assert s.tracks["allied"] == ["blucher"] and s.markers["blucher"] == 1
    assert s.tracks["french"] == []


def test_r11_pass_only_when_nothing_is_legal() -> None:
    s = game()
    for c in ("I", "II", "young_guard", "guard", "cavalry", "grand_battery"):
        s.markers[c] = 0  # VI needs Prussians on the battlefield
    assert e.legal_actions(s, "french") == [{"type": "pass"}]
    ev = e.apply(s, {"type": "pass"}, [])
    assert s.phase == "allied" and s.last_card["french"] is None
    assert not any("dice" in x for x in ev)
    assert {"type": "pass"} not in e.legal_actions(s, "allied")


def test_r12_fifth_prussian_marker_counts_markers_entered() -> None:
    s = game(phase="allied")
    s.reserve, s.entered, s.markers["blucher"] = 2, 4, 1
    s.tracks["allied"] = ["blucher"] * 3
    e.apply(s, al("blucher", action="march"), [1])
    assert s.entered == 5 and s.markers["blucher"] == 2 and s.time == 1


def test_r13_blucher_acts_with_no_marker_on_the_battlefield() -> None:
    s = game(phase="allied")
    assert al("blucher", action="march") in e.legal_actions(s, "allied")
    assert al("blucher", "VI") not in e.legal_actions(s, "allied")
    s.reserve, s.entered = 0, 6
    s.tracks["allied"] = ["blucher"] * 6
    assert not any(a.get("card") == "blucher" for a in e.legal_actions(s, "allied"))


def test_r14_any_blucher_action_opens_a_counter_attack_on_the_prussians() -> None:
    s = game(phase="allied")
    e.apply(s, al("blucher", action="march"), [1])
    assert fr("young_guard", "blucher", "counter") in e.legal_actions(s, "french")


def test_r14_wellington_and_a_pass_open_no_corps_counter_attack() -> None:
    s = game(phase="allied")
    e.apply(s, al("wellington", "I", "advance"), [4])
    assert not any(a["action"] == "counter" for a in e.legal_actions(s, "french"))
    assert s.last_card["allied"] == "wellington"


def test_r15_morale_never_below_the_b_box() -> None:
    s = game()
    s.morale["allied"] = 1
    e.apply(s, fr("I", "orange"), [4])  # AM2
    assert s.morale["allied"] == 0 and s.winner == "french"


def test_r16_capture_effects_and_retaking_by_card() -> None:
    s = game(phase="allied")
    s.markers["blucher"], s.reserve, s.entered = 2, 4, 2
    ev = e.apply(s, al("blucher", "VI"), [6])  # FC2 FM1, capture: FM1 more (fixture map)
    assert s.control["plancenoit"] == "allied" and s.morale["french"] == 7
    assert [x["why"] for x in kinds(ev, "morale")] == ["FM", "plancenoit taken",
                                                      "VI lost its last marker"]
    ev = e.apply(s, fr("young_guard", "blucher", "counter"), [6, 1])
    assert s.control["plancenoit"] == "french"


def test_r16_capture_of_a_place_already_held_does_nothing() -> None:
    s = game()
    s.control["la_haye_sainte"] = "french"
    ev = e.apply(s, fr("I", "orange"), [6])
    assert kinds(ev, "capture") == [] and s.morale["allied"] == 9


def test_r17_an_empty_corps_may_be_targeted() -> None:
    s = game()
    fill(s, "allied", "hill", 3)
    assert fr("II", "hill") in e.legal_actions(s, "french")


def test_r18_recording_order_and_a_lone_candidate_is_not_asked() -> None:
    s = game()
    for c in ("hill", "reserve", "uxbridge"):
        s.markers[c] = 0
    s.markers["orange"] = 1
    ev = e.apply(s, fr("I", "reserve"), [5])  # AC1 (Reserve empty: Orange, the only one), FC1
    assert kinds(ev, "choose_casualty") == []
    assert [x["side"] for x in kinds(ev, "casualty")] == ["allied", "french"]
    assert s.tracks["allied"] == ["orange"]


def test_r19_prussians_last_marker_costs_morale_each_time() -> None:
    s = game()
    s.markers["blucher"], s.reserve, s.entered = 1, 5, 1
    e.apply(s, fr("VI", "blucher"), [3])
    assert s.markers["blucher"] == 0 and s.morale["allied"] == 9
    e.apply(s, al("blucher", action="march"), [1])
    e.apply(s, fr("VI", "blucher"), [3])
    assert s.morale["allied"] == 8


def test_r20_dice_order_action_die_then_tests_non_phasing_first() -> None:
    s = game(house())
    fill(s, "allied", "uxbridge", 4)
    fill(s, "allied", "hill", 3)  # next Allied box: RT
    a = fr("grand_battery", "reserve", "bombard", napoleon=True)
    dice = iter([1, 4, 2, 6])
    ev = e.apply(s, a, dice)  # best of 1 and 4: row 4 (AC1); the Allied test rolls the 2
    assert kinds(ev, "roll")[0]["dice"] == [1, 4]
    assert kinds(ev, "rout_test")[0]["dice"] == [2] and next(dice) == 6
