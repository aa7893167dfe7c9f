"""One test per sentence of 16.0 and one per campaign ruling (RULINGS 16-a ... 16-o)."""

from __future__ import annotations

import random

import pytest

from battles.campaign import (
    apply,
    legal_actions,
    new_campaign,
    places,
    split_plan,
    to_move,
)
from battles.campaign.core import _battle_over, current_board
from battles.engine import IllegalAction, SeededDice
from battles.engine.morale import supports
from game import chart_row, deck_figures

from .helpers import TABLE, drive, passive, small_campaign, small_pools

FR_BOTH = {("quatre-bras", "allied"), ("ligny", "allied")}


def started(c):
    return c.step == "play" and all(st.phase != "deploy" for st in c.boards.values())


# --- the sentences of 16.0 -------------------------------------------------------------

def test_16_0_requires_all_or_most_cards_whole_set_by_default_or_a_collection():
    whole = new_campaign(1, TABLE)
    assert len(places(whole)) == 300
    small = small_campaign()
    assert len(places(small)) == sum(len(v) for v in small_pools().values())
    with pytest.raises(IllegalAction, match="not a french card"):
        new_campaign(1, TABLE, {"french": [111]})


def test_16_0_separate_quatre_bras_and_ligny_decks_excluding_cards_at_neither():
    c = new_campaign(1, TABLE)
    for s in (0, 1):
        for n in c.set_aside[s]:
            assert not {"quatre-bras", "ligny"} & set(TABLE[n].battles)
        for n in c.pools[s]:
            assert {"quatre-bras", "ligny"} & set(TABLE[n].battles)


def test_16_0_two_simultaneous_battles_quatre_bras_then_ligny():
    c = small_campaign()
    apply(c, legal_actions(c, "french")[0])
    assert set(c.boards) == {"quatre-bras", "ligny"} and current_board(c) == "quatre-bras"
    assert c.boards["quatre-bras"].armies == ("french", "british")
    assert c.boards["ligny"].armies == ("french", "prussian")


def test_16_0_musters_half_of_each_deck_and_rates_double_the_chart():
    c = new_campaign(1, TABLE)  # the whole set: "assuming most cards are in play"
    apply(c, legal_actions(c, "french")[0])
    for b, st in c.boards.items():
        for army, deck in st.decks.items():
            s = 0 if army == "french" else 1
            assert len(st.reserve[s]) == (len(st.reserve[s]) + len(deck)) // 2
            assert st.rates[army] == 2 * {"quatre-bras": 1, "ligny": 2}[b]


def test_16_c_the_doubled_rate_scales_with_a_deck_smaller_than_the_charts():
    # 16.0 "Reinforcement rates (assuming most cards are in play) are double the rates";
    # 3.0 IMPORTANT "if players play with larger/smaller Battle Decks, the specified Musters
    # and Reinforcement rates are altered proportionally": Ligny R2, D36
    rate = {n: deck_figures("ligny", "french", "campaign", 1, size=n).reinforcement_rate
            for n in (1, 8, 9, 18, 27, 36, 60)}
    assert rate == {1: 1, 8: 1, 9: 1, 18: 2, 27: 3, 36: 4, 60: 4}
    c = small_campaign()  # a small collection: every deck under the chart's D
    apply(c, legal_actions(c, "french")[0])
    for b, st in c.boards.items():
        for army in st.decks:
            assert st.rates[army] == 1 < 2 * chart_row(b)[army].reinforcements
    # Charleroi's rates are printed in 16.0 itself, without the assumption
    assert deck_figures("charleroi", "french", "campaign", 1, size=5).reinforcement_rate == 3


def test_16_0_eliminated_cards_are_eliminated_for_the_entire_campaign():
    c = small_campaign()
    drive(c, until=started)
    st = c.boards["quatre-bras"]
    p = next(p for p in st.pieces.values() if p.side == 1)
    del st.pieces[p.pid]
    st.elim[1].append(p.num)
    st.cache = None
    drive(c, retreat={("quatre-bras", "french"), ("ligny", "french")}, reinforce=False)
    assert p.num in c.eliminated[1] and p.num not in c.pools[1]


