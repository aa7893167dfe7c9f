# Over 500 lines on purpose: one idea, a test per special-card effect kind (13.0, 14.0).
"""13.0 special cards: every effect kind in EFFECT_KINDS, the two-per-Position limit and the
British and Prussian restrictions; 14.0 decoys."""

from battles.engine import view
from battles.engine.board import PLACE_INDEX
from battles.engine.effects import nation_ok
from battles.engine.specials import played_at
from cards.catalogue.rules import EFFECT_KINDS

from .helpers import (
    BR_INF,
    CARDS,
    FR_CAV,
    FR_FOOT,
    FR_INF,
    PR_INF,
    WELLINGTON,
    blank,
    do,
    event,
    fire,
    legal,
    move,
    put,
)

TESTED_KINDS = set()


def _play(st, side, num, at, **kw):
    a = {"type": "play_special", "side": side, "card": num, "at": at, **kw}
    assert a in legal(st, side, "play_special"), (a, legal(st, side, "play_special"))
    return do(st, a)


def _kind(k):
    TESTED_KINDS.add(k)


def test_13_0_morale_modifier_friendly():
    _kind("morale_modifier")
    st = blank(phase="morale")
    st.reserve[0] = [93]  # Vive l'Empereur! +1
    put(st, FR_INF, "french_center", hits=1)
    _play(st, "french", 93, "french_center")
    ev = do(st, {"type": "roll_morale", "side": "french"}, [3])
    assert event(ev, "morale")["value"] == 3 and not event(ev, "morale")["routed"]
    assert 93 in st.discard[0] and not st.effects


def test_13_0_morale_modifier_enemy_in_enemy_morale_phase():
    st = blank(phase="morale", active="allied")
    st.reserve[0] = [110]  # -1 enemy morale, engaged only
    put(st, BR_INF, "allied_center", hits=1)
    put(st, FR_INF, "allied_center")
    do(st, {"type": "roll_morale", "side": "allied"})
    assert st.step == "response" and st.priority == 0
    _play(st, "french", 110, "allied_center")
    ev = do(st, {"type": "pass", "side": "french"}, [3])
    assert event(ev, "morale")["value"] == 2 and event(ev, "morale")["routed"]


def test_13_0_cv_modifier_enemy_in_response_window():
    _kind("cv_modifier")
    st = blank(active="allied")
    st.reserve[0] = [109]
    a = put(st, BR_INF, "french_center")
    t = put(st, FR_INF, "french_center")
    fire(st, a, t)  # declare: the French may answer
    assert st.step == "response"
    _play(st, "french", 109, "french_center")
    ev = do(st, {"type": "pass", "side": "french"}, [6, 6])
    assert len(event(ev, "fire")["dice"]) == 2


def test_13_0_firepower_modifier_friendly():
    _kind("firepower_modifier")
    st = blank()
    st.reserve[0] = [95]  # artillery +1F
    a = put(st, FR_FOOT, "french_center")
    t = put(st, BR_INF, "allied_center")
    _play(st, "french", 95, "french_center")
    assert event(fire(st, a, t, [5, 1, 1]), "fire")["power"] == 2


def test_13_0_firepower_modifier_enemy():
    st = blank(active="allied")
    st.reserve[0] = [99]
    a = put(st, BR_INF, "french_center")
    t = put(st, FR_INF, "french_center")
    fire(st, a, t)
    _play(st, "french", 99, "french_center")
    assert event(do(st, {"type": "pass", "side": "french"}, [4, 4, 4]), "fire")["power"] == 2


def test_13_0_shock_modifier_friendly():
    _kind("shock_modifier")
    st = blank()
    st.reserve[0] = [97]  # cavalry +1S
    a = put(st, FR_CAV, "allied_center")  # S4 -> stays 4
    t = put(st, BR_INF, "allied_center")
    c = put(st, 57, "allied_center")  # III corps cavalry S3
    _play(st, "french", 97, "allied_center")
    assert event(fire(st, c, t, [1, 1, 1], kind="shock"), "shock")["power"] == 4
    assert a.pid in st.pieces


