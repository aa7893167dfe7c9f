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
pools change the default decks, 2.0 note);
once for RULINGS 8.4-a (8.0: stacking limits and one General per Position bind once movement
is completed); once for RULINGS 13.0-a (two Specials per Position for both sides together)
and 13.0-d (no list of battles for Specials); once for RULINGS 8.3-a (a Cavalry or General
card's consecutive second move out of the Reserve); once for the MagWeb Q&A 4.1 and 14.0
(Infantry deploy in any formation; decoys may go back to the Reserve); and once for the
catalogue 1.1.0 and these rulings together (both landed in one merge); and once, Wavre
only, for RULINGS 4.1-e (issue 29: every card type of the pool keeps a place in a default
deck, so the Prussian default deck at Wavre holds Thielmann); and once for the morale roll's
event, which now names its parts (issue 28: the log shows the grade and each modifier; the
actions and every other field of every event were checked unchanged). Since catalogue 1.2.0
(issue 29) they replay the 1.1.0 records (GOLDEN_CATALOGUE), so a data correction no longer
moves them: a battle keeps the records it was set up with.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from battles.engine import SIDES, legal_actions, play_random
from battles.engine.legal import combat_actions
from battles.engine.queries import index
from cards.catalogue.file import catalogue_records, catalogue_version
from cards.data import corrections

from .reference import reference_combat_actions

# The card records the engine is given: catalogue 1.1.0, rebuilt from the current file by
# undoing the README's later correction tables. The digests below were taken with 1.1.0, and a
# battle keeps the records it was set up with (play.CardSet), so a catalogue correction (1.2.0,
# issue 29) must leave them exact; a new digest is for a rule change only.
GOLDEN_CATALOGUE = "1.1.0+2026-11-24"
RECORDS = corrections.rebuild(
    {"version": catalogue_version(), "cards": catalogue_records()}, GOLDEN_CATALOGUE)["cards"]

GOLDEN = {
    # (battle, decoys): (seeds 0..n-1, digest)
    ("quatre-bras", False): (
        10, "af8e9a0468352e4cf505efbc990ef1c9b71fe63740a8554e67ad120bbef3dfe8"
    ),
    ("ligny", False): (10, "583115e9bf83ec5ed70cc126d41cef8fcfd9695e86cae96b2f195db3772fed48"),
    ("wavre", False): (10, "8dfa0169ea05798ec596642dd87fbb29a5d47ef96ea56a5aeb0bd72f5dca5c86"),
    ("waterloo", False): (10, "92f9516f8a2d0c6ade9c40786fdb601417c63ef9a88b87c767badaaeeff40cf4"),
    ("quatre-bras", True): (5, "fb54c7fc9db8f05682eb3a24d43d7f8b7298c65a2c5f25d7aa7a4932d3e0abb8"),
    ("ligny", True): (5, "f1bde0e1dcbec3909bbfbe7dead17035f804add65c50e737ee1e17c50a1b736c"),
    ("wavre", True): (5, "97f734a9a6be86bf217dd46b7e5d3011e3e76a1069e20912cc6067b61ee07e2d"),
    ("waterloo", True): (5, "62408c294e8097717605f41fe5eccb3a0c7bb831d0dc6af9bd091cd33874bb3a"),
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