def test_16_0_a_player_may_retreat_all_surviving_cards_conceding_the_battle():
    c = small_campaign()
    drive(c, until=started)
    before = sorted(n for n, w in places(c).items() if w == "board:quatre-bras"
                    and TABLE[n].army == "french")
    drive(c, retreat={("quatre-bras", "french")}, reinforce=False,
          until=lambda c: "quatre-bras" in c.results)
    assert c.results["quatre-bras"]["winner"] == "allied"
    assert all(n in c.pools[0] for n in before)


def test_16_0_when_a_player_wins_all_enemy_cards_must_retreat_and_engaged_cards_check():
    c = small_campaign()
    drive(c, until=started)
    st = c.boards["quatre-bras"]
    p = next(p for p in st.pieces.values() if p.side == 1 and TABLE[p.num].troop)
    q = next(q for q in st.pieces.values() if q.side == 0 and TABLE[q.num].troop)
    for r in st.pieces.values():
        r.hits = r.ghits = 0
        if r.pid not in (p.pid, q.pid) and r.place in (1, 2, 3, 5, 6, 7):
            r.place = 0 if r.side == 0 else 4
    q.place = p.place
    st.cache = None
    events: list = []
    _battle_over(c, "quatre-bras", "french", "occupation", iter([6]), events)
    assert p.num in c.eliminated[1]
    assert [e["type"] for e in events if e["type"] == "retreat_check"] == ["retreat_check"]
    assert q.num in c.pools[0]


def test_16_0_the_victor_reinforces_the_other_battle_reshuffling_survivors():
    c = small_campaign()
    drive(c, until=started)
    drive(c, retreat={("quatre-bras", "allied")}, until=lambda c: c.step == "reinforce")
    d = c.decision
    assert d["side"] == "french" and d["to"] == "ligny"
    deck_before = len(c.boards["ligny"].decks["french"])
    apply(c, legal_actions(c, "french")[0])  # reinforce
    assert len(c.boards["ligny"].decks["french"]) == deck_before + len(d["cards"])
    assert not set(d["cards"]) & set(c.pools[0])


def test_16_0_if_the_french_lose_both_battles_they_lose_the_campaign():
    c = drive(small_campaign(), retreat={("quatre-bras", "french"), ("ligny", "french")},
              reinforce=False)
    assert c.winner == "allied" and c.phase == "over"


def test_16_0_if_the_french_win_both_wavre_and_waterloo_are_played():
    c = drive(small_campaign(), retreat=FR_BOTH, reinforce=False,
              until=lambda c: c.phase == "second" and c.step == "play")
    assert set(c.boards) == {"waterloo", "wavre"}
    assert c.boards["waterloo"].decks["prussian"] and not c.boards["waterloo"].reserve[1] or \
        all(TABLE[n].army == "british" for n in c.boards["waterloo"].reserve[1])


def test_16_0_the_winner_of_wavre_may_reinforce_waterloo():
    c = drive(small_campaign(), retreat=FR_BOTH | {("wavre", "allied")}, reinforce=False,
              until=lambda c: c.phase == "over" or bool(c.decision and
                                                        c.decision["from"] == "wavre"))
    assert c.decision == {**c.decision, "side": "french", "from": "wavre", "to": "waterloo"}


def test_16_0_the_winner_of_waterloo_wins_the_campaign():
    c = drive(small_campaign(), retreat=FR_BOTH | {("waterloo", "french")}, reinforce=False)
    assert c.winner == "allied" and c.results["waterloo"]["winner"] == "allied"