def test_13_0_remove_hits_before_morale():
    _kind("remove_hits")
    st = blank(phase="morale")
    st.reserve[0] = [107]
    p = put(st, FR_INF, "french_center", hits=1)
    _play(st, "french", 107, "french_center", pieces=[p.pid])
    ev = do(st, {"type": "roll_morale", "side": "french"}, [])
    assert event(ev, "hit_removed")["piece"] == p.pid and p.pid in st.pieces


def test_13_0_rally_routed_goes_to_reserve():
    _kind("rally_routed")
    st = blank(phase="morale")
    st.reserve[0] = [108]
    p = put(st, FR_INF, "french_center", hits=1)
    _play(st, "french", 108, "french_center")
    ev = do(st, {"type": "roll_morale", "side": "french"}, [6])
    assert event(ev, "rallied")["piece"] == p.pid and FR_INF in st.reserve[0]
    assert FR_INF not in st.elim[0]


def test_13_0_extra_move():
    _kind("extra_move")
    st = blank()
    st.reserve[0] = [100]
    p = put(st, FR_INF, "french_center")
    _play(st, "french", 100, "french_center")
    move(st, p, "french_reserve")
    assert FR_INF in st.reserve[0]
    q = put(st, FR_INF, "french_left")
    move(st, q, "french_reserve")
    st2 = blank()
    st2.reserve[0] = [100]
    p = put(st2, 16, "french_center")
    put(st2, BR_INF, "allied_left")
    _play(st2, "french", 100, "french_center")
    move(st2, p, "french_reserve")
    assert 16 in st2.reserve[0]


def test_13_0_extra_move_gives_a_second_move():
    st = blank()
    st.reserve[0] = [100]
    p = put(st, FR_INF, "french_center")
    put(st, BR_INF, "allied_right")
    _play(st, "french", 100, "french_center")
    do(st, {"type": "change_formation", "side": "french", "piece": p.pid,
            "formation": "column"})
    st.pieces[p.pid].moves = 1  # as if it had moved into the Position
    tos = {a["to"] for a in legal(st, "french", "move") if a.get("piece") == p.pid}
    assert tos == {"french_reserve", "allied_center"}


def test_13_0_change_formation_in_response_to_shock():
    _kind("change_formation")
    st = blank(active="allied", battle="quatre-bras")
    st.reserve[0] = [104]
    c = put(st, 162, "french_center")  # Netherlands cavalry
    t = put(st, FR_INF, "french_center")
    fire(st, c, t, kind="shock")
    _play(st, "french", 104, "french_center", formation="square", pieces=[t.pid])
    ev = do(st, {"type": "pass", "side": "french"}, [])
    assert t.form == 2 and event(ev, "attack_void")


def test_13_0_recover_blown():
    _kind("recover_blown")
    st = blank()
    st.reserve[0] = [98]
    c = put(st, FR_CAV, "allied_center", blown=True)
    put(st, BR_INF, "allied_center")
    _play(st, "french", 98, "allied_center")
    assert not c.blown


def test_13_0_ignore_river_limit():
    _kind("ignore_river_limit")
    st = blank(battle="wavre")
    st.reserve[0] = [105]
    put(st, 278, "front_center")  # River Dyle, limit 1
    a = put(st, FR_INF, "french_center")
    b = put(st, FR_INF, "french_center")
    put(st, 207, "allied_center")
    _play(st, "french", 105, "french_center")
    move(st, a, "allied_center")
    assert [x for x in legal(st, "french", "move")
            if x.get("piece") == b.pid and x["to"] == "allied_center"]


