"""The engine's speed caches (issue 14) must never change what it lists or does.

- ``legal_actions`` equals a straightforward listing (``reference_combat_actions``, with
  the rule-by-rule ``moves.limits_ok_after``) on a fresh, cache-free copy, at random positions
  (hypothesis).
- ``moves.LimitCounts`` (counted once per listing) answers as ``limits_ok_after`` for every
  own piece and Reserve card and every place, over a limit or not.
- Along 100 random battles with a turn cap, after every action of every type, the cached
  Field equals a fresh one and the listing equals that of a copy without caches.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from battles.engine import SIDES, SeededDice, apply, legal_actions, load_cards, new_battle
from battles.engine.board import POSITIONS
from battles.engine.moves import LimitCounts, limits_ok_after, limits_ok_counted
from battles.engine.queries import index
from battles.engine.state import historical_deck
from cards.catalogue.file import catalogue_records

from .reference import reference_combat_actions

CARDS = load_cards(catalogue_records())
BATTLES = ("quatre-bras", "ligny", "wavre", "waterloo")


def _summary(idx) -> tuple:
    return ([[p.pid for p in here] for here in idx], idx.eng, idx.pres, idx.stk,
            [[g.pid if g else None for g in gs] for gs in idx.gen], idx.ter,
            [[p.pid for p in own] for own in idx.own])


def _play(battle: str, seed: int, steps: int, decoys: bool, turn_cap: int | None = None):
    st = new_battle(battle, seed, None, {"turn_cap": turn_cap or 40, "decoys": decoys},
                    cards=CARDS)
    rng = random.Random(f"fast:{seed}")
    dice = SeededDice(seed)
    for _ in range(steps):
        if st.outcome is not None:
            break
        acts = legal_actions(st, SIDES[st.priority])
        apply(st, acts[rng.randrange(len(acts))], dice, check=False)
    return st


def _limits_agree(st) -> int:
    """LimitCounts against limits_ok_after for every own piece and card, every place."""
    idx = index(st)
    checked = 0
    for s in (0, 1):
        counts = LimitCounts(st, idx, s)
        for p in idx.own[s]:
            c = st.cards[p.num]
            for dst in (*POSITIONS, 4 * s):
                if dst == p.place:
                    continue
                assert limits_ok_counted(counts, c, p, dst) == \
                    limits_ok_after(st, idx, s, c, p, p.place, dst), (p.pid, dst)
                checked += 1
        for num in set(st.reserve[s]):
            c = st.cards[num]
            for dst in POSITIONS:
                assert limits_ok_counted(counts, c, None, dst) == \
                    limits_ok_after(st, idx, s, c, None, 4 * s, dst), (num, dst)
                checked += 1
    return checked


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battle=hs.sampled_from(BATTLES), seed=hs.integers(0, 10_000),
       steps=hs.integers(0, 400), decoys=hs.booleans())
def test_legal_actions_equal_a_straightforward_listing(battle, seed, steps, decoys):
    st = _play(battle, seed, steps, decoys)
    if st.outcome is not None:
        return
    side = SIDES[st.priority]
    fast = legal_actions(st, side)
    fresh = st.copy()  # no Field, no memo: everything worked out again
    assert fast == legal_actions(fresh, side)
    if st.phase == "combat" and st.step == "main":
        assert fast == reference_combat_actions(fresh, index(fresh), st.priority)
    _limits_agree(st)


def test_limit_counts_agree_over_a_limit_and_within():
    """Ligny and Waterloo often leave a side over a limit (RULINGS 8.4-a) mid-movement."""
    checked = over = 0
    for seed in range(6):
        st = new_battle(("ligny", "waterloo")[seed % 2], seed, None, {"turn_cap": 8},
                        cards=CARDS)
        rng = random.Random(seed)
        dice = SeededDice(seed)
        while st.outcome is None:
            checked += _limits_agree(st)
            over += LimitCounts(st, index(st), st.priority).over
            acts = legal_actions(st, SIDES[st.priority])
            apply(st, acts[rng.randrange(len(acts))], dice, check=False)
    assert checked > 1000 and over > 0


def test_caches_stay_consistent_through_every_action_type():
    """100 random battles (turn cap 3): after each action the cached Field equals a fresh
    one, and the listing equals that of a copy without caches."""
    types = set()
    for n in range(100):
        battle = BATTLES[n % 4]
        st = new_battle(battle, n, None, {"turn_cap": 3, "decoys": n % 3 == 0}, cards=CARDS)
        rng = random.Random(n)
        dice = SeededDice(n)
        while st.outcome is None:
            side = SIDES[st.priority]
            acts = legal_actions(st, side)
            assert acts == legal_actions(st.copy(), side)
            a = acts[rng.randrange(len(acts))]
            types.add(a["type"])
            apply(st, a, dice, check=False)
            cached = index(st)
            st.cache = None
            assert _summary(index(st)) == _summary(cached)
    assert {"deploy", "move", "fire", "shock", "pass", "change_formation", "play_special",
            "play_terrain", "end_phase", "end_turn", "decoy"} <= types


def test_historical_decks_from_the_cached_pools_are_the_same():
    fresh = load_cards(catalogue_records())
    for battle in BATTLES:
        for army in ("french", "british", "prussian"):
            try:
                a = historical_deck(battle, army, 3, CARDS)
            except KeyError:
                continue  # the army did not fight this battle
            assert a == historical_deck(battle, army, 3, CARDS)  # twice from the cache
            assert a == historical_deck(battle, army, 3, fresh)  # and from a new table


def test_per_card_facts_and_window_specials_agree_with_the_cards():
    """combat_actions' per-table facts are the card's own (8.3: two Battle Moves for Cavalry
    and Generals, one for the rest); special_actions' early "no Special of this window in
    the Reserve" answers as the full listing does."""
    from battles.engine.legal import _piece_facts
    from battles.engine.specials import WINDOWS, _by_window, special_actions

    facts = _piece_facts(CARDS)
    assert set(facts) == set(CARDS)
    for num, c in CARDS.items():
        card, kind, troop, prussian, moves = facts[num]
        assert card is c and kind == c.kind and troop == c.troop
        assert prussian == (c.army == "prussian")
        assert moves == (2 if c.kind in ("cavalry", "general") else 1)
    from battles.engine.specials import _options, playable

    def reference(st, idx, s):  # the listing without the early answer
        window = WINDOWS.get((st.phase, st.step))
        out, seen = [], set()
        for num in st.reserve[s]:
            if window is None or num not in _by_window(CARDS).get(window, ()) or num in seen:
                continue
            seen.add(num)
            if playable(st, s, num):
                out.extend(_options(st, idx, s, CARDS[num]))
        return out

    listed = 0
    for battle in BATTLES:
        for seed in range(3):
            st = new_battle(battle, seed, None, {"turn_cap": 6}, cards=CARDS)
            rng, dice = random.Random(seed), SeededDice(seed)
            while st.outcome is None:
                idx = index(st)
                for s in (0, 1):
                    got = special_actions(st, idx, s)
                    assert got == reference(st, idx, s)
                    listed += len(got)
                acts = legal_actions(st, SIDES[st.priority])
                apply(st, acts[rng.randrange(len(acts))], dice, check=False)
    assert listed  # the comparison saw Specials listed, not only empty listings


def test_board_shortcuts_agree_with_the_board():
    """``positions``, ``is_position`` and the per-side templates of the combat listing
    (constants read by index in the compiled engine) say what the board says."""
    from battles.engine.board import PLACE_NAMES, is_position, positions, reserve
    from battles.engine.legal import _END_PHASE, _MOVE

    for s in (0, 1):
        assert positions(s) == tuple(p for p in POSITIONS if (p < 4) == (s == 0))
        assert reserve(s) not in positions(s)
        # the keys in the order the listing always had (values set on each copy)
        assert list(_MOVE[s]) == ["type", "side", "piece", "to"]
        assert (_MOVE[s]["type"], _MOVE[s]["side"]) == ("move", SIDES[s])
        assert _END_PHASE[s] == {"type": "end_phase", "side": SIDES[s]}
    assert [p for p in range(len(PLACE_NAMES)) if is_position(p)] == list(POSITIONS)
