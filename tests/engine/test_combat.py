"""7.x combat clauses, with forced dice."""

import pytest

from battles.engine import IllegalAction

from .helpers import (
    BR_CAV,
    BR_FOOT,
    BR_INF,
    FR_CAV,
    FR_FOOT,
    FR_FOOT_12,
    FR_GUARD,
    FR_HORSE,
    FR_INF,
    blank,
    event,
    fire,
    legal,
    move,
    put,
)


def _duel(attacker=FR_INF, target=BR_INF, **kw):
    st = blank()
    a = put(st, attacker, "allied_center", **kw)
    t = put(st, target, "allied_center")
    return st, a, t


def test_7_1_one_die_per_cv():
    st, a, t = _duel()
    ev = fire(st, a, t, [2, 2, 2])
    assert len(event(ev, "fire")["dice"]) == 3  # cv3


def test_7_1_a_card_that_fires_is_revealed():
    st = blank()
    a = put(st, FR_INF, "allied_center", up=False)
    t = put(st, BR_INF, "allied_center")
    ev = fire(st, a, t, [2, 2, 2])
    assert a.up and event(ev, "reveal")["piece"] == a.pid


@pytest.mark.parametrize("f,lowest", [(1, 6), (2, 5), (3, 4), (4, 3)])
def test_7_2_firepower_table(f, lowest):
    from battles.engine.combat import hit_numbers

    assert hit_numbers(f) == lowest


def test_7_2_f2_hits_on_five_six():
    st, a, t = _duel()
    ev = fire(st, a, t, [4, 5, 6])
    assert event(ev, "fire")["hits"] == 2 and t.hits == 2


def test_7_2_f3_hits_on_four_five_six():
    st = blank(active="allied")
    a = put(st, BR_INF, "french_center")  # British line F3
    t = put(st, FR_INF, "french_center")
    ev = fire(st, a, t, [3, 4, 6])
    assert event(ev, "fire")["power"] == 3 and t.hits == 2


def test_7_2_f1_hits_only_on_six():
    st = blank()
    a = put(st, FR_CAV, "allied_center")
    t = put(st, BR_INF, "allied_center")
    ev = fire(st, a, t, [5, 5, 6, 1])
    assert event(ev, "fire")["power"] == 1 and t.hits == 1


def test_7_2_f4_hits_on_three_to_six():
    st = blank()
    a = put(st, FR_FOOT, "french_center")  # F1/F3; +1 vs a Column (9.2) at short range
    t = put(st, BR_INF, "french_center", form="column")
    ev = fire(st, a, t, [2, 3, 4])
    assert event(ev, "fire")["power"] == 4 and t.hits == 2


def test_7_21_infantry_cannot_fire_unengaged():
    st = blank()
    a = put(st, FR_INF, "french_center")
    put(st, BR_INF, "allied_center")
    assert not [x for x in legal(st, "french", "fire") if x["piece"] == a.pid]


def test_7_21_infantry_fire_the_turn_after_engaging():
    st = blank()
    a = put(st, FR_INF, "french_center")
    put(st, BR_INF, "allied_center")
    move(st, a, "allied_center")
    assert not [x for x in legal(st, "french", "fire") if x["piece"] == a.pid]


def test_7_22_cavalry_fire_at_f1():
    st = blank()
    a = put(st, FR_CAV, "allied_center")
    t = put(st, BR_INF, "allied_center")
    assert event(fire(st, a, t, [1] * 4), "fire")["power"] == 1


def test_7_23_artillery_long_range_across_the_middle_ground():
    st = blank()
    a = put(st, FR_FOOT, "french_center")
    t = put(st, BR_INF, "allied_center", up=False)
    ev = fire(st, a, t, [6, 2, 2])
    assert event(ev, "fire")["power"] == 1 and t.hits == 1
    assert t.up  # 7.23 cards artillery hit are revealed