def test_13_0_draw_reinforcements():
    _kind("draw_reinforcements")
    st = blank()
    st.reserve[0] = [101]
    st.decks["french"] = [20, 21, 22, 23]
    put(st, FR_INF, "french_center")
    put(st, BR_INF, "allied_center")
    do(st, {"type": "end_phase", "side": "french"})
    _play(st, "french", 101, "french_left")
    assert len(st.reserve[0]) == 3 and len(st.fresh[0]) == 3


def test_13_0_reveal_enemy_at_deployment():
    _kind("reveal_enemy")
    st = blank(phase="deploy")
    st.reserve[0] = [102, FR_INF]
    x = put(st, BR_INF, "allied_center", up=False)
    y = put(st, BR_INF, "allied_center", up=False)
    put(st, FR_INF, "french_center", up=False)
    _play(st, "french", 102, "french_center", pieces=[x.pid, y.pid])
    assert x.up and y.up


def test_13_0_cancel_special():
    _kind("cancel_special")
    st = blank()
    st.reserve[0] = [95]
    st.reserve[1] = [194]  # British cancel, own nationals only
    a = put(st, FR_FOOT, "french_center")
    t = put(st, BR_INF, "allied_center")
    _play(st, "french", 95, "french_center")
    fire(st, a, t)
    eid = st.effects[0]["eid"]
    _play(st, "allied", 194, "allied_center", cancel=eid)
    # the cancelled card is discarded; the cancel card stays played (without effect) until
    # the phase ends: both count on their Positions (13.0-a)
    assert 95 in st.discard[0] and [e["card"] for e in st.effects] == [194]
    assert played_at(st, PLACE_INDEX["french_center"]) == [95]
    assert played_at(st, PLACE_INDEX["allied_center"]) == [194]
    assert view(st, "french")["specials"][0]["cancelled"] == 95
    ev = do(st, {"type": "pass", "side": "allied"}, [5, 5, 5])
    assert event(ev, "fire")["power"] == 1


def test_13_0_every_effect_kind_is_executed():
    import importlib
    import sys

    mod = sys.modules[__name__]
    for name in dir(mod):
        if name.startswith("test_13_0_") and name != "test_13_0_every_effect_kind_is_executed":
            getattr(mod, name)()
    importlib.invalidate_caches()
    assert TESTED_KINDS == set(EFFECT_KINDS)


def test_13_0_two_different_specials_per_position_per_phase():
    st = blank()
    st.reserve[0] = [95, 96, 106]
    put(st, FR_FOOT, "allied_center")
    put(st, FR_INF, "allied_center", form="column")
    put(st, BR_INF, "allied_center")
    _play(st, "french", 95, "allied_center")
    _play(st, "french", 96, "allied_center")
    assert not [a for a in legal(st, "french", "play_special") if a["at"] == "allied_center"]


def test_13_0_two_specials_per_position_both_sides():
    """13.0 "A maximum of two Special cards can be played on the same Position at the same
    time (phase)": the two sides' cards count together (RULINGS 13.0-a)."""
    st = blank()
    st.reserve[0] = [95, 96]
    st.reserve[1] = [188]  # Reverse Slope: enemy artillery -1cv
    a = put(st, FR_FOOT, "allied_center")
    put(st, FR_INF, "allied_center", form="column")
    t = put(st, BR_INF, "allied_center")
    _play(st, "french", 95, "allied_center")
    fire(st, a, t)
    _play(st, "allied", 188, "allied_center")  # the defender's answer, on the same Position
    do(st, {"type": "pass", "side": "allied"}, [1, 1])
    assert played_at(st, PLACE_INDEX["allied_center"]) == [95, 188]
    assert not [x for x in legal(st, "french", "play_special") if x["at"] == "allied_center"]


