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
card's consecutive second move out of the Reserve); once for the MagWeb Q&A 4.1 and 14.0
(Infantry deploy in any formation; decoys may go back to the Reserve).
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
        10, "3e9668392735090bdae70234018fc332efeb9df68af984f069fa6028e588c236"
    ),
    ("ligny", False): (10, "cc3698dd80e5e460a99b5895891b40ef717da06c48c98495aa1eaabf5211e8de"),
    ("wavre", False): (10, "bd08a62fd22758fa83233d63aaf51bd5006b932df4233b69215c3e7756e40a54"),
    ("waterloo", False): (10, "9247004c30c6e8b4d52e7304d3bb942f3590bfd82307e882a3704b904bcf399d"),
    ("quatre-bras", True): (5, "4f98b941c49a9d011b67601f0cc5bbba07def92bd1dc763103ece2f50f649687"),
    ("ligny", True): (5, "ef167ed54f85e5cd19baf7e03bd9cfdaa3a241ab9f70d02cd17475d990eee0b0"),
    ("wavre", True): (5, "7312084e71f23104460dde132b59a85f3002fd587f3d791bbb5f02d08e914a48"),
    ("waterloo", True): (5, "643b6541ecfe3395491f8272c4222640f341291a733299ab476bef227ad7dd86"),
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
