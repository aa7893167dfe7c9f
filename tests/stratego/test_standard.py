"""001 Part II (§10, §11): the Standard game's terrain and manoeuvre cards, one test per rule
sentence (dice forced); RULINGS R23-R32."""

from stratego.engine import apply, events_for, legal_actions, new_game, view
from stratego.engine.terrain import combat_strength
from stratego.module import GAME

from .helpers import TABLE, act, at, find, position

F3 = find("french", "line_infantry", 3)
F3b = find("french", "line_infantry", 3, 1)
F3c = find("french", "line_infantry", 3, 2)
F3d = find("french", "line_infantry", 3, 3)
F6 = find("french", "line_infantry", 6)
FA = find("french", "artillery")
FAb = find("french", "artillery", skip=1)
FLC = find("french", "light_cavalry")
FHC = find("french", "heavy_cavalry", 4)
NEY = find("french", "commander")
A3 = find("allied", "line_infantry", 3)
A3b = find("allied", "line_infantry", 3, 1)
A4 = find("allied", "line_infantry", 4)
A1 = find("allied", "light_infantry", 1)
AA = find("allied", "artillery")
ALC = find("allied", "light_cavalry")
BLUE, RED, BLUE_PLUS = 1, 2, 3
HOUGOUMONT = [(1, 4), (2, 4), (1, 5), (2, 5)]


def std(pieces, hands=None, **kw):
    st = position(pieces, mode="standard", **kw)
    if hands:
        for side, cards in hands.items():
            st.cards["hands"][side] = sorted(cards)
    return st


def listed(st, **kw):
    return [a for a in legal_actions(st, st.active)
            if all(a.get(k) == (list(v) if isinstance(v, tuple) else v) for k, v in kw.items())]


# --- buildings ---------------------------------------------------------------------------

def test_a_building_is_only_considered_fortified_when_all_four_spaces_are_occupied():
    three = std({F3: (1, 4), F3b: (2, 4), F3c: (1, 5), A3: (1, 6)})
    assert combat_strength(three, three.pieces[F3c], 6 * 12 + 1, True) == 3
    four = std({F3: (1, 4), F3b: (2, 4), F3c: (1, 5), F3d: (2, 5), A3: (1, 6)})
    assert combat_strength(four, four.pieces[F3c], 6 * 12 + 1, True) == 4


def test_infantry_pieces_gain_plus_1_strength_when_fortified_in_a_building():
    st = std({F3: (1, 4), F3b: (2, 4), F3c: (1, 5), F3d: (2, 5), A3: (1, 6)})
    apply(st, act(st, type="attack", **{"from": [1, 5], "via": [1, 5], "target": [1, 6]}), [])
    assert st.pieces[A3].where == "eliminated"  # 4 against 3, no die


def test_once_conquered_an_ownership_flag_of_the_owner_is_placed_on_the_building():
    st = std({F3: (1, 4), F3b: (2, 4), F3c: (1, 5), F3d: (3, 5)})
    events = apply(st, act(st, type="move", **{"from": [3, 5], "to": [2, 5]}), [])
    assert st.buildings["hougoumont"]["owner"] == "french"
    assert {"type": "flag", "building": "hougoumont", "owner": "french"} in events


def test_a_building_can_be_conquered_by_the_opponent_and_the_former_owner_loses_it():
    st = std({A3: (1, 4), A3b: (2, 4), A4: (1, 5), A1: (2, 5), F6: (2, 3)})
    st.buildings["hougoumont"]["owner"] = "french"
    apply(st, act(st, type="end_turn"), [])
    assert st.buildings["hougoumont"]["owner"] == "french"  # flags change after an action
    apply(st, act(st, type="move", **{"from": [2, 5], "to": [3, 5]}), [])
    apply(st, act(st, type="move", **{"from": [3, 5], "to": [2, 5]}), [])
    assert st.buildings["hougoumont"]["owner"] == "allied"


def test_cavalry_pieces_cannot_enter_nor_attack_a_building_tile_this_includes_commanders():
    st = std({FLC: (1, 2), NEY: (2, 2), A3: (2, 4)})
    for frm in ([1, 2], [2, 2]):
        targets = {tuple(a.get("to") or a.get("target")) for a in legal_actions(st, "french")
                   if a.get("from") == frm}
        assert not targets & set(HOUGOUMONT)
    assert (1, 3) in {tuple(a["to"]) for a in listed(st, type="move", **{"from": [1, 2]})}


def test_artillery_pieces_cannot_enter_a_building_tile_but_they_can_bombard_it():
    st = std({FA: (1, 3)})
    assert not listed(st, type="move", **{"from": [1, 3], "to": [1, 4]})
    assert listed(st, type="fire", **{"from": [1, 3], "target": [1, 4],
                                      "building": "hougoumont"})