def test_13_0_a_cancel_and_cancelled_count_where_they_were_played():
    st = blank()
    st.reserve[0] = [95, 96, 103]
    st.reserve[1] = [194]
    a = put(st, FR_FOOT, "allied_center")
    put(st, FR_INF, "allied_center", form="column")
    t = put(st, BR_INF, "allied_center")
    _play(st, "french", 95, "allied_center")
    fire(st, a, t)
    _play(st, "allied", 194, "allied_center", cancel=st.effects[0]["eid"])
    do(st, {"type": "pass", "side": "allied"}, [1, 1, 1])
    assert not [x for x in legal(st, "french", "play_special") if x["at"] == "allied_center"]


def test_13_0_d_specials_are_not_limited_to_a_list_of_battles():
    """RULINGS 13.0-d: 13.0 limits no Special to battles (the catalogue's list is not the
    card's text): the British "Up Guards and at 'em!" (listed for Waterloo only) at Quatre
    Bras, the Prussian "Pontoniers" (listed for Ligny and Wavre) at Waterloo."""
    st = blank("quatre-bras", active="allied")
    st.reserve[1] = [185]  # British elite infantry +1 shock
    put(st, _guard(), "french_center", form="column")
    put(st, FR_INF, "french_center")
    assert [x["at"] for x in legal(st, "allied", "play_special")] == ["french_center"]
    st = blank("waterloo", active="allied")
    st.reserve[1] = [293]  # Pontoniers: ignore the river's Move Limit
    put(st, 282, "front_right")  # a Waterloo river before the British Left
    put(st, PR_INF, "allied_left")
    assert [x["at"] for x in legal(st, "allied", "play_special")] == ["allied_left"]


def _guard() -> int:
    return next(n for n, c in sorted(CARDS.items()) if c.army == "british" and
                c.kind == "infantry" and c.morale == 4)


def test_13_0_d_prussian_specials_at_waterloo_only_with_and_for_prussians():
    """13.0: "Prussian Specials in Waterloo can only be played after the Prussians arrive,
    only in a Position containing Prussian cards, and only to aid Prussian cards", even a
    card the catalogue does not mark own_nationals_only (Pontoniers); not so at Wavre."""
    st = blank("waterloo", active="allied")
    st.reserve[1] = [293]
    put(st, 282, "front_right")
    put(st, BR_INF, "allied_left")
    assert not legal(st, "allied", "play_special")
    st.prussians = False
    put(st, PR_INF, "allied_left")
    assert not legal(st, "allied", "play_special")
    st.prussians = True
    assert legal(st, "allied", "play_special")
    assert not nation_ok(CARDS[293], CARDS[BR_INF], "waterloo")
    assert nation_ok(CARDS[293], CARDS[BR_INF], "wavre")


def test_13_0_british_specials_only_in_position_with_british_cards():
    st = blank(active="allied")
    st.reserve[1] = [183]  # British infantry +1F, nationality british
    put(st, 130, "allied_center")  # KGL only
    put(st, FR_INF, "allied_center")
    assert not legal(st, "allied", "play_special")
    put(st, BR_INF, "allied_center")
    assert legal(st, "allied", "play_special")


def test_13_0_british_special_aids_only_british_cards():
    st = blank(active="allied")
    st.reserve[1] = [183]
    k = put(st, 130, "french_center")  # KGL, F3
    b = put(st, BR_INF, "french_center")
    t = put(st, FR_INF, "french_center")
    _play(st, "allied", 183, "french_center")
    assert event(fire(st, k, t, [1, 1]), "fire")["power"] == 3
    t2 = put(st, FR_INF, "french_center")
    assert event(fire(st, b, t2, [1, 1, 1]), "fire")["power"] == 4


def test_13_0_prussian_specials_only_after_arrival_and_with_prussians():
    st = blank(active="allied")
    st.prussians = False
    st.reserve[1] = [287]  # Prussian artillery +1F
    put(st, 262, "allied_left")
    put(st, FR_INF, "french_right")
    assert not legal(st, "allied", "play_special")
    st.prussians = True
    assert [a["at"] for a in legal(st, "allied", "play_special")] == ["allied_left"]


