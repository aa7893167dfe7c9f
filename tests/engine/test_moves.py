"""4.0 board (Diagram 3), 8.x Battle Moves, 9.0 formations on the move."""

from battles.engine.board import PLACE_INDEX, facing
from battles.engine.moves import adjacent

from .helpers import (
    BR_INF,
    FR_CAV,
    FR_FOOT,
    FR_HORSE,
    FR_INF,
    NAPOLEON,
    NEY,
    blank,
    do,
    legal,
    move,
    put,
)


def _dests(st, p):
    return {x["to"] for x in legal(st, "french", "move") if x.get("piece") == p.pid}


def test_4_0_reserve_adjacent_to_each_own_position():
    assert adjacent(0, 0) == (1, 2, 3)
    assert adjacent(1, 4) == (5, 6, 7)


def test_4_0_left_faces_enemy_right_no_lateral_moves():
    assert facing(PLACE_INDEX["french_left"]) == PLACE_INDEX["allied_right"]
    assert facing(PLACE_INDEX["allied_center"]) == PLACE_INDEX["french_center"]
    assert set(adjacent(0, PLACE_INDEX["french_left"])) == {0, PLACE_INDEX["allied_right"]}


def test_8_0_one_move_to_an_adjacent_position():
    st = blank()
    p = put(st, FR_INF, "french_left")
    assert _dests(st, p) == {"french_reserve", "allied_right"}
    move(st, p, "allied_right")
    assert _dests(st, p) == set()


def test_8_0_never_into_the_enemy_reserve():
    st = blank()
    p = put(st, FR_CAV, "allied_center")
    put(st, BR_INF, "allied_center")
    assert "allied_reserve" not in _dests(st, p)


def test_8_0_moves_from_the_reserve():
    st = blank()
    st.reserve[0] = [FR_INF]
    tos = {x["to"] for x in legal(st, "french", "move") if x.get("card") == FR_INF}
    assert tos == {"french_left", "french_center", "french_right"}


def test_8_1_engaging_reveals_both_sides_engaged_cards():
    st = blank()
    p = put(st, FR_INF, "french_center", up=False)
    t = put(st, BR_INF, "allied_center", up=False)
    other = put(st, BR_INF, "allied_left", up=False)
    ev = move(st, p, "allied_center")
    assert p.up and t.up and not other.up
    assert {e["piece"] for e in ev if e["type"] == "reveal"} == {p.pid, t.pid}


def test_8_1_revealed_cards_stay_face_up_until_moved_to_the_reserve():
    st = blank()
    p = put(st, FR_INF, "allied_center")
    put(st, BR_INF, "allied_center")
    move(st, p, "french_center")
    assert p.up
    p.moves = 0
    move(st, p, "french_reserve")
    assert FR_INF in st.reserve[0] and p.pid not in st.pieces


def test_8_1_foot_artillery_never_engages():
    st = blank()
    a = put(st, FR_FOOT, "french_center")
    put(st, BR_INF, "allied_center")
    assert "allied_center" not in _dests(st, a)
    h = put(st, FR_HORSE, "french_left")
    put(st, BR_INF, "allied_right")
    assert "allied_right" in _dests(st, h)


def test_8_1_foot_artillery_can_be_engaged():
    st = blank(active="allied")
    put(st, FR_FOOT, "french_center")
    p = put(st, BR_INF, "allied_center")
    assert "french_center" in {x["to"] for x in legal(st, "allied", "move")
                               if x.get("piece") == p.pid}


def test_8_2_disengage_only_to_unengaged_friendly_position():
    st = blank()
    p = put(st, FR_INF, "allied_center")
    put(st, BR_INF, "allied_center")
    assert _dests(st, p) == {"french_center"}
    put(st, BR_INF, "french_center")
    assert _dests(st, p) == set()


def test_8_2_defenders_disengage_to_their_reserve():
    st = blank()
    p = put(st, FR_INF, "french_center")
    put(st, BR_INF, "french_center")
    assert _dests(st, p) == {"french_reserve"}


def test_8_2_card_moved_to_reserve_stays_there_this_turn():
    """RULINGS 8.2-b: one Battle Move; back in the Reserve a card may not come out again
    until the side's next turn (it used to shuttle Position <-> Reserve without end). A
    Cavalry card whose second move is gone (not consecutive any more, or spent) stays too."""
    st = blank()
    p = put(st, FR_INF, "french_left")
    cav = put(st, FR_CAV, "french_center")
    move(st, cav, "french_reserve")  # its first move: a second one is still possible ...
    move(st, p, "french_reserve")  # ... until another card acts
    assert st.reserve[0].count(FR_INF) == 1 and st.reserve[0].count(FR_CAV) == 1
    entries = [x for x in legal(st, "french", "move") if x.get("card") in (FR_INF, FR_CAV)]
    assert entries == []
    # another copy of the same card number still in the Reserve is not held back
    st.reserve[0].append(FR_INF)
    st.reserve[0].sort()
    assert any(x.get("card") == FR_INF for x in legal(st, "french", "move"))


