"""The computer's own set-up (issue 26, ``stratego.setup_policy``): legal under 001 §6 in
every game, deterministic from the bot's seed, and sensible: commanders protected, guns
with a field of fire, cavalry where it can move, strong pieces forward, the reserve as the
rules allow. Used by greedy and search."""

from __future__ import annotations

import random
from typing import Any

import pytest

from stratego import setup_policy
from stratego.bots import GreedyBot
from stratego.engine import State, apply, new_game, view
from stratego.engine.board import COLS, FORWARD, HOME_ROWS
from stratego.search import SearchBot

from .helpers import TABLE

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("basic", {}), ("standard", {}), ("expert", {}), ("expert", {"early_start": True}),
    ("expert", {"battlefield": {"mud": [[2, 6], [3, 1]]}}),
    ("expert", {"battlefield": {"mud": [[4, 2], [3, 7]]}}),
]
SIDES = ("allied", "french")


def set_up(mode: str, options: dict[str, Any], seed: int) -> tuple[State, dict[str, dict]]:
    """Both armies placed by the plan (each from its own view), through the engine's
    check: the placements, by side."""
    st = new_game(seed, TABLE, mode, options=options)
    plans = {}
    for side in SIDES:
        plans[side] = setup_policy.plan(view(st, side), random.Random(f"{seed}:{side}"))
        apply(st, {"type": "deploy", "side": side, "placement": plans[side]}, iter(()))
    return st, plans


def cases():
    return [(mode, opts, seed) for mode, opts in GAMES for seed in range(2)]


def front(side: str) -> int:
    rows = HOME_ROWS[side]
    return rows[0] if side == "allied" else rows[-1]


def back(side: str) -> int:
    rows = HOME_ROWS[side]
    return rows[-1] if side == "allied" else rows[0]


@pytest.mark.parametrize(("mode", "opts", "seed"), cases())
def test_the_bots_set_up_keeps_the_set_up_rules(mode, opts, seed):
    """001 §6: the four rows, at most 10 in reserve, commanders on the board, Hougoumont's
    garrison (R35): the engine accepted each placement (``check_placement``)."""
    st, plans = set_up(mode, opts, seed)
    for side in SIDES:
        kept = [p for p in st.side_pieces(side) if p.where == "reserve"]
        assert len(kept) <= 10
        assert not [p for p in kept if p.type in ("commander", "commander_in_chief")]


def test_the_set_up_is_deterministic_from_the_bots_seed():
    st = new_game(5, TABLE, "standard")
    v = view(st, "allied")
    a = setup_policy.plan(v, random.Random(1))
    assert a == setup_policy.plan(v, random.Random(1))
    assert any(setup_policy.plan(v, random.Random(s)) != a for s in range(2, 6))


@pytest.mark.parametrize(("mode", "opts", "seed"), cases())
def test_commanders_are_protected(mode, opts, seed):
    """On the back two rows, each square beside them held by one of their own pieces."""
    st, _ = set_up(mode, opts, seed)
    for side in SIDES:
        for p in st.side_pieces(side):
            if p.type not in ("commander", "commander_in_chief") or p.square is None:
                continue
            c, r = p.square % COLS, p.square // COLS
            assert r in (back(side), back(side) + FORWARD[side])
            for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                n = (c + dc, r + dr)
                if 0 <= n[0] < COLS and n[1] in HOME_ROWS[side]:
                    q = st.at(n[1] * COLS + n[0])
                    assert q is not None and q.side == side, (side, p.id, n)


@pytest.mark.parametrize(("mode", "opts", "seed"), cases())
def test_artillery_has_a_field_of_fire(mode, opts, seed):
    """Each gun on the board has two empty squares straight ahead, or stands on the hill
    (fires over pieces, R25); none on mud (001 §14: it could not move)."""
    st, _ = set_up(mode, opts, seed)
    mud = {r * COLS + c for c, r in st.options.get("mud", ())}
    hill = {s for name, (kind, squares) in _tiles(st).items() if kind == "hill" for s in squares}
    for side in SIDES:
        for p in st.side_pieces(side):
            if p.type != "artillery" or p.square is None:
                continue
            assert p.square not in mud
            if p.square in hill:
                continue
            ahead = [p.square + k * FORWARD[side] * COLS for k in (1, 2)]
            assert all(s not in st.board for s in ahead), (side, p.id, p.square)


