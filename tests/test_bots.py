"""Computer players (battles/bots): the random and greedy bots, their strength, and that a
bot never uses what it cannot see."""

from __future__ import annotations

import random

import pytest

from battles.bots import BOTS, GreedyBot, RandomBot, get_bot
from battles.engine import SIDES, SeededDice, apply, legal_actions, new_battle, view
from battles.simulate import run
from cards.catalogue.file import catalogue_records

RECORDS = catalogue_records()  # the card records the engine is given

BATTLES = ("quatre-bras", "ligny", "wavre", "waterloo")
# Issue 4: greedy beats random in at least 90 % of 200 battles on each side. The 200 are
# spread evenly over the four battles (the 200-per-battle figures of every battle are in
# battles/bots/README.md, from `manage.py simulate`).
STRENGTH_GAMES = {"quatre-bras": 50, "wavre": 50, "ligny": 50, "waterloo": 50}
STRENGTH_THRESHOLD = 0.90
# Per battle as well, so a collapse in one battle cannot hide in the pool. Wavre as French and
# Quatre Bras as Allied are the weakest cells (thin Musters, see the README: 86-92 %).
BATTLE_FLOOR = 0.80


def test_registry_names_random_and_greedy():
    assert set(BOTS) >= {"random", "greedy"}
    assert isinstance(get_bot("random"), RandomBot)
    assert isinstance(get_bot("greedy", RECORDS), GreedyBot)
    with pytest.raises(KeyError, match="unknown bot"):
        get_bot("alphazero")


def test_random_bot_is_uniform_over_legal_actions():
    legal = [{"type": "pass", "side": "french", "n": i} for i in range(4)]
    rng = random.Random(5)
    counts = [0] * 4
    for _ in range(4000):
        counts[legal.index(RandomBot().choose(None, legal, rng))] += 1
    assert all(900 < c < 1100 for c in counts)


@pytest.mark.parametrize("battle", BATTLES)
def test_greedy_plays_only_legal_actions_to_the_end(battle):
    st = new_battle(battle, "legal-check", cards=RECORDS)
    dice = SeededDice("legal-check")
    bots = {"french": GreedyBot(RECORDS), "allied": RandomBot()}
    rng = random.Random(1)
    steps = 0
    while st.outcome is None:
        side = SIDES[st.priority]
        legal = legal_actions(st, side)
        a = bots[side].choose(view(st, side), legal, rng)
        assert a in legal
        apply(st, a, dice, check=True)
        steps += 1
        assert steps < 20_000
    assert st.outcome["winner"] in ("french", "allied", None)


def _strength(side: str) -> tuple[int, int, dict]:
    wins = games = 0
    per = {}
    for battle, n in STRENGTH_GAMES.items():
        bots = {"french": "random", "allied": "random", side: "greedy"}
        s = run(battle, n, "strength", bots["french"], bots["allied"])
        per[battle] = s.wins[side]
        wins += s.wins[side]
        games += n
    return wins, games, per


def test_greedy_beats_random_90_percent_as_french():
    wins, games, per = _strength("french")
    assert wins / games >= STRENGTH_THRESHOLD, (wins, games, per)
    assert all(per[b] / n >= BATTLE_FLOOR for b, n in STRENGTH_GAMES.items()), per


def test_greedy_beats_random_90_percent_as_allied():
    wins, games, per = _strength("allied")
    assert wins / games >= STRENGTH_THRESHOLD, (wins, games, per)
    assert all(per[b] / n >= BATTLE_FLOOR for b, n in STRENGTH_GAMES.items()), per


# -- hidden information -----------------------------------------------------------------

def _swap_hidden(st, viewer: int):
    """A copy of ``st`` in which the identities of the opponent's face-down cards are
    rotated among themselves (per army), and its Reserve and undrawn Reinforcement cards are
    exchanged. Everything the viewer may see is unchanged."""
    other = st.copy()
    foe = 1 - viewer
    changed = False
    by_army: dict[str, list] = {}
    for p in other.pieces.values():
        if p.side == foe and not p.up:
            by_army.setdefault(other.cards[p.num].army, []).append(p)
    for pieces in by_army.values():
        nums = [p.num for p in pieces]
        rotated = nums[1:] + nums[:1]
        for p, n in zip(pieces, rotated, strict=True):
            p.num = n
        changed |= rotated != nums
    reserve = other.reserve[foe]
    fresh = other.fresh[foe]
    for army, deck in other.decks.items():
        if (army == "french") != (foe == 0) or not deck:
            continue
        if deck[::-1] != deck:
            deck.reverse()
            changed = True
        for i, num in enumerate(reserve):
            if other.cards[num].army != army or num in fresh:
                continue
            j = next((k for k, d in enumerate(deck) if d != num), None)
            if j is None:
                continue
            reserve[i], deck[j] = deck[j], num
            changed = True
            break
    reserve.sort()
    return other, changed


@pytest.mark.parametrize("battle,seed", [("quatre-bras", 3), ("wavre", 4), ("waterloo", 5)])
def test_greedy_choices_ignore_hidden_identities(battle, seed):
    """Swapping the identities of the opponent's face-down cards (and its undrawn
    reinforcements) leaves every decision of `greedy` unchanged, along whole games."""
    st = new_battle(battle, seed, cards=RECORDS)
    dice = SeededDice(seed)
    bots = {"french": GreedyBot(RECORDS), "allied": GreedyBot(RECORDS)}
    rngs = {s: random.Random(f"{seed}:{s}") for s in SIDES}
    compared = swapped = 0
    steps = 0
    while st.outcome is None and steps < 3000:
        side = SIDES[st.priority]
        s = st.priority
        state_rng = rngs[side].getstate()
        legal = legal_actions(st, side)
        action = bots[side].choose(view(st, side), legal, rngs[side])
        other, changed = _swap_hidden(st, s)
        other_rng = random.Random()
        other_rng.setstate(state_rng)
        other_action = GreedyBot(RECORDS).choose(view(other, side), legal_actions(other, side),
                                          other_rng)
        assert other_action == action, (steps, action, other_action)
        compared += 1
        swapped += changed
        apply(st, action, dice, check=False)
        steps += 1
    assert compared > 20 and swapped > 10
