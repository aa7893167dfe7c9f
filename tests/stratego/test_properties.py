"""Properties over seeded random games (random against random, with the bots' turn cap)."""

from __future__ import annotations

import json
import os
import random

import pytest

from stratego.engine import State, from_json, to_json, view
from stratego.engine.state import PLACES
from stratego.module import GAME

from .helpers import TABLE

GAMES = int(os.environ.get("STRATEGO_GAMES", "200"))
CAP = 25


def dumps(x: object) -> str:
    return json.dumps(x, sort_keys=True)


def play(seed: int, check=None, cap: int = CAP) -> tuple[State, list[dict], list[list]]:
    """A random game: its state, its actions, and each action's events."""
    st = GAME.setup(seed, {"turn_cap": cap}, TABLE)
    bots = {s: GAME.bot("random", TABLE) for s in GAME.sides}
    actions, events = [], []
    seq = 0
    while (side := GAME.to_move(st)) is not None:
        legal = GAME.legal_actions(st, side)
        seen = GAME.view(st, side) if bots[side].needs_view else None
        a = bots[side].choose(seen, legal, GAME.bot_rng(seed, seq))
        events.append(GAME.apply(st, a, GAME.dice(seed, seq), legal=legal))
        actions.append(a)
        seq += 1
        if check is not None:
            check(st, seq)
        assert seq < 4 * 4 * (cap + 2) + 2, "the game does not end"
    return st, actions, events


def one_place(st: State) -> None:
    on_board = [p for p in st.pieces.values() if p.where == "board"]
    assert all(p.where in PLACES for p in st.pieces.values())
    assert all((p.square is not None) == (p.where == "board") for p in st.pieces.values())
    assert {p.square: p.id for p in on_board} == st.board
    assert len(st.board) == len(on_board) and len(st.pieces) == 105
    assert all(st.pieces[pid].spec.army == "prussian" for pid in st.prussian_pool)
    assert all(st.pieces[pid].where == "pool" for pid in st.prussian_pool)
    assert sum(p.where == "pool" for p in st.pieces.values()) == len(st.prussian_pool)


def swapped(st: State, viewer: str, rng: random.Random) -> State | None:
    """A copy where two of the opponent's unrevealed pieces of one back and army swapped
    their identities (their places), or None when there are no two."""
    copy = from_json(to_json(st), TABLE)
    hidden = [p for p in copy.pieces.values() if p.side != viewer and not p.revealed
              and p.where in ("board", "reserve", "pool")]
    rng.shuffle(hidden)
    for a in hidden:
        for b in hidden:
            if (a is not b and a.spec.army == b.spec.army and a.spec.back == b.spec.back
                    and a.spec.id != b.spec.id and (a.where, a.square) != (b.where, b.square)
                    and (a.where == "pool") == (b.where == "pool")):
                a.where, b.where = b.where, a.where
                a.square, b.square = b.square, a.square
                copy.prussian_pool = [b.id if x == a.id else a.id if x == b.id else x
                                      for x in copy.prussian_pool]
                copy.rebuild_board()
                return copy
    return None


def test_every_piece_is_in_exactly_one_place_and_every_game_ends():
    reasons: dict[str, int] = {}
    for seed in range(GAMES):
        st, _, _ = play(seed, check=lambda s, seq: one_place(s) if seq % 25 == 0 else None)
        one_place(st)
        assert st.outcome is not None and st.turn <= CAP
        reasons[st.outcome["reason"]] = reasons.get(st.outcome["reason"], 0) + 1
    assert sum(reasons.values()) == GAMES


@pytest.mark.parametrize("seed", range(min(GAMES, 20)))
def test_swapping_the_opponents_unrevealed_identities_leaves_a_view_byte_identical(seed):
    rng = random.Random(seed)
    checked = 0

    def check(st: State, seq: int) -> None:
        nonlocal checked
        if seq % 11:
            return
        for viewer in ("french", "allied"):
            other = swapped(st, viewer, rng)
            if other is None:
                continue
            assert dumps(view(other, viewer)) == dumps(view(st, viewer))
            if st.active == viewer and st.phase == "play":
                assert dumps(GAME.legal_actions(other, viewer)) == \
                    dumps(GAME.legal_actions(st, viewer))
            checked += 1

    play(seed, check=check)
    assert checked


@pytest.mark.parametrize("seed", range(min(GAMES, 10)))
def test_to_json_from_json_mid_game_changes_nothing(seed):
    st, actions, events = play(seed)
    half = len(actions) // 2
    replay = GAME.setup(seed, {"turn_cap": CAP}, TABLE)
    for seq, a in enumerate(actions[:half]):
        GAME.apply(replay, a, GAME.dice(seed, seq))
    doc = json.loads(json.dumps(to_json(replay)))
    restored = from_json(doc, TABLE)
    assert dumps(to_json(restored)) == dumps(to_json(replay))
    for seq in range(half, len(actions)):
        again = GAME.apply(restored, actions[seq], GAME.dice(seed, seq))
        assert dumps(again) == dumps(events[seq])
    assert dumps(to_json(restored)) == dumps(to_json(st))


@pytest.mark.parametrize("seed", range(5))
def test_a_replay_from_the_seed_is_byte_identical(seed):
    st1, actions1, events1 = play(seed)
    st2, actions2, events2 = play(seed)
    assert dumps(actions1) == dumps(actions2) and dumps(events1) == dumps(events2)
    assert dumps(to_json(st1)) == dumps(to_json(st2))
    replay = GAME.setup(seed, {"turn_cap": CAP}, TABLE)
    for seq, a in enumerate(actions1):
        GAME.apply(replay, a, GAME.dice(seed, seq), check=False)
    assert dumps(to_json(replay)) == dumps(to_json(st1))