def test_a_building_has_strength_4_and_four_hits_destroy_it():
    st = std({FA: (1, 3), A3: (1, 4), F3: (11, 0)})
    for hit in range(1, 5):
        st.actions_left = 3
        st.active = "french"
        st.used = {}
        events = apply(st, act(st, type="fire", **{"from": [1, 3], "target": [1, 4],
                                                  "building": "hougoumont"}), [])
        assert st.buildings["hougoumont"]["damage"] == hit
    assert {"type": "building_destroyed", "building": "hougoumont"} in events
    seen = {t["name"]: t for t in view(st, None)["terrain"]}
    assert seen["hougoumont"]["destroyed"] and seen["hougoumont"]["damage"] == 4


def test_a_ruined_building_loses_all_benefits_and_cavalry_may_enter():
    st = std({F3: (1, 4), F3b: (2, 4), F3c: (1, 5), F3d: (2, 5), FLC: (3, 3)})
    st.buildings["hougoumont"]["damage"] = 4
    assert combat_strength(st, st.pieces[F3], 0, True) == 3
    st2 = std({FLC: (1, 2)})
    st2.buildings["hougoumont"]["damage"] = 4
    assert listed(st2, type="move", **{"from": [1, 2], "to": [1, 5]})


def test_artillery_cannot_fire_on_units_within_a_building_it_fires_on_the_building_first():
    st = std({FA: (1, 3), A3: (1, 4)})
    fires = listed(st, type="fire")
    assert fires == [{"type": "fire", "side": "french", "from": [1, 3], "target": [1, 4],
                      "building": "hougoumont"}]
    apply(st, fires[0], [])
    assert at(st, 1, 4) == A3 and st.buildings["hougoumont"]["damage"] == 1


def test_when_a_plus_is_rolled_in_a_building_the_victorious_unit_chooses_which_piece_to_attack():
    st = std({F3: (1, 3), A3: (1, 4), A3b: (2, 4), A4: (1, 5)})
    events = apply(st, act(st, type="attack", **{"from": [1, 3], "via": [1, 3],
                                                  "target": [1, 4]}), [BLUE_PLUS])
    assert at(st, 1, 4) == F3 and st.pending["kind"] == "rampage"
    assert GAME.to_move(st) == "french"
    assert sorted(a["target"] for a in legal_actions(st, "french")) == [[1, 5], [2, 4]]
    assert events[-1]["type"] == "asked"
    apply(st, {"type": "rampage", "target": [2, 4]}, [RED])
    assert st.pieces[F3].where == "eliminated" and st.pending is None


# --- the hill ------------------------------------------------------------------------------

def test_artillery_on_a_hill_has_plus_1_range_and_fires_to_the_sides_and_over_pieces():
    st = std({AA: (5, 7), A3: (5, 6), F3: (5, 3), F3b: (1, 7), F3c: (10, 7), F6: (9, 7)},
             active="allied")
    targets = sorted(tuple(a["target"]) for a in listed(st, type="fire", **{"from": [5, 7]}))
    assert targets == [(1, 7), (5, 3), (9, 7)]  # 4 ahead over his own piece; both sides


def test_artillery_on_a_hill_cannot_be_destroyed_by_artillery_on_the_ground():
    st = std({FA: (5, 4), AA: (5, 7)})
    assert not listed(st, type="fire")


def test_infantry_and_cavalry_on_a_hill_get_plus_1_when_attacked_from_the_ground():
    st = std({F3: (5, 6), A3: (5, 7)})
    apply(st, act(st, type="attack", **{"from": [5, 6], "via": [5, 6], "target": [5, 7]}), [])
    assert st.pieces[F3].where == "eliminated" and at(st, 5, 7) == A3


def test_pieces_can_never_be_upgraded_to_more_than_6_strength():
    st = std({F6: (1, 4), F3: (2, 4), F3b: (1, 5), F3c: (2, 5)})
    st.pieces[F6].spirit_half = st.half  # 6, fortified +1, spirit +1: still 6
    assert combat_strength(st, st.pieces[F6], 0, True) == 6


# --- the manoeuvre cards ---------------------------------------------------------------------

def test_at_the_start_both_players_choose_four_cards_keeping_one_and_discarding_one():
    st = GAME.setup(3, {"variant": "standard"}, TABLE)
    GAME.apply(st, GAME.legal_actions(st, "allied")[0], GAME.dice(3, 0))
    GAME.apply(st, GAME.legal_actions(st, "french")[0], GAME.dice(3, 1))
    assert st.phase == "draft" and st.active == "allied"
    order = []
    while st.phase == "draft":
        order.append(st.active)
        GAME.apply(st, GAME.legal_actions(st, st.active)[-1], [])
    assert order == ["allied", "french"] * 4
    assert [len(st.cards["hands"][s]) for s in ("french", "allied")] == [4, 4]
    assert st.phase == "play" and st.active == "allied" and st.turn == 1