def test_16_0_one_each_the_battle_of_charleroi_with_all_surviving_cards():
    c = drive(small_campaign(), retreat={("quatre-bras", "french"), ("ligny", "allied")},
              reinforce=False, until=lambda c: c.phase == "charleroi" and c.step == "play")
    st = c.boards["charleroi"]
    assert st.rates == {"french": 3, "british": 2, "prussian": 2}
    assert not any(c.set_aside)  # the Hal cards are in
    hal = [n for n in small_pools()["allied"] if not TABLE[n].battles]
    assert all(places(c)[n] == "board:charleroi" for n in hal)


def test_16_0_the_winner_of_charleroi_wins_the_campaign():
    c = drive(small_campaign(), retreat={("quatre-bras", "allied"), ("ligny", "french"),
                                          ("charleroi", "allied")}, reinforce=False)
    assert c.winner == "french" and c.results["charleroi"]["winner"] == "french"


# --- rulings ---------------------------------------------------------------------------

def test_16_a_french_split_is_any_partition():
    c = small_campaign()
    free, _ = split_plan(c, "french")
    apply(c, {"type": "split", "side": "french",
              "decks": {"quatre-bras": free[:1], "ligny": free[1:]}})
    assert c.step == "play"
    c = small_campaign()
    with pytest.raises(IllegalAction, match="exactly once"):
        apply(c, {"type": "split", "side": "french",
                  "decks": {"quatre-bras": free[:1], "ligny": free[:1]}})
    with pytest.raises(IllegalAction, match="must split"):
        apply(c, {"type": "retreat", "side": "french", "board": "ligny"})
    assert legal_actions(c, "allied") == []


def test_16_a_terrain_goes_to_its_battle():
    c = new_campaign(1, TABLE, {"french": [1, 2, 84, 87], "allied": [111, 175, 201, 273]})
    free, forced = split_plan(c, "french")
    assert 84 in forced["quatre-bras"] and 87 in forced["ligny"] and 84 not in free


def test_16_b_boards_alternate_by_battle_turn():
    c = small_campaign()
    seen = []
    drive(c, until=lambda c: (seen.append((current_board(c), c.boards.get(current_board(c))
                                           and c.boards[current_board(c)].turn))
                              if c.step == "play" else None) or len(
        {s for s in seen if s[1]}) >= 4)
    turns = [s for i, s in enumerate(seen) if s[1] and (i == 0 or seen[i - 1] != s)]
    assert turns[:4] == [("quatre-bras", 1), ("ligny", 1), ("quatre-bras", 2), ("ligny", 2)]


def test_16_c_musters_half_round_down():
    assert deck_figures("ligny", "french", "campaign", 1, size=7).muster == 3
    c = new_campaign(1, TABLE, {"french": [1, 2, 3], "allied": [111, 201]})
    apply(c, {"type": "split", "side": "french",
              "decks": {"quatre-bras": [1], "ligny": [2, 3]}})
    qb = c.boards["quatre-bras"]
    assert qb.reserve[0] == [1] and qb.reserve[1] == [111]  # one-card decks muster it


def test_16_c_walkover():
    c = new_campaign(1, TABLE, {"french": [1, 2, 3], "allied": [201]})
    apply(c, {"type": "split", "side": "french", "decks": {"quatre-bras": [1], "ligny": [2, 3]}})
    assert c.results["quatre-bras"] == {"winner": "french", "reason": "walkover", "turn": 0}
    assert "quatre-bras" not in c.boards


def test_16_d_soult_commands_at_quatre_bras_while_napoleon_is_at_ligny():
    soult = next(n for n, c in TABLE.items() if c.army == "french" and c.cos)
    troop = next(n for n, c in TABLE.items() if c.army == "french" and c.kind == "infantry"
                 and "quatre-bras" in c.battles)
    c = new_campaign(1, TABLE, {"french": [1, soult, troop], "allied": [111, 201]})
    apply(c, {"type": "split", "side": "french",
              "decks": {"quatre-bras": [soult, troop], "ligny": [1]}})
    assert supports(c.boards["quatre-bras"], TABLE[soult], TABLE[troop])


