"""001 §13 The Pursuit (Expert game): one test per sentence; RULINGS R34, R37-R41. The
Pursuit rolls no die: every ``apply`` here is handed none."""

from stratego.engine import apply, legal_actions, view
from stratego.engine.pursuit import result_of
from stratego.module import GAME

from .helpers import act, find, position

F3 = find("french", "line_infantry", 3)
F3b = find("french", "line_infantry", 3, 1)
FA = find("french", "artillery")
FLC = find("french", "light_cavalry")  # strength 2
FHC4 = find("french", "heavy_cavalry", 4)
NEY = find("french", "commander")
NAP = find("french", "commander_in_chief")
WEL = find("allied", "commander_in_chief")
UX = find("allied", "commander")
A3 = find("allied", "line_infantry", 3)
A3b = find("allied", "line_infantry", 3, 1)
AA = find("allied", "artillery")
ALC = find("allied", "light_cavalry")
AHC = find("allied", "heavy_cavalry")


def retreat(pieces, reserve=(), eliminated=()):
    """French line infantry at (0, 8) and (1, 9): the first steps onto the Allied right flank
    (col 0, row 9): an Allied retreat, the French pursue. Only ``pieces``, ``reserve`` and
    ``eliminated`` are in the game; the other pieces are out of it (saved: never counted)."""
    st = position({F3: (0, 8), F3b: (1, 9), **pieces}, mode="expert")
    for p in st.pieces.values():
        if p.id in eliminated:
            st.lift(p, "eliminated")
        elif p.where != "board" and p.id not in reserve:
            p.where = "saved"
    apply(st, act(st, type="move", **{"from": [0, 8], "to": [0, 9]}), [])
    return st


def test_two_french_units_on_an_allied_flank_lead_to_an_allied_retreat_and_the_pursuit():
    st = retreat({ALC: (6, 6), FLC: (5, 3), A3: (3, 6)})
    assert st.phase == "play" and st.outcome is None
    assert st.pursuit["victor"] == "french" and st.pursuit["defeated"] == "allied"
    assert st.pursuit["sector"] == "right" and st.active == "french"


def test_the_occupation_of_a_french_flank_leads_to_a_french_retreat_and_the_pursuit():
    st = position({A3: (5, 1), A3b: (6, 0), F3: (0, 3), ALC: (9, 9)}, active="allied",
                  mode="expert")
    apply(st, act(st, type="move", **{"from": [5, 1], "to": [5, 0]}), [])
    assert st.pursuit["victor"] == "allied" and st.active == "allied"


def test_both_players_take_their_remaining_cavalry_off_the_board_with_the_reserves():
    st = retreat({ALC: (6, 6), FLC: (5, 3), A3: (3, 6)}, reserve=(AHC,))
    for pid in (ALC, FLC, AHC):
        assert st.pieces[pid].where == "aside"
    assert sorted(st.pursuit["aside"]["allied"]) == sorted([ALC, AHC])


def test_napoleon_and_wellington_are_set_aside_and_do_not_take_part():
    st = retreat({ALC: (6, 6), FLC: (5, 3), A3: (3, 6), NAP: (4, 0), WEL: (7, 9),
                  NEY: (3, 0)})
    assert st.pieces[NAP].where == "aside" and st.pieces[WEL].where == "aside"
    assert NAP not in st.pursuit["aside"]["french"]
    assert NEY in st.pursuit["aside"]["french"]  # 'Only the commanders take part'
    pieces = {a.get("piece") for a in legal_actions(st, "french")}
    assert NAP not in pieces and NEY in pieces


def test_the_remaining_commanders_determine_the_number_of_actions():
    st = retreat({FLC: (5, 3), A3: (3, 6), A3b: (4, 6)}, eliminated=(NEY,))
    assert st.actions_left == 2  # Ney lost: one action less (R38)


def test_the_defeated_infantry_and_artillery_remain_standing_where_they_were():
    st = retreat({FLC: (5, 3), A3: (3, 6), AA: (8, 7)})
    assert st.pieces[A3].square == 6 * 12 + 3 and st.pieces[AA].square == 7 * 12 + 8
    # they no longer move: only the cavalry plays (R37)
    assert {a["type"] for a in legal_actions(st, "french")} <= {"pursue", "save", "end_turn"}


def test_the_victor_points_his_cavalry_at_enemy_infantry_and_it_disappears():
    st = retreat({FLC: (5, 3), A3: (3, 6), AA: (8, 7)})
    apply(st, act(st, type="pursue", piece=FLC, target=[3, 6]), [])
    assert st.pieces[A3].where == "eliminated" and st.pieces[FLC].where == "aside"
    assert st.actions_left == 2  # 'Each defeated piece counts for one action'
    apply(st, act(st, type="pursue", piece=FLC, target=[8, 7]), [])
    assert st.pieces[AA].where == "eliminated"


def test_the_winner_may_attack_enemy_cavalry_and_risks_losing_to_a_higher_rank():
    st = retreat({FLC: (5, 3), AHC: (6, 6), A3: (3, 6)})
    slot = st.pursuit["aside"]["allied"].index(AHC)
    assert {"type": "pursue", "side": "french", "piece": FLC, "slot": slot} in \
        legal_actions(st, "french")
    apply(st, act(st, type="pursue", piece=FLC, slot=slot), [])
    assert st.pieces[FLC].where == "eliminated" and st.pieces[AHC].where == "aside"
    assert st.pieces[FLC].revealed and st.pieces[AHC].revealed


