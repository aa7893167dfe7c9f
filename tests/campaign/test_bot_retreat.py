"""The greedy campaign bot's retreat (battles/campaign/bots.py): it concedes a battle that
looks lost anyway (under half the enemy's cards there AND more cards lost there than the
enemy), not one where it is merely the smaller army by the split."""

from __future__ import annotations

import random

from battles.campaign.bots import CampaignBot, lost_anyway

from .helpers import TABLE


def board(french: int, allied: int, lost_french: int, lost_allied: int,
          reserve=(0, 0)) -> dict:
    """A board view: ``french``/``allied`` cards on the field, in Reserve, in decks."""
    pieces = [{"side": "french"}] * french + [{"side": "allied"}] * allied
    return {"pieces": pieces,
            "reserves": {"french": {"count": reserve[0]}, "allied": {"count": reserve[1]}},
            "decks": {"french": 4, "british": 2, "prussian": 2},
            "eliminated": {"french": list(range(lost_french)),
                           "allied": list(range(lost_allied))}}


def test_lost_anyway_needs_both_the_odds_and_the_losses():
    # 6 + 4 French against 20 + 4 Allied cards: under half
    assert lost_anyway(board(6, 20, lost_french=5, lost_allied=2), "french")
    assert not lost_anyway(board(6, 20, lost_french=2, lost_allied=2), "french")  # a small army
    assert not lost_anyway(board(10, 10, lost_french=9, lost_allied=0), "french")  # even odds
    # exactly half is not under half: (8 + 4) vs (20 + 4)
    assert not lost_anyway(board(8, 20, lost_french=5, lost_allied=0), "french")
    # the Allies count both their decks
    assert lost_anyway(board(30, 4, lost_french=0, lost_allied=3), "allied")
    # the old rule (under a third, whatever the losses) stays expressible
    assert not lost_anyway(board(6, 20, 0, 0), "french", share=1 / 3, losing=False)
    assert lost_anyway(board(2, 20, 0, 0), "french", share=1 / 3, losing=False)


def test_the_greedy_bot_retreats_only_then_and_otherwise_fights():
    bot = CampaignBot("greedy", TABLE)
    bot.bot.choose = lambda view, legal, rng: legal[0]  # the battle move itself: not tested here
    retreat = {"type": "retreat", "side": "french", "board": "ligny"}
    end = {"type": "end_phase", "side": "french", "board": "ligny"}
    lost = {"boards": {"ligny": board(6, 20, lost_french=5, lost_allied=1)}}
    assert bot.choose(lost, [end, retreat], random.Random(1)) == retreat
    fighting = {"boards": {"ligny": board(6, 20, lost_french=1, lost_allied=1)}}
    assert bot.choose(fighting, [end, retreat], random.Random(1)) == end
