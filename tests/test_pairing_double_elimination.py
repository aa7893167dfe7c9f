"""Double elimination round by round from results (pure core, no Django)."""

import random
from collections import Counter

import pytest

from tournaments.pairing.double_bracket import (
    Game,
    double_elimination_max_rounds,
    double_elimination_round,
    double_elimination_state,
)


def seeds(n):
    return [f"s{k}" for k in range(1, n + 1)]


def run(n, rng=None, pick=None, dropped_after=None, max_rounds=40):
    """Play a whole event: ``pick(pairing, state)`` or a random winner. Returns
    (final state, games, rounds played, [state per round])."""
    rng = rng or random.Random(n)
    games, states = [], []
    for k in range(1, max_rounds):
        state = double_elimination_round(seeds(n), games, k, dropped_after)
        if state.finished:
            return state, games, k - 1, states
        states.append(state)
        assert state.pairings or state.byes, f"round {k} has nothing to play"
        for p in state.pairings:
            winner = pick(p, state) if pick else rng.choice([p.french, p.allied])
            games.append(Game(k, p.french, p.allied, winner))
    raise AssertionError("did not finish")


def assert_two_losses_each(state, games, n, dropped=()):
    losses = Counter()
    for g in games:
        losses[g.allied if g.winner == g.french else g.french] += 1
    assert state.champion is not None and losses[state.champion] <= 1
    for p in seeds(n):
        if p != state.champion and p not in dropped:
            assert losses[p] == 2, (p, losses[p])
            assert p in state.out
    assert dict(losses) == {p: c for p, c in state.losses.items() if c}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9, 12, 16])
def test_every_player_but_the_champion_is_out_after_exactly_two_losses(n):
    for trial in range(25):
        state, games, rounds, states = run(n, random.Random(n * 100 + trial))
        assert_two_losses_each(state, games, n)
        assert rounds <= double_elimination_max_rounds(n)
        for st in states:  # nobody plays twice in a round
            players = [x for p in st.pairings for x in (p.french, p.allied)] + st.byes
            assert len(players) == len(set(players))
        # the same games replayed give the same state
        again = double_elimination_state(seeds(n), games)
        assert again.champion == state.champion and again.finished


def test_four_players_schedule_and_bracket_reset():
    def lb_wins_final(p, state):  # better seed wins, except the grand final
        if p.label == "GF":
            m = next(m for m in state.matches if m["id"] == p.match)
            return m["players"][1]
        return min(p.french, p.allied, key=lambda s: int(s[1:]))

    state, games, rounds, states = run(4, pick=lb_wins_final)
    labels = [[p.label for p in st.pairings] for st in states]
    assert labels == [["W1", "W1"], ["W2", "L1"], ["L2"], ["GF"], ["GF2"]]
    assert {(p.french, p.allied) for p in states[0].pairings} == {("s1", "s4"), ("s2", "s3")}
    assert rounds == 5 == double_elimination_max_rounds(4)
    # s1 won the winners' bracket, lost the final to s2, won the reset
    assert state.champion == "s1" and state.runner_up == "s2"
    assert state.places == {"s1": 1, "s2": 2, "s3": 3, "s4": 4}


def test_no_reset_when_the_winners_bracket_champion_wins_the_final():
    state, games, rounds, states = run(
        4, pick=lambda p, st: min(p.french, p.allied, key=lambda s: int(s[1:])))
    assert rounds == 4 and [p.label for p in states[-1].pairings] == ["GF"]
    assert state.champion == "s1" and state.losses.get("s1", 0) == 0
    assert state.places["s2"] == 2