def test_14_0_decoy_eliminated_when_engaged_even_with_troops():
    st = blank()
    st.settings["decoys"] = True
    d = put(st, 111, "allied_center", up=False)  # Wellington face-down
    b = put(st, BR_INF, "allied_center", up=False)
    p = put(st, FR_INF, "french_center")
    ev = move(st, p, "allied_center")
    assert d.pid not in st.pieces and 111 in st.elim[1] and b.up
    assert [e for e in ev if e["type"] == "eliminated" and e["reason"] == "decoy"]


def test_14_0_decoy_deployed_face_down_and_counts_for_stacking():
    st = blank(active="allied")
    st.settings["decoys"] = True
    st.reserve[1] = [111]
    a = {"type": "decoy", "side": "allied", "card": 111, "to": "allied_center"}
    assert a in legal(st, "allied", "decoy")
    do(st, a)
    d = next(iter(st.pieces.values()))
    assert not d.up
    st.active = st.priority = 0
    put(st, BR_INF, "allied_center")
    t = put(st, FR_INF, "french_center")
    move(st, t, "allied_center")
    assert d.pid not in st.pieces and 111 in st.elim[1]


def test_14_0_decoy_hit_by_artillery_eliminated():
    st = blank()
    st.settings["decoys"] = True
    d = put(st, 111, "allied_center", up=False)
    a = put(st, FR_FOOT, "french_center")
    ev = fire(st, a, d, [6, 1, 1])
    assert d.pid not in st.pieces and event(ev, "eliminated")["reason"] == "decoy"


def test_14_0_no_decoys_unless_the_setting_is_on():
    st = blank(active="allied")
    st.reserve[1] = [111]
    assert not legal(st, "allied", "decoy")


def test_10_0_prussian_cards_in_waterloo():
    st = blank(active="allied")
    st.reserve[1] = [PR_INF]
    assert {a["to"] for a in legal(st, "allied", "move")} == {"allied_left"}


# --- 13.0-c: specials that pick their own targets expose the choice (one action per pick) ---


def test_13_0_c_remove_hits_player_picks_the_card():
    st = blank(phase="morale")
    st.reserve[0] = [107]  # Baron Larrey's Ambulances: remove 1 hit
    a = put(st, FR_INF, "french_center", hits=1)
    b = put(st, FR_INF, "french_center", hits=2)
    picks = [x.get("pieces") for x in legal(st, "french", "play_special")]
    assert picks == [[a.pid], [b.pid]]
    _play(st, "french", 107, "french_center", pieces=[b.pid])
    assert st.effects[0]["pieces"] == [b.pid]  # applied at the rolls (cancel still works)
    ev = do(st, {"type": "roll_morale", "side": "french"}, [1, 1])
    assert event(ev, "hit_removed")["piece"] == b.pid
    assert [e["piece"] for e in ev if e["type"] == "morale"] == [a.pid, b.pid]


def test_13_0_c_reveal_enemy_player_picks_which_cards():
    st = blank(phase="deploy")
    st.reserve[0] = [102, FR_INF]  # Light Cavalry Scouts: reveal 2
    x = put(st, BR_INF, "allied_center", up=False)
    y = put(st, BR_INF, "allied_center", up=False)
    z = put(st, BR_INF, "allied_center", up=False)
    put(st, FR_INF, "french_center", up=False)
    picks = [x_.get("pieces") for x_ in legal(st, "french", "play_special")
             if x_["at"] == "french_center"]
    assert picks == [[x.pid, y.pid], [x.pid, z.pid], [y.pid, z.pid]]
    _play(st, "french", 102, "french_center", pieces=[x.pid, z.pid])
    assert x.up and z.up and not y.up


