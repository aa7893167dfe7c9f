"""001 §9 the Prussians and the time track; §1, §3 and Part II: victory; RULINGS R3, R5,
R14, R15."""

from stratego.engine import apply, legal_actions, view
from stratego.engine.board import PRUSSIAN_FLAG, lines_of_retreat, time_of_turn

from .helpers import act, find, position

NAP = find("french", "commander_in_chief")
NEY = find("french", "commander")
UX = find("allied", "commander")
WEL = find("allied", "commander_in_chief")
ALC = find("allied", "light_cavalry")
F3 = find("french", "line_infantry", 3)
F3b = find("french", "line_infantry", 3, 1)
FLC = find("french", "light_cavalry")


def test_the_timetable_shows_11_oclock_at_turn_1_and_16_30_when_the_12th_turn_begins():
    assert time_of_turn(1) == "11:00" and time_of_turn(12) == "16:30"
    assert time_of_turn(13) == "17:00"


def end_turns(st, n):
    for _ in range(n):
        apply(st, act(st, type="end_turn"), [])


def test_after_the_12th_turn_two_prussian_pieces_arrive_on_the_prussian_flag():
    st = position({ALC: (0, 9)}, active="allied", turn=12)
    assert not any(p.where == "board" for p in st.pieces.values() if p.spec.army == "prussian")
    end_turns(st, 2)
    assert st.turn == 13 and st.active == "allied"
    arrived = [p for p in st.pieces.values() if p.spec.army == "prussian" and p.where == "board"]
    assert len(arrived) == 2 and {p.square for p in arrived} == set(PRUSSIAN_FLAG)
    assert len(st.prussian_pool) == 11


def test_the_allied_player_sees_the_prussians_rank_the_french_only_their_back():
    st = position({ALC: (0, 9)}, active="allied", turn=13)
    flag = [p for p in view(st, "allied")["board"] if p.get("army") == "prussian"]
    assert len(flag) == 2 and all("strength" in p for p in flag)
    seen = [p for p in view(st, "french")["board"] if p.get("army") == "prussian"]
    assert len(seen) == 2 and all("strength" not in p and "id" not in p for p in seen)


def test_prussians_come_two_a_turn_as_long_as_there_is_room():
    st = position({ALC: (0, 9)}, active="allied", turn=13)
    end_turns(st, 2)  # the flag is still full: no room
    assert len(st.prussian_pool) == 11
    first = st.board[PRUSSIAN_FLAG[0]]
    apply(st, act(st, type="move", **{"from": [11, 4], "to": [10, 4]}), [])
    assert st.board.get(PRUSSIAN_FLAG[0]) is None and first
    end_turns(st, 3)
    assert len(st.prussian_pool) == 10


def test_from_the_13th_turn_the_allies_have_four_actions_at_least_one_prussian_one_allied():
    st = position({ALC: (0, 9)}, active="allied", turn=13)
    assert st.actions_left == 4
    apply(st, act(st, type="move", **{"from": [0, 9], "to": [0, 8]}), [])
    apply(st, act(st, type="move", **{"from": [0, 8], "to": [0, 9]}), [])
    # two Allied actions used; a third Allied one is refused while no Prussian has acted
    assert st.actions_left == 2
    apply(st, act(st, type="move", **{"from": [0, 9], "to": [0, 8]}), [])
    assert st.actions_left == 1
    armies = {st.pieces[st.board[a["from"][1] * 12 + a["from"][0]]].spec.army
              for a in legal_actions(st, "allied") if "from" in a}
    assert armies == {"prussian"}
    assert not [a for a in legal_actions(st, "allied") if a["type"] == "enter"
                and st.pieces[a["piece"]].spec.army == "allied"]


def test_the_prussian_units_destroyed_by_the_french_dont_return():
    st = position({ALC: (0, 9)}, active="allied", turn=13)
    pid = st.board[PRUSSIAN_FLAG[0]]
    st.lift(st.pieces[pid], "eliminated")
    end_turns(st, 2)
    assert st.pieces[pid].where == "eliminated" and pid not in st.prussian_pool


def test_two_units_on_the_opponents_lines_of_retreat_win_the_game():
    squares = lines_of_retreat("allied", "right")
    assert [s % 12 for s in squares] == [0, 1, 2, 3] and {s // 12 for s in squares} == {9}
    st = position({F3: (0, 8), F3b: (1, 9), UX: (11, 9)}, lines={"allied": "right"})
    apply(st, act(st, type="move", **{"from": [0, 8], "to": [0, 9]}), [])
    assert st.outcome == {"winner": "french", "reason": "lines_of_retreat", "turn": 1}


def test_one_unit_or_units_off_the_lines_of_retreat_do_not_win():
    st = position({F3: (4, 8), F3b: (3, 9), FLC: (5, 0)}, lines={"allied": "right"})
    apply(st, act(st, type="move", **{"from": [4, 8], "to": [4, 9]}), [])
    assert st.outcome is None  # (4, 9) is the Allied centre


def test_the_allied_lines_of_retreat_left_flank_is_the_allied_left():
    assert [s % 12 for s in lines_of_retreat("allied", "left")] == [8, 9, 10, 11]
    assert [s % 12 for s in lines_of_retreat("french", "left")] == [0, 1, 2, 3]


def test_standard_if_napoleon_or_wellington_is_captured_the_game_ends():
    a1 = find("allied", "light_infantry", 1)
    st = position({a1: (5, 5), NAP: (5, 4), NEY: (0, 0)}, active="allied", mode="standard")
    apply(st, act(st, type="attack", **{"from": [5, 5], "via": [5, 5], "target": [5, 4]}), [])
    assert st.outcome == {"winner": "allied", "reason": "commander_in_chief", "turn": 1}


def test_basic_the_capture_of_napoleon_does_not_end_the_game():
    a1 = find("allied", "light_infantry", 1)
    st = position({a1: (5, 5), NAP: (5, 4), NEY: (0, 0)}, active="allied")
    apply(st, act(st, type="attack", **{"from": [5, 5], "via": [5, 5], "target": [5, 4]}), [])
    assert st.outcome is None