def test_16_e_retreat_only_before_moving():
    c = small_campaign()
    drive(c, until=started)
    legal = legal_actions(c, "french")
    assert {"type": "retreat", "side": "french", "board": "quatre-bras"} in legal
    act = next(a for a in legal if a["type"] in ("move", "change_formation", "fire"))
    apply(c, act, [1] * 40)
    if to_move(c)["side"] == "french" and to_move(c)["board"] == "quatre-bras":
        assert all(a["type"] != "retreat" for a in legal_actions(c, "french"))
    with pytest.raises(IllegalAction, match="Morale Phase"):
        apply(c, {"type": "retreat", "side": to_move(c)["side"], "board": to_move(c)["board"]})


def retreat_window(seed=3):
    """A campaign at the start of a French Combat Phase at Quatre Bras where a retreat, a
    Terrain play, a Special play and an unengaged formation change are all legal."""
    pools = small_pools()
    extra = [n for n, card in TABLE.items() if card.army == "french" and (
        card.kind == "special" or card.tbattle == "quatre-bras")]
    c = new_campaign(seed, TABLE, {**pools, "french": sorted(set(pools["french"]) | set(extra))})
    dice = SeededDice(0)
    for _ in range(3000):
        tm = to_move(c)
        legal = legal_actions(c, tm["side"])
        kinds = {a["type"] for a in legal}
        if tm["board"] == "quatre-bras" and {"retreat", "play_terrain", "play_special",
                                            "change_formation", "move"} <= kinds:
            return c
        apply(c, legal[1] if tm["step"] == "split" else passive(legal), dice)
    raise AssertionError("no such position")


def french_again(c):
    """Let the Allies answer (pass) until the French act again at Quatre Bras."""
    while to_move(c)["side"] != "french":
        apply(c, passive(legal_actions(c, "allied")), SeededDice(1))
    assert to_move(c)["board"] == "quatre-bras"


@pytest.mark.parametrize("kind", ["play_terrain", "play_special", "change_formation"])
def test_16_e_terrain_special_or_unengaged_formation_change_keeps_the_retreat_window(kind):
    # 16.0 "after their Morale Phase (before Moving or Firing any cards)"; 9.0 an unengaged
    # card changes formation without a move
    c = retreat_window()
    act = next(a for a in legal_actions(c, "french") if a["type"] == kind)
    apply(c, act, SeededDice(2))
    french_again(c)
    assert {"type": "retreat", "side": "french", "board": "quatre-bras"} in \
        legal_actions(c, "french")


def test_16_e_a_move_closes_the_retreat_window():
    c = retreat_window()
    apply(c, next(a for a in legal_actions(c, "french") if a["type"] == "move"), SeededDice(2))
    french_again(c)
    assert all(a["type"] != "retreat" for a in legal_actions(c, "french"))
    with pytest.raises(IllegalAction, match="before moving or firing"):
        apply(c, {"type": "retreat", "side": "french", "board": "quatre-bras"})


def test_16_e_a_voluntary_retreat_concedes_a_victory_so_engaged_cards_check():
    # 16.0 "Retreat concedes a victory to the opposing player" and "When a player wins one
    # battle, all enemy cards MUST immediately Retreat (after making any necessary Morale
    # checks) AND, each engaged card must survive another Morale check."
    c = small_campaign()
    drive(c, until=started)
    st = c.boards["quatre-bras"]
    for r in st.pieces.values():
        r.hits = r.ghits = 0
    mine = next(p for p in st.pieces.values() if p.side == 0 and TABLE[p.num].troop)
    enemy = next(p for p in st.pieces.values() if p.side == 1 and TABLE[p.num].troop)
    enemy.place = mine.place  # the enemy engages one French card
    st.cache = None
    engaged = [p for p in st.pieces.values() if p.side == 0 and p.place == mine.place
               and TABLE[p.num].kind in ("general", "infantry", "cavalry", "artillery")]
    events = apply(c, {"type": "retreat", "side": "french", "board": "quatre-bras"},
                   [6] * len(engaged))
    checks = [e for e in events if e["type"] == "retreat_check"]
    assert len(checks) == len(engaged) and not any(e["passed"] for e in checks)
    assert mine.num in c.eliminated[0]  # a natural 6 routs (6.0)
    assert c.results["quatre-bras"]["reason"] == "retreat"
    assert c.step == "reinforce" and c.decision["side"] == "allied"


