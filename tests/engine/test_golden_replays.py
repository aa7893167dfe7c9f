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
and once for catalogue 1.1.0 (issue 9: corrected battles, guns and the specials' historical
pools change the default decks, 2.0 note).
"""

from __future__ import annotations

import hashlib
import json

import pytest

from battles.engine import SIDES, legal_actions, play_random
from battles.engine.legal import combat_actions, reference_combat_actions
from battles.engine.queries import index
from cards.catalogue_file import catalogue_records

RECORDS = catalogue_records()  # the card records the engine is given

GOLDEN = {
    # (battle, decoys): (seeds 0..n-1, digest)
    ("quatre-bras", False): (
        10, "f933d8b16ae663c0839dea4f808854558a0dc2ccdea949cbdb48927175c2394b"
    ),
    ("ligny", False): (10, "7597668b52fda6ac7d442b26488f40d1a72a63b906c93ab3b5c8e839603d5604"),
    ("wavre", False): (10, "2ed7ca4bbc525042173e628940ee9237c7b458ebd037a0e4171fe12be9fb964f"),
    ("waterloo", False): (10, "e73cbb40cc68839d5b7cdc91b94f0e5ff90245ab4cd574490079d4ce22cc97a9"),
    ("quatre-bras", True): (5, "6e6858f291fa4ab188522390ba5d88809c3166b4ef7cf6760e4a563944090106"),
    ("ligny", True): (5, "dabb2e55de5082f1a77e2363b9002db6f2f38674a8db25bdc5005584c010399c"),
    ("wavre", True): (5, "4cc7c635fcbfaea952550121e0ca9f3f7cfd45361a68ca71a044757a467d5a6d"),
    ("waterloo", True): (5, "0e528e1979086387e0b1f861aa7d72dd3dfd2eeefe6f94da4fbc60e23a8c6c86"),
}


def digest(battle: str, seeds: int, decoys: bool) -> str:
    h = hashlib.sha256()
    for seed in range(seeds):
        g = play_random(battle, seed, record=True, settings={"decoys": True} if decoys else None,
                        cards=RECORDS)
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
        play_random(battle, seed, settings={"decoys": decoys}, on_step=on_step, cards=RECORDS)
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
        play_random(battle, seed, settings={"decoys": seed == 1}, on_step=on_step, cards=RECORDS)
