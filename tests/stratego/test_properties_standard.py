"""The properties of ``test_properties.py`` over random Standard and Expert games: every piece
in one place, every game ends, views invariant under swapping what the viewer has not seen
(the opponent's unrevealed, unscouted identities, and his hand cards with his discards),
save/restore mid-game."""

from __future__ import annotations

import json
import os
import random

import pytest

from stratego.engine import State, from_json, to_json, view
from stratego.module import GAME

from .helpers import TABLE
from .test_properties import one_place

GAMES = int(os.environ.get("STRATEGO_GAMES", "200")) // 4 or 1
CAP = 25
VARIANTS = ("standard", "expert")


def dumps(x: object) -> str:
    return json.dumps(x, sort_keys=True)


def options(variant: str, seed: int) -> dict:
    out: dict = {"variant": variant, "turn_cap": CAP}
    if variant == "expert" and seed % 2:
        out.update(early_start=True, grouchy=True)
    return out


def play(seed: int, variant: str, check=None):
    st = GAME.setup(seed, options(variant, seed), TABLE)
    bots = {s: GAME.bot("random", TABLE) for s in GAME.sides}
    actions, events = [], []
    seq = 0
    while (side := GAME.to_move(st)) is not None:
        legal = GAME.legal_actions(st, side)
        a = bots[side].choose(None, legal, GAME.bot_rng(seed, seq))
        events.append(GAME.apply(st, a, GAME.dice(seed, seq), legal=legal))
        actions.append(a)
        seq += 1
        if check is not None:
            check(st, seq)
        assert seq < 6000, "the game does not end"
    return st, actions, events


def swapped(st: State, viewer: str, rng: random.Random) -> State | None:
    copy = from_json(to_json(st), TABLE)
    enemy = "allied" if viewer == "french" else "french"
    c = copy.cards
    if c and c["hands"][enemy] and c["discards"][enemy] and viewer not in c["seen_discards"]:
        i = rng.randrange(len(c["hands"][enemy]))
        j = rng.randrange(len(c["discards"][enemy]))
        h, d = c["hands"][enemy][i], c["discards"][enemy][j]
        c["hands"][enemy][i], c["discards"][enemy][j] = d, h
        c["hands"][enemy].sort()
        c["discards"][enemy].sort()
    hidden = [p for p in copy.pieces.values() if p.side != viewer and not p.revealed
              and not p.scouted and p.where in ("board", "reserve", "pool")]
    rng.shuffle(hidden)
    for a in hidden:
        for b in hidden:
            if (a is not b and a.spec.army == b.spec.army and a.spec.back == b.spec.back
                    and (a.where, a.square) != (b.where, b.square)
                    and (a.where == "pool") == (b.where == "pool")
                    and a.spirit_half == b.spirit_half):
                a.where, b.where = b.where, a.where
                a.square, b.square = b.square, a.square
                copy.prussian_pool = [b.id if x == a.id else a.id if x == b.id else x
                                      for x in copy.prussian_pool]
                copy.rebuild_board()
                return copy
    return copy


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_piece_is_in_exactly_one_place_and_every_game_ends(variant):
    for seed in range(GAMES):
        st, _, _ = play(seed, variant, check=lambda s, q: one_place(s) if q % 25 == 0 else None)
        one_place(st)
        assert st.outcome is not None


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(4))
def test_swapping_what_the_viewer_has_not_seen_leaves_his_view_byte_identical(variant, seed):
    rng = random.Random(seed)
    checked = 0

    def check(st: State, seq: int) -> None:
        nonlocal checked
        if seq % 7:
            return
        for viewer in ("french", "allied"):
            other = swapped(st, viewer, rng)
            assert other is not None
            assert dumps(view(other, viewer)) == dumps(view(st, viewer))
            if GAME.to_move(st) == viewer:
                assert dumps(GAME.legal_actions(other, viewer)) == \
                    dumps(GAME.legal_actions(st, viewer))
            checked += 1

    play(seed, variant, check=check)
    assert checked


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(3))
def test_to_json_from_json_mid_game_changes_nothing(variant, seed):
    st, actions, events = play(seed, variant)
    half = len(actions) // 2
    replay = GAME.setup(seed, options(variant, seed), TABLE)
    for seq, a in enumerate(actions[:half]):
        GAME.apply(replay, a, GAME.dice(seed, seq))
    restored = from_json(json.loads(json.dumps(to_json(replay))), TABLE)
    assert dumps(to_json(restored)) == dumps(to_json(replay))
    for seq in range(half, len(actions)):
        assert dumps(GAME.apply(restored, actions[seq], GAME.dice(seed, seq))) == \
            dumps(events[seq])
    assert dumps(to_json(restored)) == dumps(to_json(st))