def test_16_e_a_voluntary_retreat_checks_no_unengaged_card():
    c = small_campaign()
    drive(c, until=started)
    events = apply(c, {"type": "retreat", "side": "french", "board": "quatre-bras"})
    assert not [e for e in events if e["type"] == "retreat_check"]  # nothing engaged yet
    assert not c.eliminated[0]


def test_16_f_won_battle_loser_rolls_pending_then_engaged_checks():
    c = small_campaign()
    drive(c, until=started)
    st = c.boards["quatre-bras"]
    p = next(p for p in st.pieces.values() if p.side == 1 and TABLE[p.num].troop)
    for r in st.pieces.values():
        r.hits = r.ghits = 0
    p.hits = 2
    events: list = []
    _battle_over(c, "quatre-bras", "french", "occupation", iter([1, 1]), events)
    assert [e["roll"] for e in events if e["type"] == "retreat_check"] == [1, 1]
    assert p.num in c.pools[1]


def test_16_g_extra_check_uses_printed_morale():
    c = small_campaign()
    drive(c, until=started)
    st = c.boards["quatre-bras"]
    p = next(p for p in st.pieces.values() if p.side == 1 and TABLE[p.num].troop)
    for r in st.pieces.values():
        r.hits = r.ghits = 0
    p.hits = 1
    value = TABLE[p.num].morale
    events: list = []
    _battle_over(c, "quatre-bras", "french", "occupation", iter([value + 1]), events)
    assert p.num in c.eliminated[1]  # one over the printed value routs, no modifiers


def test_16_h_played_specials_return_to_the_pool():
    c = small_campaign()
    drive(c, until=started)
    st = c.boards["quatre-bras"]
    n = (st.reserve[0] or st.decks["french"]).pop()
    st.discard[0].append(n)
    drive(c, retreat={("quatre-bras", "french")}, reinforce=False,
          until=lambda c: "quatre-bras" in c.results)
    assert n in c.pools[0]


def test_16_i_british_may_reinforce_ligny():
    c = small_campaign()
    drive(c, until=started)
    apply(c, {"type": "retreat", "side": "french", "board": "quatre-bras"})
    cards = list(c.decision["cards"])
    apply(c, {"type": "reinforce", "side": "allied", "from": "quatre-bras", "to": "ligny"})
    deck = c.boards["ligny"].decks["prussian"]
    assert set(cards) <= set(deck) and any(TABLE[n].army == "british" for n in cards)


def test_16_i_the_won_battles_terrain_stays_in_the_pool():
    # 2.0 "Terrain cards should always be historical": Quatre Bras terrain never joins the
    # Ligny deck, where it could never be played; it waits in the pool (as in 16-k, 16-m)
    pools = small_pools()
    c = new_campaign(1, TABLE, {**pools, "allied": sorted(pools["allied"] + [175])})
    drive(c, until=started)
    assert places(c)[175] == "board:quatre-bras"
    apply(c, {"type": "retreat", "side": "french", "board": "quatre-bras"})
    assert 175 not in c.decision["cards"] and c.decision["cards"]
    apply(c, {"type": "reinforce", "side": "allied", "from": "quatre-bras", "to": "ligny"})
    assert places(c)[175] == "pool" and 175 not in c.boards["ligny"].decks["prussian"]


