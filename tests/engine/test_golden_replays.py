"""Golden replays: speed work must not change a single event.

Each digest is the sha256 of ``json.dumps(events, sort_keys=True)`` and of the chosen actions
of ``play_random(battle, seed, record=True)`` for a fixed run of seeds. An optimisation must
leave them identical. An *intentional* rules change (a new ruling, a new legal action, a
different event) changes them too: then update the digests below in the same change and say
why in RULINGS.md / the commit message.

History: taken before the speed work (issue 4) and unchanged by it; updated once after, for
the rule changes RULINGS 13.0-c (specials name their targets), 13.0-f (a window after an
engaging move) and 14.0-b (a decoy revealed by a special is eliminated); and once for the
default decks, which now keep the card-type proportions of the battle's pool (RULINGS).
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
        10, "18b54f7da0a7b24c4487650767d0ff8c4e1affcc192e3e13831696e349e54627"
    ),
    ("ligny", False): (10, "deb4c75835d1e6a5e29ffac6793fb6483d8007b1891af467a8c82f84fd8ee2bc"),
    ("wavre", False): (10, "456a4b87f2e81b5af0a5360f20ce756e83a4a8d661b74a254d234a860dfa6c9b"),
    ("waterloo", False): (10, "59c0ffee969da55f8051a85189f3e2a5719c351258084cd1abb89269bdfe91f3"),
    ("quatre-bras", True): (5, "a92399625b646b2d43b1eca2039d871ebbd9fb9a6cd2caafd246e5e6317446d9"),
    ("ligny", True): (5, "ace22f2cedae0ff6747db9ae8c2b30e5b29c46efdce23faa618cfda241e66688"),
    ("wavre", True): (5, "b5247f9487fb2f9b4895952ec2be52b919309117e5774c5d1f8f45a05c0cc33c"),
    ("waterloo", True): (5, "94b32e40bbfe98740c245fffe23d5ec25c02f358be4f7d92782d3a069bc1719e"),
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
