"""4.1-4.3 deployment and victory, 5.0 turns, 10.0 reinforcements, the turn cap."""

import pytest

from battles.engine import IllegalAction, legal_actions, load_cards, new_battle, outcome
from battles.engine.phases import start_turn
from cards.catalogue.file import catalogue_records

from .helpers import (
    BR_INF,
    FR_CAV,
    FR_FOOT,
    FR_HORSE,
    FR_INF,
    NAPOLEON,
    NEY,
    PR_INF,
    ZIETEN,
    blank,
    do,
    event,
    legal,
    move,
    put,
)

RECORDS = catalogue_records()  # the card records the engine is given

def test_4_1_allied_deploy_first_and_french_adjust_last():
    st = new_battle("quatre-bras", 1, cards=RECORDS)
    assert st.phase == "deploy" and legal_actions(st, "allied") and not legal_actions(st,
                                                                                      "french")


def _deploy_three(st, side):
    s = 0 if side == "french" else 1
    n = 0
    for a in legal(st, side, "deploy"):
        c = st.cards[a["card"]]
        if c.troop and a["to"].endswith(("left", "center", "right")[n]) and "occupy" not in a \
                and a["card"] in st.reserve[s]:
            do(st, a)
            n += 1
            if n == 3:
                break


def test_4_1_deployment_needs_a_card_in_each_position():
    st = new_battle("quatre-bras", 1, cards=RECORDS)
    assert not legal(st, "allied", "deployment_done")
    _deploy_three(st, "allied")
    assert legal(st, "allied", "deployment_done")
    do(st, {"type": "deployment_done", "side": "allied"})
    assert legal_actions(st, "french") and not legal_actions(st, "allied")


def test_4_1_troops_deployed_face_down_at_most_four():
    st = blank(phase="deploy", active="allied")
    st.reserve[1] = [129, 130, 131, 132, 133, 111]
    for n in (129, 130, 131, 132):
        do(st, {"type": "deploy", "side": "allied", "card": n, "to": "allied_center"})
    assert all(not p.up for p in st.pieces.values())
    assert not [a for a in legal(st, "allied", "deploy")
                if a["card"] == 133 and a["to"] == "allied_center"]
    # 4.1 Generals face-up beyond the limit
    do(st, {"type": "deploy", "side": "allied", "card": 111, "to": "allied_center"})
    assert [p for p in st.pieces.values() if p.num == 111][0].up


def test_4_1_deployment_done_by_french_starts_turn_one():
    st = new_battle("quatre-bras", 1, cards=RECORDS)
    _deploy_three(st, "allied")
    do(st, {"type": "deployment_done", "side": "allied"})
    _deploy_three(st, "french")
    do(st, {"type": "deployment_done", "side": "french"})
    assert (st.turn, st.active, st.phase) == (1, 0, "combat")  # 5.0 French first


def test_4_2_terrain_only_in_its_battle_and_position():
    st = blank(battle="quatre-bras", phase="deploy", active="allied")
    st.reserve[1] = [175, 178]  # Quatre Bras Crossroads (c) and Hougoumont (Waterloo)
    ts = legal(st, "allied", "play_terrain")
    assert ts == [{"type": "play_terrain", "side": "allied", "card": 175}]
    do(st, ts[0])
    t = next(iter(st.pieces.values()))
    assert t.up and t.place == 6  # allied center, face-up


def test_4_3_victory_on_sole_occupation():
    st = blank()
    p = put(st, FR_INF, "french_center")
    ev = move(st, p, "allied_center")
    assert outcome(st)["winner"] == "french" and event(ev, "battle_over")
    assert legal_actions(st, "french") == [] and legal_actions(st, "allied") == []


def test_4_3_victory_on_sole_occupation_during_enemy_turn():
    st = blank(active="allied", phase="morale")
    put(st, BR_INF, "allied_center", hits=1)
    put(st, FR_CAV, "allied_center")
    put(st, BR_INF, "allied_left")
    put(st, FR_INF, "french_left")
    do(st, {"type": "roll_morale", "side": "allied"}, [6])
    assert outcome(st)["winner"] == "french" and outcome(st)["position"] == "allied_center"


def test_4_3_artillery_alone_never_wins():
    st = blank()
    h = put(st, FR_HORSE, "french_center")
    move(st, h, "allied_center")
    assert outcome(st) is None


def test_4_3_general_alone_never_wins():
    st = blank()
    g = put(st, NEY, "french_center")
    move(st, g, "allied_center")
    assert outcome(st) is None