def test_8_2_cavalry_in_and_out_of_the_reserve_stays_there():
    """The shuttle fix holds for Cavalry: in from the Reserve and back is two moves."""
    st = blank()
    st.reserve[0] = [FR_CAV]
    do(st, {"type": "move", "side": "french", "card": FR_CAV, "to": "french_left"})
    c = [p for p in st.pieces.values() if p.num == FR_CAV][0]
    move(st, c, "french_reserve")
    assert not [x for x in legal(st, "french", "move") if x.get("card") == FR_CAV]


def test_8_3_cavalry_two_consecutive_moves_through_the_reserve():
    """8.3 "Cavalry and Generals can make two (2) consecutive battle moves in one turn": the
    Reserve is adjacent to each own Position (Diagram 3), so Left -> Reserve -> Center is two
    moves, refused by nothing in 8.3 (not an engagement, nothing engaged)."""
    st = blank()
    c = put(st, FR_CAV, "french_left")
    g = put(st, NEY, "french_right")
    move(st, c, "french_reserve")
    tos = {x["to"] for x in legal(st, "french", "move") if x.get("card") == FR_CAV}
    assert tos == {"french_left", "french_center", "french_right"}
    do(st, {"type": "move", "side": "french", "card": FR_CAV, "to": "french_center"})
    c2 = [p for p in st.pieces.values() if p.num == FR_CAV][0]
    assert _dests(st, c2) == set()  # both moves spent
    move(st, g, "french_reserve")
    do(st, {"type": "move", "side": "french", "card": NEY, "to": "french_left"})
    assert [p.place for p in st.pieces.values() if p.num == NEY] == [PLACE_INDEX["french_left"]]


def test_8_3_no_disengage_then_engage_through_the_reserve():
    """8.3: no Disengage and Engage in the same turn, through the Reserve too; disengaging
    then moving to an unengaged Position is allowed."""
    st = blank()
    c = put(st, FR_CAV, "french_left")
    put(st, FR_INF, "french_left")
    put(st, BR_INF, "french_left")
    put(st, FR_INF, "french_center")
    put(st, BR_INF, "french_center")
    move(st, c, "french_reserve")
    tos = {x["to"] for x in legal(st, "french", "move") if x.get("card") == FR_CAV}
    assert tos == {"french_right"}  # not back into either engagement


def test_8_3_cavalry_two_consecutive_moves():
    st = blank()
    st.reserve[0] = [FR_CAV]
    do(st, {"type": "move", "side": "french", "card": FR_CAV, "to": "french_center"})
    p = next(iter(st.pieces.values()))
    assert "allied_center" in _dests(st, p)
    move(st, p, "allied_center")
    assert p.moves == 2 and _dests(st, p) == set()


def test_8_3_second_move_must_be_consecutive():
    st = blank()
    g = put(st, NEY, "french_center")
    i = put(st, FR_INF, "french_left")
    move(st, g, "allied_center")
    assert _dests(st, g)
    move(st, i, "french_reserve")
    assert _dests(st, g) == set()


def test_8_3_no_engage_and_disengage_in_one_turn():
    st = blank()
    c = put(st, FR_CAV, "french_center")
    put(st, BR_INF, "allied_center")
    move(st, c, "allied_center")
    assert c.eng and _dests(st, c) == set()


def test_8_3_no_disengage_then_engage():
    st = blank()
    c = put(st, FR_CAV, "french_center")
    put(st, BR_INF, "french_center")
    put(st, BR_INF, "allied_left")
    assert _dests(st, c) == {"french_reserve"}
    move(st, c, "french_reserve")
    assert c.pid not in st.pieces


def test_8_3_never_move_through_an_engagement():
    st = blank()
    st.reserve[0] = [FR_CAV]
    put(st, BR_INF, "french_center")
    put(st, FR_INF, "french_center")
    do(st, {"type": "move", "side": "french", "card": FR_CAV, "to": "french_center"})
    c = [p for p in st.pieces.values() if p.num == FR_CAV][0]
    assert _dests(st, c) == set()


def _types(st, side="french"):
    return {x["type"] for x in legal(st, side)}


def test_8_4_stacking_ignored_until_movement_completed():
    """8.0: "Stacking Limits (8.4) are ignored until all movement is completed" (MagWeb Q&A
    8.3): a fifth card may enter while a card there can still go back; until the side is
    within the limits again it may only move (RULINGS 8.4-a)."""
    st = blank()
    old = [put(st, FR_INF, "french_center") for _ in range(4)]
    put(st, BR_INF, "allied_center")
    st.reserve[0] = [FR_INF_B := 16, NAPOLEON]
    a = {"type": "move", "side": "french", "card": FR_INF_B, "to": "french_center",
         "formation": "line"}
    assert a in legal(st, "french", "move")
    do(st, a)
    assert sum(1 for p in st.pieces.values() if p.place == 2) == 5
    assert _types(st) == {"move"}  # no fire, special or end_phase while over the limit
    # the card that came in has spent its move; the four that were there may withdraw
    new = [p for p in st.pieces.values() if p.num == FR_INF_B][0]
    assert _dests(st, new) == set()
    assert _dests(st, old[0]) == {"french_reserve", "allied_center"}
    move(st, old[0], "allied_center")  # engaging takes it out of the Position too
    assert "end_phase" in _types(st)


