"""Property tests over seeded random games: markers are conserved, every action moves the
game on, every game ends; chances() agrees with apply(); positions round-trip through JSON."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from belle_alliance import engine as e

from .helpers import fixture, house

TOTAL = {"french": 18, "allied": 14 + 6}


def conserved(s: e.State) -> None:
    for side in e.SIDES:
        on_map = sum(s.markers[c.id] for c in s.cards.side_cards(side)
                     if c.kind in ("corps", "prussians"))
        extra = s.reserve if side == "allied" else 0
        assert on_map + len(s.tracks[side]) + extra == TOTAL[side]
    assert 0 <= s.markers["grand_battery"] <= 3
    assert s.entered + s.reserve == 6
    assert s.markers["blucher"] + s.tracks["allied"].count("blucher") == s.entered


def progress(s: e.State) -> int:
    """What every action increases (RULINGS R2): casualties, morale lost, Prussian markers
    entered, battery markers lost; a pending choice is one step of an action."""
    return (len(s.tracks["french"]) + len(s.tracks["allied"]) + 20 - sum(s.morale.values())
            + s.entered + 3 - s.markers["grand_battery"])


def random_game(cards: e.CardData, seed: int, check: bool = True) -> e.State:
    rng = random.Random(seed)
    dice = e.SeededDice(seed)
    s = e.new_game(cards)
    while s.winner is None and s.turn < 300:
        side = s.to_move()
        if side is None:
            break
        legal = e.legal_actions(s, side)
        assert legal and e.legal_actions(s, e.other(side)) == []
        if s.pending is None:
            before = progress(s)
        a = rng.choice(legal)
        e.apply(s, a, dice)
        if check:
            conserved(s)
            if s.pending is None and s.cards is house() and a["type"] != "pass":
                assert progress(s) > before, a
    return s


@pytest.mark.parametrize("cards", [house, fixture], ids=["house", "fixture"])
def test_markers_conserved_and_every_game_ends(cards: object) -> None:
    for seed in range(100):
        s = random_game(cards(), seed)  # type: ignore[operator]
        assert s.winner in e.SIDES and s.turn < 300


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_every_seeded_game_ends_with_a_rout(seed: int) -> None:
    s = random_game(house(), seed)
    assert e.outcome(s) is not None and s.reason is not None


def test_every_house_table_row_moves_the_game_on() -> None:
    for card in house().cards.values():
        for a in card.actions:
            for row in a.table:
                assert row.FC + row.AC + row.FM + row.AM + row.enter + row.battery > 0, \
                    (card.id, a.id)


def test_chances_agree_with_apply_over_every_die() -> None:
    cards = house()
    rng = random.Random(7)
    for seed in range(8):
        s = e.new_game(cards)  # a game played part-way, then every action compared
        dice = e.SeededDice(seed)
        for _ in range(rng.randrange(0, 14)):
            side = s.to_move()
            if side is None:
                break
            e.apply(s, rng.choice(e.legal_actions(s, side)), dice)
        side = s.to_move()
        if side is None:
            continue
        for a in e.legal_actions(s, side):
            dist = e.chances(s, a)
            assert abs(sum(p for p, _ in dist) - 1) < 1e-9
            # exhaustive over the dice: the probability of each resulting position
            got: dict[object, float] = {}
            n_dice = 2 if a.get("napoleon") and cards.napoleon_roll == "best_of_two" else 1
            if a["type"] != "act":
                n_dice = 0
            for seq in _sequences(n_dice + 2):
                t = s.copy()
                e.apply(t, a, iter(seq))
                got[t.key()] = got.get(t.key(), 0) + 6.0 ** -len(seq)
            want: dict[object, float] = {}
            for p, t in dist:
                want[t.key()] = want.get(t.key(), 0) + p
            assert set(got) == set(want)
            for k in want:
                assert abs(got[k] - want[k]) < 1e-9


def _sequences(n: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [()]
    for _ in range(n):
        out = [q + (d,) for q in out for d in range(1, 7)]
    return out


def test_json_round_trip_through_a_game() -> None:
    import json

    cards = house()
    rng = random.Random(3)
    s = e.new_game(cards)
    dice = e.SeededDice(3)
    while s.to_move() is not None:
        doc = json.loads(json.dumps(e.to_json(s)))
        assert e.to_json(e.from_json(doc, cards)) == e.to_json(s)
        assert e.from_json(doc, cards).key() == s.key()
        side = s.to_move()
        assert side is not None
        e.apply(s, rng.choice(e.legal_actions(s, side)), dice)
