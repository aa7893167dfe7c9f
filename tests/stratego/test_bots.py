"""The bots: they see only their side's view; greedy beats random.

The figure over more games: ``STRATEGO_BOT_GAMES=200 pytest tests/stratego/test_bots.py``
(or ``python -m stratego.simulate --games 200``)."""

import os

from stratego.simulate import match

from .helpers import TABLE

GAMES = int(os.environ.get("STRATEGO_BOT_GAMES", "20"))


def test_greedy_beats_random():
    result = match("greedy", "random", GAMES, TABLE)
    assert result["wins"]["greedy"] >= 0.8 * GAMES, result
    assert result["wins"]["random"] <= 0.1 * GAMES, result


def test_a_bot_is_handed_only_a_view():
    from stratego.module import GAME
    st = GAME.setup(1, {}, TABLE)
    bot = GAME.bot("greedy", TABLE)
    assert bot.needs_view
    seen = GAME.view(st, "allied")
    action = bot.choose(seen, GAME.legal_actions(st, "allied"), GAME.bot_rng(1, 0))
    # its own set-up (setup_policy): all but a reserve of at most 10 on the board
    assert action["type"] == "deploy" and 45 - 10 <= len(action["placement"]) <= 45
    GAME.apply(st, action, GAME.dice(1, 0))
    assert st.active == "french"


def test_greedy_beats_random_in_the_standard_game():
    games = max(GAMES // 2, 10)
    result = match("greedy", "random", games, TABLE, variant="standard")
    assert result["wins"]["greedy"] >= 0.8 * games, result