def test_13_0_c_change_formation_player_picks_cards_and_formation():
    st = blank(active="allied", battle="quatre-bras")
    st.reserve[0] = [104]  # Form Square: up to 2 Infantry
    c = put(st, 162, "french_center")  # Netherlands cavalry
    t = put(st, FR_INF, "french_center")
    u = put(st, FR_INF, "french_center")
    fire(st, c, t, kind="shock")
    squares = [x["pieces"] for x in legal(st, "french", "play_special")
               if x.get("formation") == "square"]
    assert squares == [[t.pid], [u.pid], [t.pid, u.pid]]
    _play(st, "french", 104, "french_center", formation="square", pieces=[u.pid])
    ev = do(st, {"type": "pass", "side": "french"}, [1, 1, 1])
    assert u.form == 2 and t.form == 0 and event(ev, "shock")["target"] == t.pid


# --- 13.0-f: enemy_combat specials answer an engaging move too ---------------------------


def test_13_0_f_enemy_combat_special_answers_an_engaging_move():
    st = blank(active="allied", battle="quatre-bras")
    st.reserve[0] = [104]
    t = put(st, FR_INF, "french_center")
    c = put(st, 162, "allied_center")
    do(st, {"type": "move", "side": "allied", "piece": c.pid, "to": "french_center"})
    assert st.step == "response" and st.priority == 0
    assert st.pending == {"type": "move", "piece": c.pid, "target": c.pid}
    assert legal(st, "allied") == []
    _play(st, "french", 104, "french_center", formation="square", pieces=[t.pid])
    do(st, {"type": "pass", "side": "french"})
    assert st.step == "main" and st.priority == 1 and st.pending is None
    assert t.form == 2
    assert not [a for a in legal(st, "allied", "shock")]  # 7.33 no shock on a square


def test_13_0_f_no_window_without_engagement_or_without_a_reserve():
    st = blank(active="allied", battle="quatre-bras")
    st.reserve[0] = [104]
    put(st, FR_INF, "french_center")
    c = put(st, 162, "allied_left")
    do(st, {"type": "move", "side": "allied", "piece": c.pid, "to": "allied_reserve"})
    assert st.step == "main" and st.priority == 1  # not engaging: no window
    st2 = blank(active="allied", battle="quatre-bras")
    put(st2, FR_INF, "french_center")
    c2 = put(st2, 162, "allied_center")
    do(st2, {"type": "move", "side": "allied", "piece": c2.pid, "to": "french_center"})
    assert st2.step == "main" and st2.priority == 1  # empty Reserve: nothing to answer with


# --- 14.0-b: a decoy turned face-up by a special is eliminated ----------------------------


def test_14_0_b_decoy_revealed_by_a_special_is_eliminated():
    st = blank(phase="deploy")
    st.settings["decoys"] = True
    st.reserve[0] = [102, FR_INF]
    d = put(st, 116, "allied_center", up=False)  # Cooke face-down: a decoy
    b = put(st, BR_INF, "allied_center", up=False)
    put(st, FR_INF, "french_center", up=False)
    ev = _play(st, "french", 102, "french_center", pieces=[d.pid, b.pid])
    assert d.pid not in st.pieces and 116 in st.elim[1] and b.up
    assert [e for e in ev if e["type"] == "eliminated" and e["reason"] == "decoy"]


def test_14_0_decoy_never_moves_fires_or_supports():
    st = blank(phase="morale", active="allied")
    st.settings["decoys"] = True
    d = put(st, WELLINGTON, "allied_center", up=False)
    p = put(st, BR_INF, "allied_center", hits=1)
    acts = legal(st, "allied")
    assert not [a for a in acts if a.get("piece") == d.pid]
    ev = do(st, {"type": "roll_morale", "side": "allied"}, [4])
    assert event(ev, "morale")["value"] == 3 and event(ev, "morale")["piece"] == p.pid


