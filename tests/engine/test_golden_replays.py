"""Golden replays: speed work must not change a single event.

Each digest is the sha256 of ``json.dumps(events, sort_keys=True)`` and of the chosen actions
of ``play_random(battle, seed, record=True)`` for a fixed run of seeds. An optimisation must
leave them identical. An *intentional* rules change (a new ruling, a new legal action, a
different event) changes them too: then update the digests below in the same change and say
why in RULINGS.md / the commit message.

History: taken before the speed work (issue 4) and unchanged by it; updated once after, for
the rule changes RULINGS 13.0-c (specials name their targets), 13.0-f (a window after an
engaging move) and 14.0-b (a decoy revealed by a special is eliminated); and once for the
default decks, which now keep the card-type proportions of the battle's pool (RULINGS); and
once for RULINGS 8.2-b (a card moved to its Reserve stays there for the rest of the turn);
once for RULINGS 8.4-a (8.0: stacking limits and one General per Position bind once movement
is completed); once for RULINGS 13.0-a (two Specials per Position for both sides together)
and 13.0-d (no list of battles for Specials); once for RULINGS 8.3-a (a Cavalry or General
card's consecutive second move out of the Reserve).
"""

from __future__ import annotations

import hashlib
import json

import pytest

from battles.engine import SIDES, legal_actions, play_random
from battles.engine.legal import combat_actions, reference_combat_actions
from battles.engine.queries import index

GOLDEN = {
    # (battle, decoys): (seeds 0..n-1, digest)
    ("quatre-bras", False): (
        10, "fc40ec2afd0a47b150987e41b2341317aabb4350c9759a7b69a0c12c7027b671"
    ),
    ("ligny", False): (10, "748556f066de124bebeb292bbdbd45afbea43dfe95c7b59251b3f543078c9d69"),
    ("wavre", False): (10, "fe563a240e1653dab6f6eda48bf302d40a1a0e3f8f33c5832b24817050294168"),
    ("waterloo", False): (10, "c0e3e6938c692288d9cafd097987fe7ae5f3efa0afdf2e3b3c95e18f2dee4040"),
    ("quatre-bras", True): (5, "320fbef0878dfc467c7f83f6baaf7c04a7b418c3687595f9be78ae43e5dc9982"),
    ("ligny", True): (5, "0b4399fc7ce102b98309ed00108c96e908770d824981bf849e8b95b742b6c793"),
    ("wavre", True): (5, "661b2e5ee718b400302650ba236acf064d6ea2c333226d9fc2b8ee7dfcdfa377"),
    ("waterloo", True): (5, "773977f027f053f42a8dfdd715ec301e78947415fab6bab26bb1f4daf83084e6"),
}


def digest(battle: str, seeds: int, decoys: bool) -> str:
    h = hashlib.sha256()
    for seed in range(seeds):
        g = play_random(battle, seed, record=True, settings={"decoys": True} if decoys else None)
        h.update(json.dumps(g.events, sort_keys=True).encode())
        h.update(json.dumps(g.actions, sort_keys=True).encode())
    return h.hexdigest()


@pytest.mark.parametrize(("battle", "decoys"), list(GOLDEN))
def test_golden_replay_digests_unchanged(battle, decoys):
    seeds, want = GOLDEN[(battle, decoys)]
    assert digest(battle, seeds, decoys) == want


@pytest.mark.parametrize("battle", ["quatre-bras", "ligny", "wavre", "waterloo"])
@pytest.mark.parametrize("decoys", [False, True])
def test_fast_combat_actions_equal_the_reference(battle, decoys):
    """``combat_actions`` (the fast path) lists exactly what the rule-by-rule reference
    lists, in the same order, at every Combat Phase step of random battles."""
    checked = 0

    def on_step(st, action, events):
        nonlocal checked
        if st.outcome is None and st.phase == "combat" and st.step == "main" and \
                not st.transit:
            idx = index(st)
            s = st.priority
            assert combat_actions(st, idx, s) == reference_combat_actions(st, idx, s)
            assert legal_actions(st, SIDES[s]) == reference_combat_actions(st, idx, s)
            checked += 1

    for seed in range(100, 104):
        play_random(battle, seed, settings={"decoys": decoys}, on_step=on_step)
    assert checked > 20


def _summary(idx) -> tuple:
    return ([[p.pid for p in here] for here in idx], idx.eng, idx.pres, idx.stk,
            [[g.pid if g else None for g in gs] for gs in idx.gen], idx.ter,
            [[p.pid for p in own] for own in idx.own])


@pytest.mark.parametrize("battle", ["ligny", "waterloo"])
def test_cached_field_always_equals_a_fresh_index(battle):
    """``queries.index`` keeps the Field in ``st.cache``; after every action the cached one
    must equal one computed from scratch."""

    def on_step(st, action, events):
        cached = index(st)
        st.cache = None
        assert _summary(index(st)) == _summary(cached)

    for seed in range(3):
        play_random(battle, seed, settings={"decoys": seed == 1}, on_step=on_step)