def test_ruling_r30_the_french_last_pick_takes_the_one_card_left_and_discards_none():
    st = new_game(1, TABLE, "standard")
    st.phase, st.active = "draft", "french"
    st.cards["pile"] = ["initiative"]
    assert legal_actions(st, "french") == [{"type": "draft", "side": "french",
                                            "keep": "initiative", "discard": None}]
    assert len([c for c in new_game(1, TABLE, "standard").cards["pile"]]) == 15


def test_the_cards_must_be_played_at_the_start_of_a_turn_and_only_one_each_turn():
    st = std({F3: (5, 2), F3b: (6, 2), A3: (5, 8)}, hands={"french": ["initiative",
                                                                       "combined_attack"]})
    assert listed(st, type="card", card="initiative")
    apply(st, act(st, type="move", **{"from": [5, 2], "to": [5, 3]}), [])
    assert not listed(st, type="card")


def test_playing_a_card_counts_as_one_action():
    st = std({F3: (5, 2), F3b: (6, 2), F3c: (7, 2), A3: (5, 8)},
             hands={"french": ["initiative"]})
    apply(st, act(st, type="card", card="initiative"), [])
    assert st.actions_left == 2 and st.cards["hands"]["french"] == []


def test_initiative_allows_the_player_to_move_three_pieces_in_one_single_action():
    st = std({F3: (5, 2), F3b: (6, 2), F3c: (7, 2), F6: (8, 2), A3: (5, 8)},
             hands={"french": ["initiative"]})
    apply(st, act(st, type="card", card="initiative"), [])
    for c in (5, 6, 7):
        assert not listed(st, type="attack")
        apply(st, act(st, type="move", **{"from": [c, 2], "to": [c, 3]}), [])
    assert st.card is None and st.actions_left == 2 and at(st, 8, 2) == F6


def test_combined_attack_attacks_with_one_infantry_one_cavalry_and_one_artillery():
    st = std({F6: (2, 5), FLC: (4, 5), FA: (6, 4), F3: (8, 5),
              A3: (2, 6), ALC: (4, 6), A4: (6, 6), A1: (8, 6)},
             hands={"french": ["combined_attack"]})
    apply(st, act(st, type="card", card="combined_attack"), [])
    apply(st, act(st, type="attack", **{"from": [2, 5], "via": [2, 5], "target": [2, 6]}), [])
    assert not listed(st, type="attack", **{"from": [8, 5]})  # one infantry only
    apply(st, act(st, type="fire", **{"from": [6, 4], "target": [6, 6]}), [])
    apply(st, act(st, type="attack", **{"from": [4, 5], "via": [4, 5], "target": [4, 6]}),
          [BLUE])
    assert st.card is None and st.actions_left == 2
    assert all(st.pieces[p].where == "eliminated" for p in (A3, A4, ALC))


def test_fighting_spirit_adds_1_strength_to_one_of_his_pieces():
    st = std({F3: (5, 4), A3: (5, 5)}, hands={"french": ["fighting_spirit"]})
    apply(st, act(st, type="card", card="fighting_spirit", square=[5, 4]), [])
    apply(st, act(st, type="attack", **{"from": [5, 4], "via": [5, 4], "target": [5, 5]}), [])
    assert st.pieces[A3].where == "eliminated"  # 4 against 3: no die


def test_fighting_spirit_may_be_played_later_in_the_turn():
    st = std({F3: (5, 2), F3b: (5, 4), A3: (5, 5)}, hands={"french": ["fighting_spirit"]})
    apply(st, act(st, type="move", **{"from": [5, 2], "to": [4, 2]}), [])
    assert listed(st, type="card", card="fighting_spirit", square=[5, 4])


def test_fighting_spirit_can_also_be_played_as_a_defensive_move_when_attacked():
    st = std({F3: (5, 4), A3: (5, 5)}, hands={"allied": ["fighting_spirit"]})
    events = apply(st, act(st, type="attack", **{"from": [5, 4], "via": [5, 4],
                                                  "target": [5, 5]}), [])
    assert GAME.to_move(st) == "allied" and st.active == "french"
    assert events_for(events, "french")[-1] == {"type": "asked", "kind": "defend",
                                                "for": "allied", "target": [5, 5]}
    apply(st, {"type": "fighting_spirit", "square": [5, 5]}, [])
    assert st.pieces[F3].where == "eliminated" and st.actions_left == 2
    assert st.cards["hands"]["allied"] == []