def test_8_4_over_the_limit_only_with_a_way_back():
    """RULINGS 8.4-a never a dead end: no fifth card where none can leave again (here the
    four have fired), and never over the limit in an enemy Position."""
    st = blank()
    for _ in range(4):
        put(st, FR_INF, "french_center", fired=True)
    for _ in range(4):
        put(st, FR_INF, "allied_left")
    put(st, BR_INF, "allied_left")
    c = put(st, FR_CAV, "french_right")
    st.reserve[0] = [16, NAPOLEON]
    tos = {x["to"] for x in legal(st, "french", "move") if x.get("card") == 16}
    assert tos == {"french_left", "french_right"}
    gtos = {x["to"] for x in legal(st, "french", "move") if x.get("card") == NAPOLEON}
    assert "french_center" in gtos  # Generals never count (8.4)
    assert _dests(st, c) == {"french_reserve"}  # the enemy Position already holds four


def test_8_3_cavalry_may_move_through_a_position_holding_four():
    """MagWeb Q&A 8.3: YES, cavalry may move through a Position already holding four cards
    to one where they do not exceed the limit."""
    st = blank()
    for _ in range(4):
        put(st, FR_INF, "french_center", fired=True)
    put(st, BR_INF, "allied_center")
    st.reserve[0] = [FR_CAV]
    a = {"type": "move", "side": "french", "card": FR_CAV, "to": "french_center"}
    assert a in legal(st, "french", "move")
    do(st, a)
    c = [p for p in st.pieces.values() if p.num == FR_CAV][0]
    acts = legal(st, "french")
    assert acts and all(x["type"] == "move" and x.get("piece") == c.pid for x in acts)
    assert _dests(st, c) == {"allied_center", "french_reserve"}
    move(st, c, "allied_center")
    assert sum(1 for p in st.pieces.values() if p.place == 2) == 4
    assert "end_phase" in _types(st)


def test_9_0_unengaged_infantry_move_and_change_formation():
    st = blank()
    st.reserve[0] = [FR_INF]
    put(st, BR_INF, "french_center")
    a = {"type": "move", "side": "french", "card": FR_INF, "to": "french_center",
         "formation": "square"}
    assert a in legal(st, "french", "move")
    do(st, a)
    p = [q for q in st.pieces.values() if q.num == FR_INF][0]
    assert p.form == 2


def test_9_0_engaged_infantry_spend_a_move_to_change_formation():
    st = blank()
    p = put(st, FR_INF, "allied_center")
    put(st, BR_INF, "allied_center")
    do(st, {"type": "change_formation", "side": "french", "piece": p.pid,
            "formation": "column"})
    assert p.moves == 1 and _dests(st, p) == set()
    assert not [x for x in legal(st, "french", "change_formation") if x["piece"] == p.pid]


def test_12_0_one_general_per_position_once_movement_is_completed():
    """12.0 "Only one (1) General may occupy each Position", a limit that, like stacking,
    binds once movement is completed (MagWeb Q&A 8.3: a General may move through a Position
    holding a General): over it, the side may only move."""
    st = blank()
    ney = put(st, NEY, "french_center")
    st.reserve[0] = [NAPOLEON]
    tos = {x["to"] for x in legal(st, "french", "move") if x.get("card") == NAPOLEON}
    assert tos == {"french_left", "french_center", "french_right"}
    do(st, {"type": "move", "side": "french", "card": NAPOLEON, "to": "french_center"})
    assert _types(st) == {"move"}
    nap = [p for p in st.pieces.values() if p.num == NAPOLEON][0]
    assert _dests(st, nap) == {"allied_center", "french_reserve"}
    move(st, ney, "allied_center")  # Ney leaves instead: Napoléon has no move left
    assert _dests(st, nap) == set() and "end_phase" in _types(st)


def test_12_0_general_may_move_through_a_position_holding_a_general():
    """MagWeb Q&A 8.3: YES, a General may pass through a Position holding a General to one
    holding none."""
    st = blank()
    ney = put(st, NEY, "french_center")
    ney.moves = 1  # Ney has moved and another card acted since: he cannot leave
    st.reserve[0] = [NAPOLEON]
    do(st, {"type": "move", "side": "french", "card": NAPOLEON, "to": "french_center"})
    nap = [p for p in st.pieces.values() if p.num == NAPOLEON][0]
    assert {x.get("piece") for x in legal(st, "french")} == {nap.pid}
    move(st, nap, "allied_center")
    assert "end_phase" in _types(st)
