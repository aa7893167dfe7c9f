"""One test per ruling of RULINGS.md not already held by a rule test (named there)."""

from stratego.engine import apply, events_for, legal_actions, new_game
from stratego.engine.board import COLS, PRUSSIAN_FLAG, ROWS, TERRAIN, home_squares

from .helpers import TABLE, act, at, find, position

F3 = find("french", "line_infantry", 3)
F4 = find("french", "line_infantry", 4)
FA = find("french", "artillery")
A3 = find("allied", "line_infantry", 3)
HC = find("french", "heavy_cavalry", 4)


def test_board_is_12_by_10():
    assert (COLS, ROWS) == (12, 10)
    assert len(home_squares("french")) == 48 and len(home_squares("allied")) == 48


def test_ruling_r2_set_up_rows_and_the_empty_middle():
    assert {s // 12 for s in home_squares("french")} == {0, 1, 2, 3}
    assert {s // 12 for s in home_squares("allied")} == {6, 7, 8, 9}


def test_ruling_r3_the_line_of_retreat_card_is_from_the_seed_and_each_sector_occurs():
    sectors = {new_game(seed, TABLE).lines["allied"] for seed in range(30)}
    assert sectors == {"left", "centre", "right"}
    assert new_game(4, TABLE).lines == new_game(4, TABLE).lines


def test_ruling_r5_the_prussian_flag_is_on_the_allied_left_of_the_middle_rows():
    assert sorted((s % 12, s // 12) for s in PRUSSIAN_FLAG) == [(11, 4), (11, 5)]


def test_ruling_r6_terrain_tiles_are_two_by_two_and_do_not_overlap():
    squares = [s for _, tile in TERRAIN.values() for s in tile]
    assert len(squares) == len(set(squares)) == 12


def test_ruling_r11_heavy_cavalry_never_falls_below_strength_1():
    st = position({HC: (0, 0)})
    st.pieces[HC].weakened = 7
    assert st.pieces[HC].strength == 1


def test_ruling_r12_artillery_does_not_fire_on_its_own_pieces_or_past_them():
    st = position({FA: (5, 2), F3: (5, 4), A3: (5, 5)})
    assert not [a for a in legal_actions(st, "french") if a["type"] == "fire"]


def test_ruling_r12_firing_reveals_the_cannon():
    st = position({FA: (5, 2), A3: (5, 4)})
    apply(st, act(st, type="fire", **{"from": [5, 2], "target": [5, 4]}), [])
    assert st.pieces[FA].revealed


def test_ruling_r13_deployments_differing_by_a_swap_look_the_same_to_the_opponent():
    ids = [s.id for s in TABLE.army("allied")]
    squares = [[c, r] for r in range(6, 10) for c in range(12)]

    def seen(order):
        st = new_game(1, TABLE)
        placement = dict(zip(order, squares, strict=False))
        return events_for(apply(st, {"type": "deploy", "placement": placement}, []), "french")

    line = [i for i, pid in enumerate(ids) if TABLE[pid].type == "line_infantry"]
    swapped = list(ids)
    swapped[line[0]], swapped[line[-1]] = swapped[line[-1]], swapped[line[0]]
    assert seen(ids) == seen(swapped)
    assert "secret" not in seen(ids)[0]


def test_ruling_r14_a_withdrawn_prussian_comes_back_on_the_flag():
    p3 = find("prussian", "line_infantry", 3)
    st = position({A3: (0, 9)}, active="allied", turn=14)
    st.pieces[p3].where = "withdrawn"
    st.prussian_pool.remove(p3)
    squares = {tuple(a["to"]) for a in legal_actions(st, "allied")
               if a["type"] == "enter" and a["piece"] == p3}
    assert squares <= {(11, 4), (11, 5)}


def test_ruling_r16_a_commander_lost_during_a_turn_costs_from_the_next():
    ney = find("french", "commander")
    aa = find("allied", "artillery")
    st = position({ney: (5, 4), aa: (5, 5), F4: (0, 0)})
    apply(st, act(st, type="attack", **{"from": [5, 4], "via": [5, 4], "target": [5, 5]}), [])
    assert st.pieces[ney].where == "eliminated" and st.actions_left == 2
    apply(st, act(st, type="end_turn"), [])
    apply(st, act(st, type="end_turn"), [])
    assert st.actions_left == 2 and at(st, 0, 0) == F4


def test_ruling_r10_a_player_left_no_action_by_a_withdrawn_commander_may_bring_him_back():
    ney = find("french", "commander")
    nap = find("french", "commander_in_chief")
    st = position({F4: (0, 0)}, active="allied", start=False)
    st.lift(st.pieces[nap], "eliminated")
    st.pieces[ney].where = "withdrawn"
    st.pieces[ney].back_from = 0
    st.actions_left = 3
    apply(st, act(st, type="end_turn"), [])
    assert st.active == "french" and st.actions_left == 1
    apply(st, act(st, type="enter", piece=ney, to=[5, 0]), [])
    assert st.active == "french" and st.actions_left == 1  # the refund: one more action
