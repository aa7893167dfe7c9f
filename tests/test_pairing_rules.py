"""One test per pairing rule (pure package, no Django)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from tournaments.pairing import (
    NoValidPairing,
    Player,
    berger_rounds,
    double_elimination,
    elimination_round,
    first_round,
    pair_swiss,
    top_cut,
)
from tournaments.pairing.elimination import bracket_order
from tournaments.pairing.matching import min_cost_perfect_matching

F, A = "french", "allied"


def P(pid, points=0, opponents=(), sides=(), rating=1500, **kw):
    return Player(
        id=pid,
        rating=rating,
        points=Fraction(points),
        opponents=list(opponents),
        sides=list(sides),
        **kw,
    )


def partner(result, pid):
    for f, a in result.pairings:
        if pid in (f, a):
            return a if f == pid else f
    return None


def side_of(result, pid):
    for f, a in result.pairings:
        if pid == f:
            return F
        if pid == a:
            return A
    return None


def test_score_groups_pair_equal_points():
    ps = [P("a", 2, rating=1), P("b", 2, rating=2), P("c", 0, rating=3), P("d", 0, rating=4)]
    res = pair_swiss(ps)
    assert {frozenset(p) for p in res.pairings} == {frozenset("ab"), frozenset("cd")}


def test_no_rematch():
    ps = [
        P("a", 1, ["b"], [F]),
        P("b", 1, ["a"], [A]),
        P("c", 0, ["d"], [F]),
        P("d", 0, ["c"], [A]),
    ]
    res = pair_swiss(ps)
    assert partner(res, "a") != "b" and partner(res, "c") != "d"


def test_bye_goes_to_lowest_ranked_without_bye():
    ps = [
        P("a", 2, rating=1600),
        P("b", 1, rating=1500),
        P("c", 0, rating=1400, had_bye=True),
        P("d", 0, rating=1450),
        P("e", 0, rating=1300, had_bye=True),
    ]
    res = pair_swiss(ps)
    assert res.bye == "d"  # e and c are lower but already had a bye


def test_bye_moves_up_when_the_rest_cannot_be_paired():
    # c is lowest-ranked without a bye, but a and b have met: giving c the bye leaves a-b
    ps = [P("a", 1, ["b"], [F]), P("b", 1, ["a"], [A]), P("c", 0)]
    res = pair_swiss(ps)
    assert res.bye == "b" and set(res.pairings[0]) == {"a", "c"}


def test_no_second_bye_means_no_valid_pairing():
    ps = [P(x, 1, had_bye=True) for x in "abc"]
    with pytest.raises(NoValidPairing, match="no valid pairing"):
        pair_swiss(ps)


def test_side_counts_never_differ_by_more_than_two():
    # a: F F A F  -> F - A = 2: must play Allied, even against a player preferring Allied
    ps = [P("a", 0, ["x", "y", "z", "w"], [F, F, A, F]), P("b", 0, ["v"], [F])]
    res = pair_swiss(ps)
    assert side_of(res, "a") == A and side_of(res, "b") == F


def test_no_three_same_sides_running():
    ps = [P("a", 0, ["x", "y", "z"], [F, A, A]), P("b", 0, ["w", "v"], [F, A])]
    res = pair_swiss(ps)
    assert side_of(res, "a") == F  # A A -> F is forced


def test_two_forced_to_the_same_side_never_meet():
    ps = [
        P("a", 1, ["x", "y"], [A, A]),
        P("b", 1, ["z", "w"], [A, A]),
        P("c", 0, ["u", "t"], [F, F]),
        P("d", 0, ["s", "r"], [F, F]),
    ]
    res = pair_swiss(ps)
    assert len(res.pairings) == 2  # everyone is paired, so the check below sees both games
    for f, a in res.pairings:
        assert {f, a} not in ({"a", "b"}, {"c", "d"})


def test_side_played_less_is_preferred():
    ps = [P("a", 0, ["x", "y", "z"], [F, A, F]), P("b", 0, ["w", "v", "u"], [A, F, A])]
    res = pair_swiss(ps)
    assert side_of(res, "a") == A and side_of(res, "b") == F


def test_alternate_when_balanced():
    ps = [P("a", 0, ["x", "y"], [A, F]), P("b", 0, ["w", "v"], [F, A])]
    res = pair_swiss(ps)
    assert side_of(res, "a") == A and side_of(res, "b") == F


def test_sides_minimise_unmet_preferences_over_the_group():
    # a,b prefer French, c,d prefer Allied: the optimum pairs a/b with c/d
    ps = [
        P("a", 1, ["x"], [A]),
        P("b", 1, ["y"], [A]),
        P("c", 1, ["z"], [F]),
        P("d", 1, ["w"], [F]),
    ]
    res = pair_swiss(ps)
    assert {side_of(res, x) for x in "ab"} == {F}


def test_drop_is_not_paired():
    ps = [P("a", 1), P("b", 1, dropped=True), P("c", 0), P("d", 0)]
    res = pair_swiss(ps)
    ids = {x for p in res.pairings for x in p} | {res.bye}
    assert "b" not in ids and ids == {"a", "c", "d"}


def test_late_entry_joins_with_no_history():
    ps = [
        P("a", 2, ["b", "c"], [F, A]),
        P("b", 1, ["a", "d"], [A, F]),
        P("c", 1, ["d", "a"], [F, A]),
        P("d", 0, ["c", "b"], [A, F]),
        P("late", 0),
    ]
    res = pair_swiss(ps)
    assert res.bye == "late" or "late" in {x for p in res.pairings for x in p}


def test_keep_apart():
    ps = [P("a", 1, rating=1600), P("b", 1, rating=1500), P("c", 0), P("d", 0)]
    res = pair_swiss(ps, keep_apart=[["a", "b"]])
    assert partner(res, "a") != "b"


def test_keep_apart_impossible_is_a_clear_error():
    with pytest.raises(NoValidPairing, match="a, b"):
        pair_swiss([P("a"), P("b")], keep_apart=[["a", "b"]])


def test_two_game_matches_ignore_sides():
    ps = [P("a", 0, ["x", "y"], [F, F]), P("b", 0, ["w", "v"], [F, F])]
    with pytest.raises(NoValidPairing):
        pair_swiss(ps)
    res = pair_swiss(ps, use_sides=False)
    assert len(res.pairings) == 1


def test_minimises_score_differences_first():
    # groups 2 | 1 1 | 0: two floats of 1 beat one float of 2
    ps = [P("a", 2), P("b", 1, rating=1600), P("c", 1, rating=1400), P("d", 0)]
    res = pair_swiss(ps)
    assert partner(res, "a") in {"b", "c"}


def test_matching_is_exact():
    costs = {(0, 1): 5, (2, 3): 5, (0, 2): 1, (1, 3): 1, (0, 3): 9, (1, 2): 9}
    assert min_cost_perfect_matching(4, costs) == [(0, 2), (1, 3)]
    assert min_cost_perfect_matching(4, {(0, 1): 1}) is None


# ---- round robin and elimination ------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 6, 7, 10])
def test_round_robin_every_pair_once_and_sides_balanced(n):
    ids = [f"p{k}" for k in range(n)]
    rounds = berger_rounds(ids)
    met = [frozenset(p) for rnd in rounds for p in rnd if None not in p]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(c) for c in combinations(ids, 2)), key=sorted
    )
    for pid in ids:
        games_ = [(x, y) for rnd in rounds for x, y in rnd if None not in (x, y)]
        f = sum(1 for x, _ in games_ if x == pid)
        a = sum(1 for _, y in games_ if y == pid)
        games = f + a
        assert games == len(ids) - 1 and abs(f - a) <= (1 if n % 2 == 0 else 2)


def test_double_round_robin_swaps_sides():
    rounds = berger_rounds(["a", "b", "c", "d"], double=True)
    pairs = [p for rnd in rounds for p in rnd]
    assert len(pairs) == 12 and len(set(pairs)) == 12


def test_single_elimination_seeding_and_byes():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    r1 = first_round(["s1", "s2", "s3", "s4", "s5", "s6"])
    assert ("s1", None) in r1 and ("s2", None) in r1 and ("s3", "s6") in r1
    pairs, walk = elimination_round(
        ["s1", "s2", "s3", "s4", "s5", "s6"], {"s1", "s2", "s4", "s6"}, 2
    )
    assert pairs == [("s1", "s4"), ("s2", "s6")] and walk == []


def test_double_elimination_bracket():
    for n in (2, 4, 8, 16):
        matches = double_elimination([f"s{k}" for k in range(1, n + 1)])
        assert len(matches) == 2 * n - 2  # every player but the champion loses twice
        sources = [m[k] for m in matches for k in ("a", "b") if str(m[k])[:1] in "WL"]
        assert len(sources) == len(set(sources))  # every winner/loser goes to one place


def test_top_cut_seeded_from_standings():
    assert top_cut(["a", "b", "c", "d", "e", "f", "g", "h"], 4) == [("a", "d"), ("b", "c")]