def test_16_j_no_reinforcing_a_battle_already_over():
    c = drive(small_campaign(), retreat={("quatre-bras", "allied")}, reinforce=False,
              until=lambda c: "quatre-bras" in c.results and c.step == "play")
    drive(c, retreat={("ligny", "allied")}, until=lambda c: "ligny" in c.results)
    assert c.decision is None and c.phase == "second"


def test_16_k_second_phase_cards():
    c = drive(small_campaign(), retreat=FR_BOTH, reinforce=False,
              until=lambda c: c.phase == "second")
    hal = [n for n in small_pools()["allied"] if not TABLE[n].battles]
    assert sorted(c.set_aside[1]) == sorted(hal) and not c.set_aside[0]


def test_16_k_only_waterloo_cards_join_and_the_terrain_of_wavre():
    # 16.0 "Use all surviving cards, adding Waterloo cards not yet in play"; 2.0 "Terrain
    # cards should always be historical": Wavre's own terrain joins, its other cards do not
    wavre_only = [47, 48]  # Brigades Laffitte and Penne: Wavre alone
    assert all(TABLE[n].battles == ("wavre",) and TABLE[n].troop for n in wavre_only)
    assert TABLE[91].tbattle == TABLE[178].tbattle == "waterloo"
    assert TABLE[89].tbattle == TABLE[278].tbattle == "wavre"
    pools = small_pools()
    pools["french"] = sorted(pools["french"] + wavre_only + [89, 90, 91])
    pools["allied"] = sorted(pools["allied"] + [178, 278, 279])
    c = drive(new_campaign(1, TABLE, pools), retreat=FR_BOTH, reinforce=False,
              until=lambda c: c.phase == "second")
    assert sorted(c.set_aside[0]) == wavre_only
    for n in (89, 90, 91, 178, 278, 279):
        assert places(c)[n] != "set_aside"


def test_16_l_a_draw_is_no_french_win():
    c = small_campaign()
    drive(c, until=started)
    _battle_over(c, "quatre-bras", None, "turn_cap", iter(()), [])
    _battle_over(c, "ligny", "french", "turn_cap", iter(()), [])
    assert c.phase == "charleroi"


def test_16_m_charleroi_row_and_decks():
    from game import BATTLES_CHART, CAMPAIGN_CHART
    assert "charleroi" in CAMPAIGN_CHART and "charleroi" not in BATTLES_CHART
    assert deck_figures("charleroi", "french", "campaign", 1, size=20).reinforcement_rate == 3
    c = drive(small_campaign(), retreat={("quatre-bras", "french"), ("ligny", "allied")},
              reinforce=False, until=lambda c: c.phase == "charleroi" and c.step == "play")
    st = c.boards["charleroi"]
    assert all(TABLE[n].kind != "terrain" for n in st.reserve[0] + st.reserve[1])


def test_16_n_no_turn_cap_by_default():
    c = small_campaign()
    apply(c, legal_actions(c, "french")[0])
    assert all(st.settings["turn_cap"] is None for st in c.boards.values())
    assert passive([{"type": "end_turn"}]) == {"type": "end_turn"}


def test_4_1_e_split_proposals_keep_every_card_type_in_the_larger_battle():
    # issue 29 "The default decks": every type present in a pool keeps a place when the deck
    # is large enough, one rule (game.apportion) for the engine's default decks and the
    # campaign's proposals (1 in 2 and 1 in 4 to Quatre Bras, the rest to Ligny)
    from .test_empty_decks import random_collection

    for seed in (2, 6, 8):  # random collections whose Ligny proposals lost a type before
        c = new_campaign(seed, TABLE, random_collection(random.Random(seed)))
        free, _ = split_plan(c, "french")
        kinds = {TABLE[n].kind for n in free}
        for proposal in legal_actions(c, "french")[1:]:
            ligny = proposal["decks"]["ligny"]
            if len(ligny) >= len(kinds):  # a place for each type
                assert {TABLE[n].kind for n in ligny} == kinds, (seed, proposal)