def test_7_23_artillery_miss_does_not_reveal_target():
    st = blank()
    a = put(st, FR_FOOT, "french_center")
    t = put(st, BR_INF, "allied_center", up=False)
    fire(st, a, t, [2, 2, 2])
    assert not t.up


def test_7_23_no_long_range_when_own_position_engaged():
    st = blank()
    put(st, FR_FOOT, "french_center")
    put(st, BR_INF, "french_center")
    put(st, BR_INF, "allied_center")
    targets = {x["target"] for x in legal(st, "french", "fire")}
    assert all(st.pieces[t].place == 2 for t in targets)  # short range only


def test_7_23_no_long_range_into_position_engaged_by_friendly_cards():
    st = blank()
    put(st, FR_FOOT, "french_center")
    put(st, FR_INF, "allied_center")
    put(st, BR_INF, "allied_center")
    assert not [x for x in legal(st, "french", "fire") if st.pieces[x["piece"]].num == FR_FOOT]


def test_7_23_short_range_at_engaging_cards():
    st = blank()
    a = put(st, FR_FOOT_12, "french_center")
    t = put(st, BR_INF, "french_center")
    assert event(fire(st, a, t, [1, 1]), "fire")["power"] == 3


def test_7_24_horse_artillery_move_and_fire():
    st = blank()
    a = put(st, FR_HORSE, "french_center")
    t = put(st, BR_INF, "allied_center")
    move(st, a, "allied_center")  # engages
    ev = fire(st, a, t, [6, 6])
    assert event(ev, "fire")["power"] == 2 and t.hits == 2


def test_7_24_horse_artillery_cannot_fire_then_move():
    st = blank()
    a = put(st, FR_HORSE, "french_center")
    t = put(st, BR_INF, "allied_center")
    fire(st, a, t, [2, 2])
    assert not [x for x in legal(st, "french", "move") if x.get("piece") == a.pid]


def test_7_24_foot_artillery_cannot_move_and_fire():
    st = blank()
    a2 = put(st, FR_FOOT_12, "french_left", moves=1)  # entered from the Reserve this turn
    put(st, BR_INF, "allied_right")
    assert not [x for x in legal(st, "french", "fire") if x["piece"] == a2.pid]


def test_7_3_shock_works_like_firepower():
    st, a, t = _duel(FR_INF, BR_INF, form="column")
    ev = fire(st, a, t, [4, 3, 1], kind="shock")
    assert event(ev, "shock")["power"] == 3 and t.hits == 1


def test_7_31_cavalry_blown_after_shock_then_fire_only():
    st, a, t = _duel(FR_CAV, BR_INF)
    fire(st, a, t, [1, 1, 1, 1], kind="shock")
    assert a.blown
    from battles.engine.phases import start_turn

    start_turn(st, 0, [])
    assert a.blown  # still engaged
    assert not [x for x in legal(st, "french", "shock") if x["piece"] == a.pid]
    assert [x for x in legal(st, "french", "fire") if x["piece"] == a.pid]


def test_7_31_blown_cavalry_recover_after_disengaging():
    st, a, t = _duel(FR_CAV, BR_INF)
    fire(st, a, t, [1, 1, 1, 1], kind="shock")
    from battles.engine.phases import start_turn

    start_turn(st, 0, [])
    move(st, a, "french_center")
    start_turn(st, 0, [])
    assert not a.blown


def test_7_32_infantry_shock_only_in_column():
    st, a, t = _duel(FR_INF, BR_INF)
    assert not legal(st, "french", "shock")
    a.form = 1
    assert legal(st, "french", "shock")


def test_7_32_column_fires_at_f1():
    st, a, t = _duel(FR_INF, BR_INF, form="column")
    assert event(fire(st, a, t, [5, 5, 5]), "fire")["power"] == 1


def test_7_32_column_targeted_by_artillery_at_plus_one():
    st = blank()
    a = put(st, FR_FOOT, "french_center")
    t = put(st, BR_INF, "allied_center", form="column")
    assert event(fire(st, a, t, [1, 1, 1]), "fire")["power"] == 2


