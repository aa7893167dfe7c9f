"""Optimality of the large-field Swiss path: the type-level lower bound and its proofs.

The large path (``exact_limit`` exceeded) claims ``optimal`` only with a proof: its value
equals a lower bound from the type-level relaxation (:mod:`tournaments.pairing.plan`).  These
tests check the claim against independent optima: brute force on small fields, the exact
blossom solver on medium ones.
"""

from __future__ import annotations

import random
from contextlib import contextmanager

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import NoValidPairing, Player, pair_swiss, swiss
from tournaments.pairing.model import ALLIED, FRENCH
from tournaments.pairing.plan import TypeProgram

from .test_pairing_properties import brute_force, check_valid, objective, random_field


@contextmanager
def no_exact_fallback():
    """Switch off the exact re-solve so that only the bound can prove optimality."""
    old = swiss.EXACT_FALLBACK
    swiss.EXACT_FALLBACK = 0
    try:
        yield
    finally:
        swiss.EXACT_FALLBACK = old


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32))
def test_bound_never_exceeds_the_optimum_and_proofs_hold(seed):
    players, keep = random_field(seed, max_players=10)
    best = brute_force(players, keep)
    with no_exact_fallback():
        try:
            result = pair_swiss(players, keep, exact_limit=0)
        except NoValidPairing:
            assert best is None
            return
    assert best is not None
    check_valid(players, result, keep)
    value = objective(players, result, keep)
    assert value[0] == best[0], "level 1 (who gets the bye) is always exact"
    assert tuple(result.lower_bound) <= best[1:], "the bound is a lower bound"
    assert tuple(result.objective) == value[1:]
    if result.optimal:
        assert value == best, "a proved optimum is the optimum"


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_large_path_with_exact_fallback_is_optimal_on_small_fields(seed):
    players, keep = random_field(seed, max_players=10)
    best = brute_force(players, keep)
    try:
        result = pair_swiss(players, keep, exact_limit=0)
    except NoValidPairing:
        assert best is None
        return
    assert result.optimal
    assert objective(players, result, keep) == best


def _history(n: int, rounds: int, seed: int) -> list[Player]:
    """A field paired round by round by the engine itself, random results, a few drops."""
    rng = random.Random(seed)
    players = [Player(id=f"p{k}", rating=rng.randint(1200, 1800)) for k in range(n)]
    by_id = {p.id: p for p in players}
    for _ in range(rounds):
        res = pair_swiss(players)
        for f, a in res.pairings:
            by_id[f].opponents.append(a)
            by_id[f].sides.append(FRENCH)
            by_id[a].opponents.append(f)
            by_id[a].sides.append(ALLIED)
            by_id[rng.choice((f, a))].points += 1
        if res.bye:
            b = by_id[res.bye]
            b.points += 1
            b.had_bye = True
            b.opponents.append(None)
            b.sides.append(None)
        for p in players:
            if not p.dropped and rng.random() < 0.03:
                p.dropped = True
    return players


@settings(max_examples=8, deadline=None)
@given(st.integers(66, 90), st.integers(4, 9), st.integers(0, 2**32))
def test_medium_fields_proved_optimum_equals_the_exact_solver(n, rounds, seed):
    """66-90 players after 4-9 rounds (rematches bind at the top and bottom): the large
    path's proof agrees with the exact blossom solver on the whole field."""
    players = _history(n, rounds, seed)
    exact = pair_swiss(players, exact_limit=10_000)
    with no_exact_fallback():
        large = pair_swiss(players, exact_limit=0)
    check_valid(players, large)
    assert large.bye == exact.bye
    assert tuple(large.lower_bound) <= tuple(exact.objective)
    if large.optimal:
        assert large.objective == exact.objective
    assert large.objective >= exact.objective


def test_bench_sized_field_is_proved_optimal():
    """1,024 players after 7 rounds: the pairing meets the bound (the bench's claim)."""
    players = _history(1024, 7, 1815)
    result = pair_swiss(players)
    check_valid(players, result)
    assert result.optimal
    assert result.objective == result.lower_bound


def test_relaxation_infeasible_means_no_valid_pairing():
    """Four players, all forced to play French: the relaxation alone proves it."""
    players = []
    for k in range(4):
        players.append(Player(id=f"p{k}", points=2, opponents=[f"x{k}", f"y{k}"],
                              sides=[ALLIED, ALLIED]))
    fld = swiss._Field(players, None, True)
    assert TypeProgram(fld, list(range(4))).lp_bound((0, 0, 0)) is None
    try:
        pair_swiss(players, exact_limit=0)
    except NoValidPairing as exc:
        assert "no valid pairing" in str(exc)
    else:
        raise AssertionError("expected NoValidPairing")


def test_odd_score_group_bound_counts_the_float():
    """5 + 3 players on two scores, no history conflicts: one float is unavoidable and the
    bound (with its odd-set cut) says so; the pairing meets it."""
    players = [Player(id=f"w{k}", points=1, opponents=[f"l{k}"], sides=[FRENCH])
               for k in range(5)]
    players += [Player(id=f"l{k}", points=0, opponents=[f"w{k}"], sides=[ALLIED])
                for k in range(3)]
    players += [Player(id=f"l{k}", points=0, opponents=[f"w{k}"], sides=[ALLIED])
                for k in range(3, 5)]
    players[-2].points = players[-1].points = 1  # two more winners: 7 and 3 -> odd groups
    result = pair_swiss(players, exact_limit=0)
    check_valid(players, result)
    assert result.optimal
    assert result.lower_bound[0] == 1
