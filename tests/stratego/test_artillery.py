"""001 §4 'Artillery' and §5 (grapeshot); RULINGS R4, R9, R12."""

from stratego.engine import apply, legal_actions

from .helpers import act, at, find, position

FA = find("french", "artillery")
AA = find("allied", "artillery")
A3 = find("allied", "line_infantry", 3)
A1 = find("allied", "light_infantry", 1)
F3 = find("french", "line_infantry", 3)
ALC = find("allied", "light_cavalry")


def fires(st):
    return [a for a in legal_actions(st, st.active) if a["type"] == "fire"]


def test_artillery_fires_frontally_up_to_a_distance_of_3_spaces():
    st = position({FA: (5, 2), A3: (5, 5)})
    assert fires(st) == [{"type": "fire", "side": "french", "from": [5, 2], "target": [5, 5]}]
    st = position({FA: (5, 2), A3: (5, 6)})
    assert fires(st) == []
    st = position({FA: (5, 2), A3: (6, 3)})  # not frontally
    assert fires(st) == []


def test_artillery_fires_only_if_the_spaces_in_front_are_empty():
    st = position({FA: (5, 2), F3: (5, 3), A3: (5, 4)})
    assert fires(st) == []


def test_artillery_can_destroy_all_pieces_also_the_opponents_artillery():
    st = position({FA: (5, 2), AA: (5, 4)})
    events = apply(st, act(st, type="fire", **{"from": [5, 2], "target": [5, 4]}), [])
    assert st.pieces[AA].where == "eliminated" and at(st, 5, 2) == FA
    assert events[0]["result"] == "destroyed" and st.actions_left == 2


def test_artillery_can_only_fire_once_each_action():
    st = position({FA: (5, 2), A3: (5, 4), A1: (5, 5)})
    apply(st, act(st, type="fire", **{"from": [5, 2], "target": [5, 4]}), [])
    assert st.pieces[A1].where == "board" and st.actions_left == 2


def test_light_infantry_is_immune_to_artillery_fire():
    st = position({FA: (5, 2), A1: (5, 4)})
    events = apply(st, act(st, type="fire", **{"from": [5, 2], "target": [5, 4]}), [])
    assert at(st, 5, 4) == A1 and events[0]["result"] == "immune"
    assert st.pieces[A1].revealed  # R12


def test_commanders_are_not_immune_to_grapeshot():
    ux = find("allied", "commander")
    st = position({FA: (5, 2), ux: (5, 5)})
    apply(st, act(st, type="fire", **{"from": [5, 2], "target": [5, 5]}), [])
    assert st.pieces[ux].where == "eliminated"


def test_an_enemy_piece_attacking_artillery_from_the_front_is_eliminated():
    st = position({AA: (5, 5), F3: (5, 4)})
    apply(st, act(st, type="attack", **{"from": [5, 4], "via": [5, 4], "target": [5, 5]}), [])
    assert st.pieces[F3].where == "eliminated" and at(st, 5, 5) == AA


def test_artillery_is_destroyed_by_all_other_pieces_from_the_flanks_and_rear():
    for sq in ((4, 5), (6, 5), (5, 6)):
        li = find("french", "light_infantry", 1)
        st = position({AA: (5, 5), li: sq})
        apply(st, act(st, type="attack", **{"from": list(sq), "via": list(sq),
                                            "target": [5, 5]}), [])
        assert st.pieces[AA].where == "eliminated" and at(st, 5, 5) == li


def test_commanders_attacking_artillery_from_the_front_are_destroyed_too():
    nap = find("french", "commander_in_chief")
    st = position({AA: (5, 5), nap: (5, 4)})
    apply(st, act(st, type="attack", **{"from": [5, 4], "via": [5, 4], "target": [5, 5]}), [])
    assert st.pieces[nap].where == "eliminated"


def test_ruling_r9_artillery_does_not_attack_by_moving():
    st = position({FA: (5, 4), A3: (5, 5)})
    assert not [a for a in legal_actions(st, "french") if a["type"] == "attack"]


def test_ruling_r4_allied_artillery_faces_the_french_back_row():
    st = position({AA: (5, 7), F3: (5, 4)}, active="allied")
    assert fires(st) == [{"type": "fire", "side": "allied", "from": [5, 7], "target": [5, 4]}]
    st = position({AA: (5, 5), ALC: (0, 0), F3: (5, 6)}, active="french")
    # attacked from behind (the Allied rear is towards row 9)
    apply(st, act(st, type="attack", **{"from": [5, 6], "via": [5, 6], "target": [5, 5]}), [])
    assert st.pieces[AA].where == "eliminated"