def test_7_33_no_shock_against_square():
    st, a, t = _duel(FR_CAV, BR_INF)
    t.form = 2
    assert not legal(st, "french", "shock")


def test_7_33_no_shock_against_infantry_in_building():
    st = blank()
    put(st, FR_CAV, "allied_center")
    b = put(st, 179, "allied_center")  # La Haye Sainte
    t = put(st, BR_INF, "allied_center", occ=b.pid)
    assert t.occ and not legal(st, "french", "shock")


def test_7_34_infantry_never_shock_cavalry():
    st, a, t = _duel(FR_INF, BR_CAV, form="column")
    assert not legal(st, "french", "shock")


def test_7_34_cavalry_shock_only_blown_cavalry():
    st, a, t = _duel(FR_CAV, BR_CAV)
    assert not legal(st, "french", "shock")
    t.blown = True
    assert legal(st, "french", "shock")


def test_7_4_hit_card_not_targeted_again_until_all_hit():
    st = blank()
    a1 = put(st, FR_INF, "allied_center")
    a2 = put(st, FR_INF, "allied_center")
    t1 = put(st, BR_INF, "allied_center")
    t2 = put(st, BR_INF, "allied_center")
    fire(st, a1, t1, [6, 6, 1])
    assert {x["target"] for x in legal(st, "french", "fire") if x["piece"] == a2.pid} == {t2.pid}
    fire(st, a2, t2, [6, 2, 2])
    a3 = put(st, FR_INF, "allied_center")
    assert {x["target"] for x in legal(st, "french", "fire") if x["piece"] == a3.pid} == \
        {t1.pid, t2.pid}


def test_7_4_miss_does_not_lock_target():
    st = blank()
    a1 = put(st, FR_INF, "allied_center")
    a2 = put(st, FR_INF, "allied_center")
    t1 = put(st, BR_INF, "allied_center")
    put(st, BR_INF, "allied_center")
    fire(st, a1, t1, [2, 2, 2])
    assert t1.pid in {x["target"] for x in legal(st, "french", "fire") if x["piece"] == a2.pid}


def test_7_4_infantry_plus_one_against_engaged_artillery():
    st = blank()
    a = put(st, FR_INF, "allied_center")
    t = put(st, BR_FOOT, "allied_center")
    assert event(fire(st, a, t, [4, 4, 4]), "fire")["power"] == 3 and t.hits == 3


def test_7_4_guard_shock_capped_at_four():
    st = blank()
    a = put(st, FR_GUARD, "allied_center", form="column")
    t = put(st, BR_FOOT, "allied_center")
    assert event(fire(st, a, t, [3, 3, 3], kind="shock"), "shock")["power"] == 4


def test_7_0_a_card_that_fired_may_not_move():
    st, a, t = _duel()
    fire(st, a, t, [2, 2, 2])
    assert not [x for x in legal(st, "french", "move") if x.get("piece") == a.pid]


def test_illegal_fire_raises_and_changes_nothing():
    from battles.engine import to_json

    st = blank()
    a = put(st, FR_INF, "french_center")
    t = put(st, BR_INF, "allied_center")
    before = to_json(st)
    with pytest.raises(IllegalAction):
        fire(st, a, t, [6, 6, 6])
    assert to_json(st) == before


def test_dice_exhausted_restores_state():
    from battles.engine import DiceExhausted, to_json

    st, a, t = _duel()
    before = to_json(st)
    with pytest.raises(DiceExhausted):
        fire(st, a, t, [6])
    assert to_json(st) == before


def test_apply_consumes_exactly_the_dice_it_needs():
    st, a, t = _duel()
    dice = iter([6, 6, 6, 4, 4])
    from battles.engine import apply

    apply(st, {"type": "fire", "side": "french", "piece": a.pid, "target": t.pid}, dice)
    assert list(dice) == [4, 4]