@pytest.mark.parametrize(("mode", "opts", "seed"), cases())
def test_cavalry_is_placed_where_it_can_move(mode, opts, seed):
    """Every cavalry piece (commanders apart) has an empty square beside it, and none is on
    mud."""
    st, _ = set_up(mode, opts, seed)
    mud = {r * COLS + c for c, r in st.options.get("mud", ())}
    for side in SIDES:
        for p in st.side_pieces(side):
            if p.type not in ("light_cavalry", "heavy_cavalry") or p.square is None:
                continue
            assert p.square not in mud
            c, r = p.square % COLS, p.square // COLS
            free = [(c + dc, r + dr) for dc, dr in ((0, 1), (0, -1), (1, 0), (-1, 0))
                    if 0 <= c + dc < COLS and 0 <= r + dr < 10
                    and (r + dr) * COLS + c + dc not in st.board]
            assert free, (side, p.id, (c, r))


@pytest.mark.parametrize(("mode", "opts", "seed"), cases())
def test_strong_pieces_go_forward_and_the_weakest_stay_back(mode, opts, seed):
    st, _ = set_up(mode, opts, seed)
    for side in SIDES:
        on = [p for p in st.side_pieces(side) if p.square is not None
              and p.type not in ("artillery", "commander", "commander_in_chief")]
        row = {p.id: p.square // COLS for p in on}
        first = [p.strength or 0 for p in on if row[p.id] == front(side)]
        last = [p.strength or 0 for p in on if row[p.id] == back(side)]
        assert sum(first) / len(first) > sum(last) / len(last)
        strongest = max(p.strength or 0 for p in on)
        assert any(p.strength == strongest for p in on if row[p.id] == front(side))


@pytest.mark.parametrize(("mode", "opts", "seed"), cases())
def test_the_reserve_holds_what_does_not_fit_the_weakest_first(mode, opts, seed):
    """Every square but the lanes is filled before infantry stays in reserve; a kept
    infantry piece is never stronger than one on the board of its type; guns with no field
    of fire and cavalry with nowhere to move wait there."""
    st, _ = set_up(mode, opts, seed)
    for side in SIDES:
        mine = [p for p in st.side_pieces(side) if p.spec.army != "prussian"]
        kept = [p for p in mine if p.where == "reserve"]
        placed = [p for p in mine if p.where == "board"]
        for k in kept:
            if k.type in ("artillery", "light_cavalry", "heavy_cavalry"):
                continue  # a gun with no field of fire, cavalry with nowhere to move
            assert k.type in ("light_infantry", "line_infantry")
            assert all((k.strength or 0) <= (q.strength or 0) for q in placed
                       if q.type == k.type)
        if [k for k in kept if k.type in ("light_infantry", "line_infantry")] and not [
                k for k in kept if k.type in ("light_cavalry", "heavy_cavalry")]:
            home = {r * COLS + c for r in HOME_ROWS[side] for c in range(COLS)}
            assert len(home - set(st.board)) <= 6  # the three lanes' two squares


def test_greedy_and_search_deploy_with_the_plan_and_random_on_request():
    st = new_game(2, TABLE, "standard")
    v = view(st, "allied")
    legal = [{"type": "deploy", "side": "allied", "random": True}]
    want = {"type": "deploy", "side": "allied",
            "placement": setup_policy.plan(v, random.Random(9))}
    assert GreedyBot(TABLE).choose(v, legal, random.Random(9)) == want
    assert SearchBot(TABLE, budget=0.05).choose(v, legal, random.Random(9)) == want
    assert GreedyBot(TABLE, "random").choose(v, legal, random.Random(9)) == legal[0]
    with pytest.raises(ValueError, match="setup"):
        GreedyBot(TABLE, "clever")


def _tiles(st: State) -> dict[str, tuple[str, tuple[int, ...]]]:
    from stratego.engine.terrain import tiles
    return tiles(st)