def test_4_3_terrain_does_not_oppose_occupation():
    st = blank()
    put(st, 179, "allied_center")  # La Haye Sainte, vacant
    p = put(st, FR_INF, "french_center")
    move(st, p, "allied_center")
    assert outcome(st)["winner"] == "french"


def test_5_0_phases_morale_combat_reinforce_then_other_side():
    st = blank()
    st.decks["french"] = [20, 21, 22]
    put(st, FR_INF, "french_center")
    put(st, BR_INF, "allied_center")
    ev = do(st, {"type": "end_phase", "side": "french"})
    assert st.phase == "reinforce" and event(ev, "draw")["count"] == 2  # Waterloo R2
    do(st, {"type": "end_turn", "side": "french"})
    assert (st.active, st.phase, st.turn) == (1, "combat", 2)


def test_10_0_reinforcements_wait_for_the_next_turn():
    st = blank()
    st.decks["french"] = [NAPOLEON, FR_INF]
    put(st, FR_INF, "french_center")
    put(st, BR_INF, "allied_center")
    do(st, {"type": "end_phase", "side": "french"})
    assert sorted(st.reserve[0]) == [NAPOLEON, FR_INF] and st.fresh[0]
    start_turn(st, 0, [])
    assert [a for a in legal(st, "french", "move") if a.get("card") == NAPOLEON]


def test_10_0_drawn_cards_not_playable_this_turn():
    from battles.engine.specials import playable

    st = blank()
    st.reserve[0] = [FR_INF]
    st.fresh[0] = [FR_INF]
    assert not playable(st, 0, FR_INF)


def test_10_0_prussians_wait_for_a_prussian_general():
    st = blank(active="allied")
    st.prussians = False
    st.reserve[1] = [PR_INF]
    put(st, BR_INF, "allied_center")
    assert not [a for a in legal(st, "allied", "move") if a.get("card") == PR_INF]
    st.decks["prussian"] = [ZIETEN]
    ev = do(st, {"type": "end_phase", "side": "allied"})
    assert st.prussians and event(ev, "prussians_arrive")["card"] == ZIETEN


def test_10_0_prussians_only_british_left_and_french_right():
    st = blank(active="allied")
    st.reserve[1] = [PR_INF]
    tos = {a["to"] for a in legal(st, "allied", "move") if a.get("card") == PR_INF}
    assert tos == {"allied_left"}
    p = put(st, PR_INF, "allied_left")
    assert {a["to"] for a in legal(st, "allied", "move") if a.get("piece") == p.pid} == \
        {"allied_reserve", "french_right"}


def test_10_0_waterloo_allied_draw_british_and_prussian():
    st = blank(active="allied")
    st.decks["british"] = [129, 130, 131]
    st.decks["prussian"] = [207, 208, 209]
    put(st, BR_INF, "allied_center")
    do(st, {"type": "end_phase", "side": "allied"})
    assert len(st.reserve[1]) == 4


def test_10_0_waterloo_prussians_have_no_muster():
    st = new_battle("waterloo", 3, cards=RECORDS)
    assert not any(st.cards[n].army == "prussian" for n in st.reserve[1])
    assert len(st.decks["prussian"]) == 24 and len(st.reserve[1]) == 18


def test_3_0_muster_and_reinforcement_deck():
    st = new_battle("quatre-bras", 5, cards=RECORDS)
    assert (len(st.reserve[0]), len(st.decks["french"])) == (10, 4)
    assert (len(st.reserve[1]), len(st.decks["british"])) == (9, 9)


def test_turn_cap_adjudication_by_share_of_deck_lost():
    st = blank()
    st.settings["turn_cap"] = 1
    st.deck_bp = [100, 100]
    st.elim = [[FR_INF], [BR_INF, 130]]
    put(st, FR_INF, "french_center")
    put(st, BR_INF, "allied_center")
    do(st, {"type": "end_phase", "side": "french"})
    ev = do(st, {"type": "end_turn", "side": "french"})
    assert outcome(st)["winner"] == "french" and outcome(st)["reason"] == "turn_cap"
    assert event(ev, "battle_over")


def test_turn_cap_equal_shares_draw():
    st = blank()
    st.settings["turn_cap"] = 1
    put(st, FR_FOOT, "french_center")
    put(st, BR_INF, "allied_center")
    do(st, {"type": "end_phase", "side": "french"})
    do(st, {"type": "end_turn", "side": "french"})
    assert outcome(st)["winner"] is None


def test_wrong_side_cannot_act():
    st = blank()
    put(st, FR_INF, "french_center")
    with pytest.raises(IllegalAction):
        do(st, {"type": "end_phase", "side": "allied"})


