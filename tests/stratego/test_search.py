"""The search bot (issue 26): it samples the hidden identities from its view, never the true
state; it keeps to its CPU budget; it plays legal actions.

Its figure against greedy (200 games): ``python -m stratego.simulate --games 200 --first
search --second greedy --budget 0.01`` (README)."""

import random
import time

import pytest

from stratego.engine import legal_actions
from stratego.engine.board import BACK_ROW
from stratego.engine.pieces import BACK
from stratego.engine.view import view
from stratego.module import GAME
from stratego.players import make_bot
from stratego.search import clone, determinize

from .helpers import TABLE


def midgame(seed: int, actions: int, variant: str = "basic"):
    """A game between greedy bots, ``actions`` actions in, or its last position before it
    ended if it ends sooner (the bots' own set-ups make some games short), at a decision
    the search bot searches: no pause, no card being carried out."""
    st = GAME.setup(seed, {"variant": variant, "turn_cap": 60}, TABLE)
    bot = make_bot("greedy", TABLE)
    seq = 0
    last = None
    while (side := GAME.to_move(st)) is not None and (
            seq < actions or st.pending or st.card or st.due):
        if not (st.pending or st.card or st.due or st.pursuit) and st.phase == "play":
            last = clone(st)
        legal = GAME.legal_actions(st, side)
        GAME.apply(st, bot.choose(GAME.view(st, side), legal, GAME.bot_rng(seed, seq)),
                   GAME.dice(seed, seq))
        seq += 1
    if GAME.to_move(st) is None and last is not None:
        st = last
    assert GAME.to_move(st) is not None and st.phase == "play", "the game is still on"
    return st


def swapped(st, viewer: str):
    """The same game with the opponent's unrevealed pieces on the board shuffled among
    themselves, back by back (what the viewer cannot tell apart)."""
    doc = GAME.to_json(st)
    other = GAME.from_json(doc, TABLE)
    groups: dict[tuple[str, str], list[str]] = {}
    for p in other.pieces.values():
        if p.side != viewer and p.where == "board" and not p.revealed and not p.scouted:
            groups.setdefault((BACK[p.type], p.spec.army == "prussian"), []).append(p.id)
    rng = random.Random(5)
    moved = 0
    for ids in groups.values():
        squares = [other.pieces[pid].square for pid in ids]
        rng.shuffle(squares)
        for pid, s in zip(ids, squares, strict=True):
            moved += s != other.pieces[pid].square
            other.pieces[pid].square = s
    other.rebuild_board()
    return other, moved


@pytest.mark.parametrize("variant", ["basic", "standard"])
def test_the_search_bot_never_reads_the_true_state(variant):
    st = midgame(7, 40, variant)
    side = GAME.to_move(st)
    other, moved = swapped(st, side)
    assert moved > 5
    assert GAME.view(other, side) == GAME.view(st, side)
    choices = []
    for game in (st, other):
        bot = make_bot("search", TABLE, budget=30.0, samples=3)
        choices.append(bot.choose(GAME.view(game, side), GAME.legal_actions(game, side),
                                  random.Random(11)))
        assert bot.last["samples"] == 3
    assert choices[0] == choices[1]


@pytest.mark.parametrize("variant", ["basic", "standard", "expert"])
def test_a_determinization_is_consistent_with_the_view(variant):
    st = midgame(3, 60, variant)
    side = GAME.to_move(st)
    seen = GAME.view(st, side)
    for k in range(5):
        sample = determinize(seen, TABLE, random.Random(k))
        again = view(sample, side)
        assert again["board"] == seen["board"]
        assert again["sides"] == seen["sides"]
        assert again.get("cards") == seen.get("cards")
        assert len(sample.prussian_pool) == seen["prussians_to_come"]
        # the enemy's commanders (Von Bulow aside) are on the board (001 §6)
        for p in sample.pieces.values():
            if p.side != side and p.type in ("commander", "commander_in_chief") \
                    and p.spec.army != "prussian":
                assert p.where in ("board", "withdrawn", "eliminated")
        assert legal_actions(sample, side) == legal_actions(st, side)