def test_five_players_top_seeds_get_byes_and_walkovers_take_no_round():
    first = double_elimination_round(seeds(5), [], 1)
    assert first.byes == ["s1", "s2", "s3"]
    assert [(p.french, p.allied, p.label) for p in first.pairings] == [("s4", "s5", "W1")]
    games = [Game(1, "s4", "s5", "s5")]
    second = double_elimination_round(seeds(5), games, 2)
    assert second.byes == []  # byes are round 1 only
    assert {frozenset((p.french, p.allied)) for p in second.pairings} == {
        frozenset(("s1", "s5")), frozenset(("s2", "s3"))}
    # s4 (one loss) got a walkover in losers' round 1 (its opponent was a bye) and waits
    assert "s4" not in {x for p in second.pairings for x in (p.french, p.allied)}
    state, games, _, _ = run(5, random.Random(7))
    assert_two_losses_each(state, games, 5)


def test_eight_players_standard_bracket():
    state = double_elimination_round(seeds(8), [], 1)
    assert state.byes == []
    assert [(p.french, p.allied) for p in state.pairings] == [
        ("s1", "s8"), ("s4", "s5"), ("s2", "s7"), ("s3", "s6")]
    games = [Game(1, p.french, p.allied, p.french) for p in state.pairings]
    second = double_elimination_round(seeds(8), games, 2)
    assert sorted(p.label for p in second.pairings) == ["L1", "L1", "W2", "W2"]
    # losers' round 1: the round-1 losers meet in bracket order
    losers = {frozenset((p.french, p.allied)) for p in second.pairings if p.label == "L1"}
    assert losers == {frozenset(("s8", "s5")), frozenset(("s7", "s6"))}
    # sides: a player who was Allied plays French next when their opponent was French
    w2 = [p for p in second.pairings if p.label == "W2"]
    assert all(p.french in ("s1", "s4", "s2", "s3") for p in w2)  # all were French in r1


def test_sides_alternate_by_balance():
    state = double_elimination_round(seeds(4), [], 1)
    games = [Game(1, "s1", "s4", "s4"), Game(1, "s2", "s3", "s3")]
    second = double_elimination_round(seeds(4), games, 2)
    pairs = {p.label: (p.french, p.allied) for p in second.pairings}
    assert pairs == {"W2": ("s3", "s4"), "L1": ("s1", "s2")}
    assert state.round == 1


def test_finishing_places_share_a_losers_round():
    state, _, _, _ = run(8, random.Random(3))
    places = sorted(state.places.values())
    assert places == [1, 2, 3, 4, 5, 5, 7, 7]


def test_a_drop_is_a_walkover_and_the_player_is_out():
    games = [Game(1, "s1", "s4", "s1"), Game(1, "s2", "s3", "s2")]
    # s3 lost round 1 and drops after it: s4 advances in the losers' bracket without playing
    second = double_elimination_round(seeds(4), games, 2, {"s3": 1})
    assert [(p.label, {p.french, p.allied}) for p in second.pairings] == [
        ("W2", {"s1", "s2"})]
    assert second.out == {"s3": "L1"}
    games.append(Game(2, "s1", "s2", "s1"))
    third = double_elimination_round(seeds(4), games, 3, {"s3": 1})
    assert [(p.label, {p.french, p.allied}) for p in third.pairings] == [("L2", {"s2", "s4"})]


def test_double_loss_puts_both_out():
    games = [Game(1, "s1", "s4", None), Game(1, "s2", "s3", "s2")]
    state = double_elimination_state(seeds(4), games)
    assert state.out == {"s1": "W1", "s4": "W1"}
    nxt = double_elimination_round(seeds(4), games, 2)
    # s2 has a walkover in the winners' final, s3 walkovers in the losers' bracket (nobody
    # drops from the winners' final): they meet in the grand final
    assert [(p.label, {p.french, p.allied}) for p in nxt.pairings] == [("GF", {"s2", "s3"})]


def test_results_that_do_not_fit_the_bracket_are_refused():
    with pytest.raises(ValueError, match="not an open match"):
        double_elimination_round(seeds(4), [Game(1, "s1", "s2", "s1")], 2)
    with pytest.raises(ValueError, match="at least 2"):
        double_elimination_round(["s1"], [], 1)


def test_max_rounds():
    assert [double_elimination_max_rounds(n) for n in (2, 4, 8, 16)] == [3, 5, 7, 9]