def test_4_1_d_default_deck_keeps_type_proportions():
    from collections import Counter

    from battles.engine import historical_deck
    from decks.rules.chart import BATTLES_CHART

    cards = load_cards(RECORDS)
    for battle, army in [("quatre-bras", "british"), ("wavre", "french"), ("waterloo", "french"),
                         ("waterloo", "prussian"), ("ligny", "prussian")]:
        pool = [c for c in cards.values() if c.army == army and battle in c.battles]
        size = BATTLES_CHART[battle][army].deck
        deck = historical_deck(battle, army, seed=3, cards=cards)
        assert len(deck) == len(set(deck)) == size
        assert all(battle in cards[n].battles and cards[n].army == army for n in deck)
        have = Counter(cards[n].kind for n in deck)
        for kind, count in Counter(c.kind for c in pool).items():
            assert abs(have[kind] - count * size / len(pool)) < 1, (battle, army, kind)
        assert historical_deck(battle, army, seed=3, cards=cards) == deck  # seeded


def test_5_0_c_no_turn_cap_by_default():
    """RULINGS 5.0-c: no clause caps turns; a battle between people ends by victory (or
    resignation or time, outside the engine). The cap is a setting for simulations."""
    from battles.engine import DEFAULT_SETTINGS, SIMULATION_TURN_CAP, new_battle

    assert DEFAULT_SETTINGS["turn_cap"] is None
    assert new_battle("quatre-bras", 1, cards=RECORDS).settings["turn_cap"] is None
    assert SIMULATION_TURN_CAP == 40
    st = blank()
    st.settings["turn_cap"] = None
    st.turn = 500
    put(st, FR_INF, "french_center")
    put(st, BR_INF, "allied_center")
    do(st, {"type": "end_phase", "side": "french"})
    do(st, {"type": "end_turn", "side": "french"})
    assert outcome(st) is None and st.turn == 501


def test_5_0_c_simulations_keep_a_cap_of_forty():
    from battles.bots import get_bot
    from battles.engine import play_random
    from battles.simulate import play_game

    assert play_random("waterloo", 3, cards=RECORDS).state.settings["turn_cap"] == 40
    assert play_random("wavre", 3, settings={"turn_cap": 7},
                       cards=RECORDS).state.settings["turn_cap"] == 7
    bots = {"french": get_bot("random", RECORDS), "allied": get_bot("random", RECORDS)}
    st, _ = play_game("wavre", "cap", bots)
    assert st.settings["turn_cap"] == 40


def test_4_1_infantry_may_deploy_in_any_formation():
    """MagWeb Q&A 4.1: the French adjusting last may change "any formation (from square to
    column, for example)": Infantry deploy in Line, Column or Square (RULINGS 4.1-c)."""
    st = blank(phase="deploy", active="allied")
    st.reserve[1] = [129, 155]  # British infantry, British cavalry
    forms = {a.get("formation") for a in legal(st, "allied", "deploy")
             if a["card"] == 129 and a["to"] == "allied_center"}
    assert forms == {None, "column", "square"}
    assert {a.get("formation") for a in legal(st, "allied", "deploy") if a["card"] == 155} \
        == {None}
    ev = do(st, {"type": "deploy", "side": "allied", "card": 129, "to": "allied_center",
                 "formation": "square"})
    p = next(iter(st.pieces.values()))
    assert p.form == 2 and not p.up and event(ev, "deploy")["formation"] == "square"


def test_4_1_e_every_card_type_of_the_pool_keeps_a_place_in_the_default_deck():
    # issue 29: the Prussian Wavre pool's one General (Thielmann) had 12/23 of a place and
    # rounded to none: no default Prussian deck at Wavre held a General
    from battles.engine import historical_deck
    from game import apportion

    cards = load_cards(RECORDS)
    for seed in range(200):
        deck = historical_deck("wavre", "prussian", seed, cards)
        assert any(cards[n].kind == "general" for n in deck), seed
    pool = {"general": 1, "infantry": 10, "cavalry": 2, "artillery": 2, "terrain": 3,
            "special": 5}
    quota = apportion(pool, 12)
    assert sum(quota.values()) == 12 and all(quota[k] >= 1 for k in pool)
    assert quota["general"] == 1 and quota["infantry"] == 5  # the rest by share
    assert sum(apportion(pool, 4).values()) == 4  # fewer places than types: by share only
    assert apportion({"general": 1, "infantry": 3}, 9) == {"general": 1, "infantry": 3}
