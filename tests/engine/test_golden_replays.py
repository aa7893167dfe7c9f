"""Golden replays: speed work must not change a single event.

Each digest is the sha256 of ``json.dumps(events, sort_keys=True)`` and of the chosen actions
of ``play_random(battle, seed, record=True)`` for a fixed run of seeds. An optimisation must
leave them identical. An *intentional* rules change (a new ruling, a new legal action, a
different event) changes them too: then update the digests below in the same change and say
why in RULINGS.md / the commit message.

History: taken before the speed work (issue 4) and unchanged by it; updated once after, for
the rule changes RULINGS 13.0-c (specials name their targets), 13.0-f (a window after an
engaging move) and 14.0-b (a decoy revealed by a special is eliminated).
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
        10, "fbf2e68caf55a068815f7ffb714fa2a46833953dffaf295a0f6d5072f731d44b"
    ),
    ("ligny", False): (10, "8fd524cb0c5ed012cc4fb251559087dbccb278ee1865af758bacc4a7bfe82980"),
    ("wavre", False): (10, "f1b5fbc7f49a038ce84f5ed509c38a2657ec482b19675a020feb45ac10aab951"),
    ("waterloo", False): (10, "8179cb7715b275a6e4fbca71a758e028444b6dad6667ebe9df600e7d66337d8a"),
    ("quatre-bras", True): (5, "8b51ea7af497d2e8209cda2985b4f34114c6dc3be3e15343adb5e54dde51ae8c"),
    ("ligny", True): (5, "9adfc0208e33ff969a2dcda962959dbbaa78c9347455ac4783991f3f32f3ea72"),
    ("wavre", True): (5, "2c4a0d86c8010783fa48c966e32e58b01756a1822bf14e7274f8d5e7fd3b755c"),
    ("waterloo", True): (5, "e1d322c3d40e3d50c92aeb59feadb1e6c762ed82e2e2a3b48d63dbf7512f3b67"),
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