def test_the_search_bot_keeps_to_its_budget_and_plays_legal_actions():
    st = GAME.setup(4, {"turn_cap": 60}, TABLE)
    search = make_bot("search", TABLE, budget=0.05)
    greedy = make_bot("greedy", TABLE)
    seq = 0
    searched = 0
    while (side := GAME.to_move(st)) is not None and seq < 80:
        legal = GAME.legal_actions(st, side)
        bot = search if side == "french" else greedy
        started = time.process_time()
        a = bot.choose(GAME.view(st, side), legal, GAME.bot_rng(4, seq))
        if bot is search:
            assert time.process_time() - started <= 0.05 + 0.03
            searched += search.last.get("samples", 0) > 0
        assert a in legal or a["type"] == "deploy"  # its own placement, checked by apply
        GAME.apply(st, a, GAME.dice(4, seq))
        seq += 1
    assert searched >= 10


def test_the_search_bot_is_registered_with_the_module_and_decides_within_a_second():
    bot = GAME.bot("search", TABLE)
    assert bot.needs_view and bot.budget <= 1.0
    st = midgame(5, 30)
    side = GAME.to_move(st)
    started = time.process_time()
    action = bot.choose(GAME.view(st, side), GAME.legal_actions(st, side), random.Random(2))
    assert time.process_time() - started <= 1.0
    assert action in GAME.legal_actions(st, side) and bot.last["samples"] >= 3


def test_the_search_bot_takes_a_won_game():
    """Two units on the enemy's lines of retreat win (001 §3): it finds the second."""
    from .helpers import find, position
    st = position({find("french", "light_cavalry"): (4, 9),
                   find("french", "light_cavalry", skip=1): (6, 5),
                   find("french", "commander"): (0, 0),
                   find("french", "commander_in_chief"): (1, 0),
                   find("allied", "commander"): (11, 6),
                   find("allied", "commander_in_chief"): (10, 6)},
                  active="french", lines={"allied": "centre"})
    bot = make_bot("search", TABLE, budget=30.0, samples=4)
    a = bot.choose(view(st, "french"), legal_actions(st, "french"), random.Random(1))
    assert a["type"] == "move" and a["to"][1] == BACK_ROW["allied"] and 4 <= a["to"][0] <= 7


def test_a_determinization_knows_when_a_heavy_cavalry_piece_charged():
    """A charge is an attack both players see: when it came is in the view, so a sample
    offers a charged piece's `rest` exactly when the true position does (001 §4: only after
    the opponent could counter charge)."""
    from stratego.engine import apply

    from .helpers import act, find, position
    hc = find("french", "heavy_cavalry", 4)
    st = position({hc: (5, 3), find("allied", "light_infantry", 1): (5, 5),
                   find("french", "commander"): (0, 0),
                   find("french", "commander_in_chief"): (1, 0),
                   find("allied", "commander"): (11, 9),
                   find("allied", "commander_in_chief"): (10, 9)})
    apply(st, act(st, type="attack", **{"from": [5, 3], "via": [5, 4], "target": [5, 5]}), [])
    rests = []
    for _ in range(3):  # the turn of the charge, the opponent's, the next
        side = GAME.to_move(st)
        seen = GAME.view(st, side)
        for viewer in ("french", "allied"):
            shown = next(pv for pv in GAME.view(st, viewer)["board"] if pv.get("id") == hc)
            assert shown["charged_at"] == st.pieces[hc].charged_at
        for k in range(3):
            sample = determinize(seen, TABLE, random.Random(k))
            assert sample.pieces[hc].charged_at == st.pieces[hc].charged_at
            assert legal_actions(sample, side) == legal_actions(st, side)
        rests.append(any(a["type"] == "rest" for a in legal_actions(st, side)))
        apply(st, act(st, type="end_turn"), [])
    assert rests == [False, False, True]
