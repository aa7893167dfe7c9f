"""The search bot plays campaigns too (issue 14: "Plays battles and campaigns"): its
determinisations read a campaign board's view, where a victor's survivors may fight in the
other battle (16.0: British cards at Ligny) and Charleroi has a campaign-only chart row, and
where reinforcement rates are the campaign's (the view's ``rates``)."""

from __future__ import annotations

import random

from battles.bots.determinise import Determiniser
from battles.campaign import apply, legal_actions, to_move, view
from battles.campaign.bots import CampaignBot
from battles.engine import SIDES, SeededDice, new_battle
from battles.engine import apply as apply_board
from battles.engine import legal_actions as board_legal
from battles.engine import view as board_view

from .helpers import TABLE, small_campaign


def test_a_hidden_card_of_an_army_the_chart_does_not_name_is_sampled_from_that_army():
    st = new_battle("ligny", "campaign-mix", settings={"turn_cap": 4}, cards=TABLE)
    dice = SeededDice("campaign-mix")
    while not any(p.side == 1 and not p.up for p in st.pieces.values()):  # deploy face down
        side = SIDES[st.priority]
        legal = board_legal(st, side)
        apply_board(st, next((a for a in legal if a["type"] == "deploy"), legal[0]), dice)
    v = board_view(st, "french")
    assert v["rates"] == dict(st.rates)  # public: the chart's (a campaign's doubled)
    # Say the face-down Allied piece is British, as a British card reinforcing Ligny shows.
    pid = next(p["piece"] for p in v["pieces"] if p["side"] == "allied" and "card" not in p)
    v = {**v, "pieces": [dict(p, army="british") if p["piece"] == pid else p
                         for p in v["pieces"]]}
    det = Determiniser(v, board_legal(st, SIDES[st.priority]), TABLE)
    assert "british" in det.armies and det.pool["british"]
    for seed in range(5):
        card = det.assignment(random.Random(seed))["pieces"][pid]
        assert TABLE[card].army == "british" and TABLE[card].kind in (
            "infantry", "cavalry", "artillery", "general")


def test_the_search_bot_plays_whole_small_campaigns_on_either_side():
    for seed, bots in ((3, ("search-easy", "greedy")), (4, ("greedy", "search-easy"))):
        c = small_campaign(seed, turn_cap=4)
        players = {s: CampaignBot(b, TABLE) for s, b in zip(SIDES, bots, strict=True)}
        rng, dice, steps = random.Random(seed), SeededDice(seed), 0
        while (turn := to_move(c)) is not None:
            side = turn["side"]
            legal = legal_actions(c, side)
            action = players[side].choose(view(c, side), legal, rng)
            assert action in legal
            apply(c, action, dice)
            steps += 1
            assert steps < 5000
        assert c.winner in SIDES and len(c.results) >= 2