def test_the_defeated_player_saves_infantry_and_artillery_which_are_not_counted():
    st = retreat({FLC: (5, 3), A3: (3, 6), A3b: (4, 6), AA: (8, 7)})
    apply(st, act(st, type="pursue", piece=FLC, target=[3, 6]), [])
    apply(st, act(st, type="end_turn"), [])
    assert st.active == "allied"
    apply(st, act(st, type="save", square=[8, 7]), [])
    assert st.pieces[AA].where == "saved"
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="end_turn"), [])  # the French end a turn without pursuing
    assert st.outcome["reason"] == "pursuit"
    assert st.outcome["casualties"] == {"french": 0, "allied": 1}


def test_the_defeated_player_may_attack_a_pursuing_cavalry_piece():
    st = retreat({FLC: (5, 3), ALC: (6, 6), AHC: (7, 6), A3: (3, 6)})
    apply(st, act(st, type="pursue", piece=FLC, target=[3, 6]), [])
    apply(st, act(st, type="end_turn"), [])
    slot = st.pursuit["aside"]["french"].index(FLC)
    apply(st, act(st, type="pursue", piece=AHC, slot=slot), [])
    assert st.pieces[FLC].where == "eliminated"


def test_on_a_draw_the_cavalry_of_the_victorious_player_always_wins():
    st = retreat({FLC: (5, 3), ALC: (6, 6), A3: (3, 6)})
    assert st.pieces[FLC].strength == st.pieces[ALC].strength
    apply(st, act(st, type="pursue", piece=FLC, target=[3, 6]), [])
    apply(st, act(st, type="end_turn"), [])
    slot = st.pursuit["aside"]["french"].index(FLC)
    apply(st, act(st, type="pursue", piece=ALC, slot=slot), [])  # the defeated attacks
    assert st.pieces[ALC].where == "eliminated" and st.pieces[FLC].where == "aside"


def test_heavy_cavalry_still_loses_strength_and_cannot_be_pulled_back():
    st = retreat({FHC4: (5, 3), A3: (3, 6), A3b: (4, 6)})
    apply(st, act(st, type="pursue", piece=FHC4, target=[3, 6]), [])
    assert st.pieces[FHC4].strength == 3
    assert all(a["type"] != "rest" for a in legal_actions(st, "french"))
    # 'wise to take weakened cavalry pieces off the board for good' (R40)
    apply(st, act(st, type="save", piece=FHC4), [])
    assert st.pieces[FHC4].where == "saved"


def test_the_pursuit_ends_when_the_victor_no_longer_wishes_to_pursue():
    st = retreat({FLC: (5, 3), A3: (3, 6)})
    apply(st, act(st, type="end_turn"), [])
    assert st.phase == "over" and st.outcome["result"] == "indecisive"
    assert st.outcome["winner"] is None  # R41: indecisive, no winner


def test_the_pursuit_ends_when_the_victor_no_longer_has_cavalry():
    st = retreat({A3: (3, 6), ALC: (6, 6)})
    assert st.phase == "over" and st.outcome["reason"] == "pursuit"


def test_indecisive_up_to_3_minor_4_to_9_major_10_or_more():
    assert [result_of(d) for d in (-5, 0, 3, 4, 9, 10, 20)] == \
        ["indecisive", "indecisive", "indecisive", "minor", "minor", "major", "major"]


def test_a_minor_victory_counts_the_casualties_of_the_whole_battle():
    dead = [find("allied", "line_infantry", 3, k) for k in range(2, 5)]
    st = retreat({FLC: (5, 3), A3: (3, 6)}, eliminated=dead)
    apply(st, act(st, type="pursue", piece=FLC, target=[3, 6]), [])
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="end_turn"), [])
    assert st.pursuit is None or st.phase == "over"
    # the victor, at his turn, has nothing left to pursue: the count
    assert st.outcome["winner"] == "french" and st.outcome["result"] == "minor"
    assert st.outcome["difference"] == 4


def test_the_opponent_sees_the_cavalry_set_aside_by_slot_not_identity():
    st = retreat({FLC: (5, 3), ALC: (6, 6), A3: (3, 6)})
    seen = view(st, "allied")["pursuit"]["aside"]["french"]
    assert seen == [{"slot": 0, "back": "cavalry"}]
    mine = view(st, "french")["pursuit"]["aside"]["french"]
    assert mine[0]["id"] == FLC


def test_greedy_expert_games_end_in_the_pursuit_and_replay_identically():
    from stratego.engine import from_json, to_json
    from stratego.simulate import play

    from .helpers import TABLE
    outs = []
    for seed in (1, 1, 1):  # with the bots' own set-up (setup_policy) seed 1 ends so
        bots = {"french": GAME.bot("greedy", TABLE), "allied": GAME.bot("greedy", TABLE)}
        outs.append(play(seed, bots, 60, TABLE, "expert"))
    assert all(o["reason"] == "pursuit" for o in outs), outs
    assert outs[1] == outs[2]
    st = retreat({FLC: (5, 3), ALC: (6, 6), A3: (3, 6)})
    assert to_json(from_json(to_json(st), TABLE)) == to_json(st)
