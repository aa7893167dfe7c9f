"""Greedy's and the search's choices are pinned: the sha256 of the action sequence, and of
each side's rng state after every decision, of greedy-vs-greedy and search-vs-greedy battles.

The digests were computed on main's code (abe2e08) before greedy's scoring was made faster
(issue 14 session 4): any change to a heuristic, a tie-break, the rng draws or the search's
rollouts changes them. A changed digest is a changed bot, not a test to re-pin lightly.

The search's digests were re-pinned once, in issue 14 session 6 (27d0813), for one intended
change: its samples' seed is taken from the rng's state instead of drawn from the rng (so
its later tie-breaks are greedy's). Greedy's digest is unchanged since abe2e08.

Since issue 14 session 7 the search also searches deployment by default: the four digests of
session 6 still hold for the phases it searched then (``COMBAT_PHASES``), and two new ones pin
the default (deployment searched too).

Issue 29 re-pinned the three digests that play Wavre (greedy's, and the search's Wavre
ones) for one rules change, not a bot change: RULINGS 4.1-e, every card type of the pool
keeps a place in a default deck, so the Prussian default deck at Wavre holds Thielmann. The
other search digests are unchanged. Since catalogue 1.2.0 the battles play the 1.1.0 records
(CARDS), so a data correction leaves every digest as it was."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from battles.bots import Bot, GreedyBot
from battles.bots.search import SearchBot
from battles.engine import SIDES, SeededDice, apply, legal_actions, load_cards, new_battle, view
from cards.catalogue.file import catalogue_records, catalogue_version
from cards.data import corrections

# The card records of catalogue 1.1.0 (rebuilt from the file and the README's correction
# tables), the ones the digests were taken with: a catalogue correction (1.2.0, issue 29)
# changes the cards, not the bots, so it must not move these digests.
CARDS = load_cards(corrections.rebuild(
    {"version": catalogue_version(), "cards": catalogue_records()}, "1.1.0+2026-11-24")["cards"])
BATTLES = ("quatre-bras", "ligny", "wavre", "waterloo")


def digest(battle: str, seed: str, bots: dict[str, Bot], h: Any) -> None:
    """Play one battle (turn cap 40), feeding every action and rng state into ``h``."""
    st = new_battle(battle, seed, settings={"turn_cap": 40}, cards=CARDS)
    dice = SeededDice(seed)
    rngs = {s: random.Random(f"identity:{seed}:{s}") for s in SIDES}
    steps = 0
    while st.outcome is None:
        side = SIDES[st.priority]
        legal = legal_actions(st, side)
        a = bots[side].choose(view(st, side), legal, rngs[side])
        h.update(json.dumps(a, sort_keys=True).encode())
        h.update(repr(rngs[side].getstate()).encode())
        apply(st, a, dice, check=False)
        steps += 1
        assert steps < 5000
    h.update(json.dumps(st.outcome, sort_keys=True).encode())


def test_greedy_against_greedy_is_unchanged():
    h = hashlib.sha256()
    g = GreedyBot(CARDS)
    for seed in ("g1", "g2", "g3", "g4", "g5", "g6"):
        for battle in BATTLES:
            digest(battle, seed, {"french": g, "allied": g}, h)
    assert h.hexdigest() == GREEDY_DIGEST


COMBAT_PHASES = ("morale", "combat", "reinforce")  # the phases searched until session 7


def search_digest(battle: str, side: str, horizon: int, seed: str,
                  phases: tuple[str, ...]) -> str:
    h = hashlib.sha256()
    s = SearchBot(CARDS, samples=4, width=2, horizon=horizon, max_ms=None)
    s.phases = phases
    bots: dict[str, Bot] = {"french": GreedyBot(CARDS), "allied": GreedyBot(CARDS)}
    bots[side] = s
    digest(battle, seed, bots, h)
    h.update(json.dumps(s.stats, sort_keys=True).encode())
    return h.hexdigest()


@pytest.mark.parametrize(("battle", "side", "horizon", "seed"), [
    ("quatre-bras", "french", 200, "s2"), ("quatre-bras", "allied", 200, "s1"),
    ("wavre", "allied", 200, "s1"), ("waterloo", "french", 2, "s1")])
def test_search_against_greedy_is_unchanged(battle, side, horizon, seed):
    assert search_digest(battle, side, horizon, seed, COMBAT_PHASES) == \
        SEARCH_DIGESTS[battle, side, horizon, seed]


@pytest.mark.parametrize(("battle", "side", "seed"), [
    ("quatre-bras", "french", "s2"), ("wavre", "allied", "s1")])
def test_search_with_its_deployment_against_greedy_is_unchanged(battle, side, seed):
    assert "deploy" in SearchBot.phases
    assert search_digest(battle, side, 200, seed, SearchBot.phases) == \
        DEPLOYMENT_DIGESTS[battle, side, seed]


GREEDY_DIGEST = "d892eaf701d1037411cad36f96ae4a8d4eafe0dbe929dd78bb4634afb6dfbb70"
SEARCH_DIGESTS: dict[tuple[str, str, int, str], str] = {
    ("quatre-bras", "french", 200, "s2"):
        "8af6e53db73894dda8ae8c0920921d10227c319a2599e66c8c1508a2498ee7cb",
    ("quatre-bras", "allied", 200, "s1"):
        "635de07f7e60e39f4682918d881ace819efda5f57412e76a3b06f78b0ec5c409",
    ("wavre", "allied", 200, "s1"):
        "891ce5e4e63b33266af44ee90e92b098945b00d9c37fd76758ac44181f3116f7",
    ("waterloo", "french", 2, "s1"):
        "319b78ce5b6d41a82157b2650455c92c2ae1209061727e909dc7738e197f61f4",
}
DEPLOYMENT_DIGESTS: dict[tuple[str, str, str], str] = {
    ("quatre-bras", "french", "s2"):
        "714a5d5a3fa82e4ea15c0dccedcee04e97fcb001ab8eee3c1ccc09c086a7c448",
    ("wavre", "allied", "s1"):
        "8966e3f5412541259a15bee2b09cc948fe2b0c4713df06b06125a714408ea708",
}


def test_lazy_keyed_dice_roll_as_seeded_dice():
    from battles.bots.search import LazyDice, keyed_dice

    st = new_battle("ligny", "lazy", cards=CARDS)
    a = {"type": "fire", "side": "french", "piece": 3, "target": 9}
    lazy = keyed_dice("s", st, a)
    assert isinstance(lazy, LazyDice) and isinstance(lazy, SeededDice)  # apply: no snapshot
    eager = SeededDice(lazy.seed)
    assert [next(lazy) for _ in range(50)] == [next(eager) for _ in range(50)]
    assert lazy.used == eager.used == 50
