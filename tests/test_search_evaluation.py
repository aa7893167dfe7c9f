"""The search bot's leaf evaluation (battles/bots/evaluation.py): a Position whose defenders
all carry hits while enemy Infantry or Cavalry stand in it is priced by the exact chance that
every defender routs (4.3, 6.0), for both sides, and the score stays antisymmetric."""

from __future__ import annotations

import pytest

from battles.bots.evaluation import (
    danger,
    evaluate_material,
    evaluate_threats,
    held,
    open_goal,
)
from tests.engine.helpers import (
    BR_CAV,
    BR_FOOT,
    BR_INF,
    BR_INF_D,
    FR_CAV,
    FR_INF,
    FR_INF_II,
    WELLINGTON,
    blank,
    put,
)


def test_no_danger_without_hits_or_without_an_enemy_that_can_occupy():
    st = blank("waterloo")
    put(st, FR_INF, "french_center")
    put(st, BR_INF, "french_center")  # engaged, but the defender has no hit
    assert danger(st) == (0.0, 0.0)
    st = blank("waterloo")
    put(st, FR_INF, "french_center", hits=2)
    put(st, BR_FOOT, "french_center")  # artillery cannot occupy for victory (4.3)
    assert danger(st) == (0.0, 0.0)


def test_a_lone_hit_defender_is_a_near_loss_by_its_morale_rolls():
    st = blank("waterloo")
    put(st, FR_INF, "french_center", hits=1)  # morale C = 2: passes on 1-2 (6.0)
    put(st, BR_INF, "french_center")
    fr, al = danger(st)
    assert fr == pytest.approx(4 / 6) and al == 0.0
    st = blank("waterloo")
    put(st, FR_INF, "french_center", hits=2)
    put(st, BR_INF, "french_center")
    assert danger(st)[0] == pytest.approx(1 - (2 / 6) ** 2)
    # a second defender without hits holds the Position
    put(st, FR_INF_II, "french_center")
    assert danger(st)[0] == 0.0


def test_two_hit_defenders_must_both_rout_and_positions_combine():
    st = blank("waterloo")
    put(st, BR_INF, "allied_left", hits=1)  # morale B = 3
    put(st, BR_INF_D, "allied_left", hits=1)  # morale D = 1
    put(st, FR_INF, "allied_left")
    one = (3 / 6) * (5 / 6)
    assert danger(st)[1] == pytest.approx(one)
    put(st, BR_INF, "allied_center", hits=1)
    put(st, FR_INF_II, "allied_center")
    assert danger(st)[1] == pytest.approx(1 - (1 - one) * (1 - 3 / 6))


def test_threats_outweigh_material_and_the_score_is_antisymmetric():
    st = blank("waterloo")
    put(st, FR_INF, "french_center", hits=2)
    put(st, BR_INF, "french_center")
    put(st, FR_INF_II, "french_left")
    put(st, FR_INF_II, "french_right")
    for pos in ("allied_left", "allied_center", "allied_right"):
        put(st, BR_INF_D, pos)
    put(st, FR_INF, "french_reserve")
    st.reserve[0] = [FR_INF, FR_INF_II]
    assert evaluate_material(st, 0) > 0  # the French have more troops...
    assert evaluate_threats(st, 0) < 0  # ...but their centre is about to fall
    assert evaluate_threats(st, 0) == pytest.approx(-evaluate_threats(st, 1))
    assert held(st) == (2, 3)
    st.outcome = {"winner": "allied", "reason": "occupation"}
    assert evaluate_threats(st, 0) == -1.0 and evaluate_threats(st, 1) == 1.0


def test_an_open_goal_for_the_side_about_to_act():
    """An enemy Position without enemy troops (a lone General dies, 12.4) is won by moving
    in Infantry or Cavalry from the unengaged Position facing it, or Cavalry from the Reserve
    in two moves (8.3); never out of an engagement."""
    st = blank("waterloo", active="allied")
    put(st, BR_INF, "allied_center")
    put(st, FR_INF, "french_left")
    put(st, FR_INF, "french_right")
    put(st, WELLINGTON, "allied_center")
    put(st, FR_INF, "french_center", up=False)
    assert not open_goal(st, 1)
    st = blank("waterloo", active="allied")
    put(st, FR_INF, "french_left")
    put(st, FR_INF, "french_right")
    gen = put(st, 1, "french_center")  # Napoleon alone: no troop holds the centre
    assert gen and not open_goal(st, 1)  # nobody of ours faces it
    put(st, BR_INF, "allied_center")
    assert open_goal(st, 1)
    st.cache = None
    put(st, FR_INF_II, "allied_center")  # engaged: nothing leaves towards the centre
    assert not open_goal(st, 1)
    st.reserve[1] = [BR_CAV]  # cavalry cannot move through the engagement either
    assert not open_goal(st, 1)
    st = blank("waterloo", active="allied")
    put(st, FR_INF, "french_left")
    put(st, FR_INF, "french_right")
    st.reserve[1] = [BR_CAV]
    assert open_goal(st, 1)
    st.fresh[1] = [BR_CAV]  # drawn this turn: not playable yet (10.0)
    assert not open_goal(st, 1)
    # the evaluation counts it for the side about to act only
    st.fresh[1] = []
    put(st, BR_INF, "allied_left")
    put(st, BR_INF, "allied_center")
    put(st, BR_INF, "allied_right")
    put(st, FR_CAV, "french_reserve")
    assert evaluate_threats(st, 1) > evaluate_threats(st, 1, w_open=0.0) + 0.5
