"""The search bot's leaf evaluation (battles/bots/evaluation.py): a Position whose defenders
all carry hits while enemy Infantry or Cavalry stand in it is priced by the exact chance that
every defender routs (4.3, 6.0), for both sides, and the score stays antisymmetric."""

from __future__ import annotations

import pytest

from battles.bots.evaluation import danger, evaluate_material, evaluate_threats, held
from tests.engine.helpers import BR_FOOT, BR_INF, BR_INF_D, FR_INF, FR_INF_II, blank, put


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
    assert evaluate_material(st, 0) > 0  # the French have more troops...
    assert evaluate_threats(st, 0) < 0  # ...but their centre is about to fall
    assert evaluate_threats(st, 0) == pytest.approx(-evaluate_threats(st, 1))
    assert held(st) == (2, 0)
    st.outcome = {"winner": "allied", "reason": "occupation"}
    assert evaluate_threats(st, 0) == -1.0 and evaluate_threats(st, 1) == 1.0