def test_ruling_r29_a_defender_with_cards_but_no_fighting_spirit_may_only_decline():
    st = std({F3: (5, 4), A3: (5, 5)}, hands={"allied": ["initiative"]})
    apply(st, act(st, type="attack", **{"from": [5, 4], "via": [5, 4], "target": [5, 5]}), [])
    assert legal_actions(st, "allied") == [{"type": "decline", "side": "allied"}]
    assert GAME.forced_action(legal_actions(st, "allied"), False) is not None
    apply(st, {"type": "decline"}, [BLUE])
    assert st.pieces[A3].where == "eliminated"


def test_ruling_r28_fighting_spirit_lasts_to_the_end_of_that_turn():
    st = std({F3: (5, 4), A3: (5, 7)}, hands={"french": ["fighting_spirit"]})
    apply(st, act(st, type="card", card="fighting_spirit", square=[5, 4]), [])
    p = st.pieces[F3]
    assert combat_strength(st, p, 0, False) == 4
    apply(st, act(st, type="end_turn"), [])
    assert combat_strength(st, p, 0, False) == 3


def test_grand_battery_all_adjoining_artillery_may_fire_once_in_a_single_action():
    st = std({FA: (4, 3), FAb: (5, 3), A3: (4, 5), A4: (5, 6), A1: (8, 6)},
             hands={"french": ["grand_battery"]})
    apply(st, act(st, type="card", card="grand_battery", **{"from": [4, 3]}), [])
    apply(st, act(st, type="fire", **{"from": [4, 3], "target": [4, 5]}), [])
    assert not listed(st, type="fire", **{"from": [4, 3]})
    apply(st, act(st, type="fire", **{"from": [5, 3], "target": [5, 6]}), [])
    assert st.card is None and st.actions_left == 2
    assert st.pieces[A3].where == st.pieces[A4].where == "eliminated"


def test_reconnaissance_looks_at_four_adjoining_pieces_shown_only_to_the_player_who_looked():
    st = std({F3: (0, 0), A3: (5, 7), A3b: (6, 7), A4: (7, 7), A1: (7, 8), ALC: (0, 9)},
             hands={"french": ["reconnaissance"]})
    apply(st, act(st, type="card", card="reconnaissance"), [])
    apply(st, act(st, type="look", square=[5, 7]), [])
    assert {tuple(a["square"]) for a in listed(st, type="look")} == {(6, 7)}
    for sq in ([6, 7], [7, 7], [7, 8]):
        events = apply(st, act(st, type="look", square=sq), [])
    assert st.card is None
    assert events_for(events, "french")[0]["secret"]["piece"]["id"] == A1
    assert "secret" not in events_for(events, "allied")[0]
    french = {tuple(p["square"]): p for p in view(st, "french")["board"]}
    spectator = {tuple(p["square"]): p for p in view(st, None)["board"]}
    assert french[(7, 8)]["id"] == A1 and "id" not in spectator[(7, 8)]
    assert "id" not in french[(0, 9)]


def test_two_more_cards_for_the_allies_from_the_discard_deck_when_the_prussians_come():
    st = std({A3: (0, 9), F3: (0, 0)}, active="allied", turn=13, start=False)
    st.cards["discards"] = {"french": ["initiative", "reconnaissance"],
                            "allied": ["grand_battery"]}
    from stratego.engine.rules import start_turn
    start_turn(st, [])
    acts = legal_actions(st, "allied")
    assert {a["type"] for a in acts} == {"take_cards"} and len(acts) == 3
    events = apply(st, {"type": "take_cards", "cards": ["initiative", "reconnaissance"]}, [])
    assert st.cards["hands"]["allied"] == ["initiative", "reconnaissance"]
    assert "secret" not in events_for(events, "french")[0]
    assert view(st, "allied")["cards"]["discards"]["french"] == []


def test_the_hand_is_secret_its_count_is_not():
    st = std({F3: (0, 0)}, hands={"french": ["initiative"], "allied": ["grand_battery"]})
    st.cards["pile"] = []
    seen = view(st, "french")["cards"]
    assert seen["hand"] == ["initiative"] and seen["hand_count"]["allied"] == 1
    assert "grand_battery" not in str(seen)
    assert "hand" not in view(st, None)["cards"]


def test_a_standard_game_is_chosen_at_setup_and_the_basic_one_is_unchanged():
    basic = GAME.setup(1, {}, TABLE)
    assert basic.cards is None and "terrain" not in view(basic, None)
    assert GAME.setup(1, {"mode": "standard"}, TABLE).mode == "standard"
    assert GAME.setup(1, {"variant": "standard"}, TABLE).cards is not None
