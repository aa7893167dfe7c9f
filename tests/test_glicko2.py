"""Glicko-2 (ratings/glicko2.py) against Glickman's worked example, plus a draw, symmetry,
inactivity and a few properties."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.glicko2 import Rating, expected_score, inactive, rate, rate_game


def test_the_papers_worked_example():
    """Glickman (2013), section "Example": 1500/200/0.06 against 1400/30, 1550/100, 1700/300,
    scores 1, 0, 0 -> r' 1464.06, RD' 151.52, sigma' 0.05999 (tau 0.5)."""
    player = Rating(1500, 200, 0.06)
    after = rate(player, [(Rating(1400, 30), 1), (Rating(1550, 100), 0),
                          (Rating(1700, 300), 0)], tau=0.5)
    # The paper rounds its intermediate values (mu' -0.2069, phi' 0.8722) before converting
    # back; exact arithmetic gives 1464.0507 / 151.5165: the same to 2 decimals within 0.01.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)  # 0.0599960
    assert round((after.rating - 1500) / 173.7178, 4) == -0.2069
    assert round(after.rd / 173.7178, 4) == 0.8722


def test_a_draw_between_equals_changes_no_rating_and_shrinks_both_rds():
    a, b = rate_game(Rating(), Rating(), 0.5)
    assert a.rating == pytest.approx(1500) and b.rating == pytest.approx(1500)
    assert a.rd < 350 and a == b


def test_a_draw_moves_the_stronger_down_and_the_weaker_up():
    strong, weak = rate_game(Rating(1800, 80), Rating(1500, 80), 0.5)
    assert strong.rating < 1800 and weak.rating > 1500


def test_a_win_and_its_loss_are_mirror_images_between_equals():
    winner, loser = rate_game(Rating(1600, 120), Rating(1600, 120), 1)
    assert winner.rating - 1600 == pytest.approx(1600 - loser.rating)
    assert winner.rd == pytest.approx(loser.rd)
    assert winner.rating > 1600 > loser.rating


def test_inactivity_grows_the_rd_up_to_a_newcomers():
    r = Rating(1700, 60, 0.06)
    assert inactive(r, 0) == r
    assert 60 < inactive(r).rd < inactive(r, 5).rd
    assert inactive(r, 10_000).rd == 350
    assert rate(r, []) == inactive(r)


def test_a_score_out_of_range_is_refused():
    with pytest.raises(ValueError, match="from 0 to 1"):
        rate(Rating(), [(Rating(), 2)])


ratings = st.builds(Rating, st.floats(800, 2400), st.floats(30, 350), st.floats(0.04, 0.1))


@settings(max_examples=60, deadline=None)
@given(a=ratings, b=ratings, score=st.sampled_from([0, 0.5, 1]))
def test_properties(a, b, score):
    new_a, new_b = rate_game(a, b, score)
    # Symmetric: the same game seen from the other side gives the same two ratings.
    other_b, other_a = rate_game(b, a, 1 - score)
    assert other_a.rating == pytest.approx(new_a.rating)
    assert other_b.rating == pytest.approx(new_b.rating)
    # A win never lowers a rating, a loss never raises one; a game is information: the RD
    # is below phi* (the RD grown by the new volatility, as after a period without games).
    if score == 1:
        assert new_a.rating >= a.rating and new_b.rating <= b.rating
    if score == 0:
        assert new_a.rating <= a.rating and new_b.rating >= b.rating
    assert new_a.rd < math.hypot(a.rd, 173.7178 * new_a.volatility)
    for r in (new_a, new_b):
        assert math.isfinite(r.rating) and 0 < r.rd <= 350 and 0 < r.volatility < 1
    assert 0 < expected_score(a, b) < 1
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1, abs=0.2)
