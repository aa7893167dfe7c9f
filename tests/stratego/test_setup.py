"""001 §2, §3 and §6: the set-up."""

import pytest

from stratego.engine import IllegalAction, apply, legal_actions, new_game, view
from stratego.engine.board import PRUSSIAN_FLAG

from .helpers import TABLE


def fresh(seed: int = 3):
    return new_game(seed, TABLE)


def placement(side: str, rows: range, skip: set[str] = frozenset()) -> dict:
    ids = [s.id for s in TABLE.army(side) if s.id not in skip]
    squares = [[c, r] for r in rows for c in range(12)]
    return dict(zip(ids, squares, strict=False))


def test_the_allied_player_will_start_setting_up_his_army():
    st = fresh()
    assert st.active == "allied" and legal_actions(st, "french") == []
    apply(st, {"type": "deploy", "random": True}, _dice())
    assert st.active == "french" and st.phase == "setup"


def _dice():
    import random
    r = random.Random(0)
    while True:
        yield r.randint(1, 6)


def test_pieces_are_placed_on_the_four_bottom_rows_of_their_side():
    st = fresh()
    with pytest.raises(IllegalAction, match="four set-up rows"):
        apply(st, {"type": "deploy", "placement": placement("allied", range(4, 9))}, [])
    apply(st, {"type": "deploy", "placement": placement("allied", range(6, 10))}, [])
    with pytest.raises(IllegalAction, match="four set-up rows"):
        apply(st, {"type": "deploy", "placement": placement("french", range(2, 6))}, [])


def test_during_set_up_the_two_middle_rows_remain_unoccupied():
    st = fresh()
    apply(st, {"type": "deploy", "random": True}, _dice())
    apply(st, {"type": "deploy", "random": True}, _dice())
    assert all(not (48 <= s < 72) or s in PRUSSIAN_FLAG for s in st.board)
    assert not any(48 <= s < 72 for s in st.board)


def test_a_maximum_of_10_pieces_in_reserve():
    st = fresh()
    eleven = {s.id for s in TABLE.army("allied") if s.type == "line_infantry"}
    eleven = set(sorted(eleven)[:11])
    with pytest.raises(IllegalAction, match="at most 10"):
        apply(st, {"type": "deploy", "placement": placement("allied", range(6, 10), eleven)},
              [])
    ten = set(sorted(eleven)[:10])
    apply(st, {"type": "deploy", "placement": placement("allied", range(6, 10), ten)}, [])
    assert sum(1 for p in st.pieces.values() if p.side == "allied" and p.where == "reserve"
               and p.spec.army == "allied") == 10
    assert view(st, "french")["sides"]["allied"]["reserve_count"] == 10
    assert "reserve" not in view(st, "french")["sides"]["allied"]


def test_commanders_and_commanders_in_chief_must_always_be_placed_on_the_board():
    st = fresh()
    with pytest.raises(IllegalAction, match="Wellington must be placed"):
        apply(st, {"type": "deploy",
                   "placement": placement("allied", range(6, 10), {"A45"})}, [])


def test_the_allied_player_starts_the_battle_at_11_oclock_with_three_actions():
    st = fresh()
    apply(st, {"type": "deploy", "random": True}, _dice())
    events = apply(st, {"type": "deploy", "random": True}, _dice())
    assert (st.phase, st.active, st.turn, st.actions_left) == ("play", "allied", 1, 3)
    assert events[-1] == {"type": "turn", "side": "allied", "turn": 1, "time": "11:00",
                          "actions": 3}


def test_each_player_draws_a_line_of_retreat_card_and_the_opponent_does_not_see_it():
    st = fresh()
    assert st.lines["french"] in ("left", "centre", "right")
    assert view(st, "french")["sides"]["french"]["lines_of_retreat"]["sector"] == \
        st.lines["french"]
    assert "lines_of_retreat" not in view(st, "french")["sides"]["allied"]
    assert "lines_of_retreat" not in view(st, None)["sides"]["french"]


def test_the_prussian_pieces_are_shuffled_and_invisible_to_both_players():
    orders = {tuple(new_game(seed, TABLE).prussian_pool) for seed in range(5)}
    assert len(orders) > 1
    for viewer in ("french", "allied", None):
        text = str(view(fresh(), viewer))
        assert "P01" not in text and view(fresh(), viewer)["prussians_to_come"] == 13