def test_13_0_c_trusted_action_without_a_pick_falls_back_to_the_old_choice():
    from battles.engine import apply

    st = blank(phase="morale")
    st.reserve[0] = [107]
    a = put(st, FR_INF, "french_center", hits=1)
    b = put(st, FR_INF, "french_center", hits=2)
    act = {"type": "play_special", "side": "french", "card": 107, "at": "french_center"}
    assert act not in legal(st, "french")  # a checked caller must name the pick
    apply(st, act, [], check=False)
    ev = do(st, {"type": "roll_morale", "side": "french"}, [1, 1])
    assert event(ev, "hit_removed")["piece"] == b.pid  # the most-hit card first
    assert [(e["piece"], len(e["dice"])) for e in ev if e["type"] == "morale"] == \
        [(a.pid, 1), (b.pid, 1)]


def test_14_0_decoy_may_be_pulled_back_into_the_reserve():
    """MagWeb Q&A 14.0: a decoy need not stay until discovered: "During your turn to move,
    these cards may be pulled out of that position and moved back into the Reserve" (its
    one Battle Move; back in the Reserve it stays there this turn, RULINGS 8.2-b)."""
    st = blank(active="allied")
    st.settings["decoys"] = True
    d = put(st, WELLINGTON, "allied_center", up=False)
    put(st, BR_INF, "allied_center")
    mine = [a for a in legal(st, "allied") if a.get("piece") == d.pid]
    assert mine == [{"type": "move", "side": "allied", "piece": d.pid, "to": "allied_reserve"}]
    do(st, mine[0])
    assert d.pid not in st.pieces and st.reserve[1] == [WELLINGTON]
    assert not [a for a in legal(st, "allied") if a.get("card") == WELLINGTON]


def test_13_0_british_extra_move_aids_only_british_cards():
    """13.0 British Specials aid only British cards: Forced March from Brussels gives its
    extra moves to the British, not to the Prussians beside them."""
    st = blank(active="allied")
    st.reserve[1] = [197]
    b = put(st, BR_INF, "allied_left", moves=1)
    p = put(st, PR_INF, "allied_left", moves=1)
    _play(st, "allied", 197, "allied_left")
    movers = {x["piece"] for x in legal(st, "allied", "move") if "piece" in x}
    assert b.pid in movers and p.pid not in movers


def test_13_0_d_prussian_river_special_at_waterloo_aids_only_prussians():
    """Pontoniers at Waterloo (13.0: Prussian Specials aid only Prussian cards) lift the
    river's Move Limit for the Prussians only."""
    st = blank(active="allied")
    st.reserve[1] = [293]
    put(st, 282, "front_right")
    b = put(st, BR_INF, "allied_left")
    p = put(st, PR_INF, "allied_left")
    st.crossings[PLACE_INDEX["front_right"]] = 9  # the Move Limit is used up
    _play(st, "allied", 293, "allied_left")
    tos = {x["piece"]: x["to"] for x in legal(st, "allied", "move") if "piece" in x and
           x["to"] == "french_right"}
    assert p.pid in tos and b.pid not in tos


def test_8_4_b_a_face_down_decoy_counts_for_stacking_a_face_up_general_does_not():
    # 8.4 "General, Terrain, and Special cards never count for stacking, but such cards must
    # always (see 14.0) be deployed face-up"; 4.1 they "may be deployed in excess of the four
    # card limit per Position provided they are deployed face-up" (RULINGS 8.4-b)
    def center_open(general_up: bool) -> bool:
        st = blank(active="allied")
        st.settings["decoys"] = True
        for n in (BR_INF, 130, 131):
            put(st, n, "allied_center", up=False)
        put(st, WELLINGTON, "allied_center", up=general_up)
        st.reserve[1] = [183]  # a British Special, to be placed as a decoy
        return "allied_center" in {a["to"] for a in legal(st, "allied", "decoy")}

    assert center_open(general_up=True)  # three troops and a General in the open: room
    assert not center_open(general_up=False)  # three troops and a decoy: four, full
