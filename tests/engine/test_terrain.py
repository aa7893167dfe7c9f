"""11.x terrain: occupation, hills, woods, rivers, buildings, capture."""

from .helpers import (
    BR_CAV,
    BR_INF,
    FR_CAV,
    FR_FOOT,
    FR_INF,
    NEY,
    blank,
    do,
    event,
    fire,
    legal,
    move,
    put,
)

LHS, MSJ, BOSSU, DYLE = 179, 181, 85, 278  # La Haye Sainte, Mont-Saint-Jean Ridge, ...


def test_11_0_terrain_played_only_in_friendly_unengaged_position():
    st = blank(active="allied")
    st.reserve[1] = [LHS]
    put(st, BR_INF, "allied_center")
    assert legal(st, "allied", "play_terrain")
    put(st, FR_INF, "allied_center")
    assert not legal(st, "allied", "play_terrain")


def test_11_0_occupation_by_one_or_two_troop_cards():
    st = blank(active="allied")
    t = put(st, MSJ, "allied_center")
    a = put(st, BR_INF, "allied_center")
    b = put(st, BR_INF, "allied_center")
    c = put(st, BR_INF, "allied_center")
    for p in (a, b):
        do(st, {"type": "occupy", "side": "allied", "piece": p.pid, "terrain": t.pid})
    assert not [x for x in legal(st, "allied", "occupy") if x["piece"] == c.pid]


def test_11_5_occupying_is_a_move_even_from_the_reserve():
    st = blank(active="allied")
    st.reserve[1] = [BR_INF]
    t = put(st, LHS, "allied_center")
    a = {"type": "move", "side": "allied", "card": BR_INF, "to": "allied_center",
         "formation": "line", "occupy": t.pid}
    assert a in legal(st, "allied", "move")
    do(st, a)
    p = [q for q in st.pieces.values() if q.num == BR_INF][0]
    assert p.occ == t.pid and p.moves == 1


def test_11_1_hill_adds_one_cv_to_defenders():
    st = blank(active="allied")
    t = put(st, MSJ, "allied_center")
    a = put(st, BR_INF, "allied_center", occ=t.pid)
    f = put(st, FR_INF, "allied_center")
    ev = fire(st, a, f, [1, 1, 1, 1])
    assert len(event(ev, "fire")["dice"]) == 4


def test_11_1_hill_gives_attackers_nothing():
    st = blank()
    t = put(st, MSJ, "allied_center")
    put(st, BR_INF, "allied_center", occ=t.pid)
    f = put(st, FR_INF, "allied_center")
    x = put(st, BR_INF, "allied_center")
    assert len(event(fire(st, f, x, [1, 1, 1]), "fire")["dice"]) == 3


def test_11_2_woods_only_infantry_defend_or_attack():
    st = blank(battle="quatre-bras", active="allied")
    w = put(st, BOSSU, "french_left")
    d = put(st, FR_INF, "french_left", occ=w.pid)
    put(st, BR_CAV, "french_left")
    assert not legal(st, "allied", "fire") and not legal(st, "allied", "shock")
    i = put(st, BR_INF, "french_left")
    ev = fire(st, i, d, [1, 1])
    assert len(event(ev, "fire")["dice"]) == 2  # attacking infantry -1cv
    c = put(st, FR_CAV, "french_left")
    from battles.engine.moves import occupy_options
    from battles.engine.queries import index

    assert not occupy_options(st, index(st), 0, st.cards[c.num], 1)


def test_11_3_river_goes_to_the_middle_ground():
    st = blank(battle="wavre", active="allied", phase="deploy")
    st.reserve[1] = [DYLE]
    do(st, {"type": "play_terrain", "side": "allied", "card": DYLE})
    r = next(iter(st.pieces.values()))
    assert r.place == 9  # front_center, not a Position


def test_11_3_river_move_limit_per_turn_generals_exempt():
    st = blank(battle="wavre")
    put(st, DYLE, "front_center")
    a = put(st, FR_INF, "french_center")
    b = put(st, FR_INF, "french_center")
    g = put(st, NEY, "french_center")
    put(st, 207, "allied_center")
    move(st, a, "allied_center")  # limit 1
    assert not [x for x in legal(st, "french", "move")
                if x.get("piece") == b.pid and x["to"] == "allied_center"]
    assert [x for x in legal(st, "french", "move")
            if x.get("piece") == g.pid and x["to"] == "allied_center"]


def test_11_4_building_only_infantry_and_only_fire():
    st = blank(active="allied")
    b = put(st, LHS, "allied_center")
    i = put(st, BR_INF, "allied_center", occ=b.pid, form="column")
    put(st, FR_INF, "allied_center")
    assert not legal(st, "allied", "shock") and legal(st, "allied", "fire")
    from battles.engine.moves import occupy_options
    from battles.engine.queries import index

    assert not occupy_options(st, index(st), 1, st.cards[BR_CAV], 6)
    assert i.occ


def test_11_5_vacant_terrain_captured_by_engaging_infantry():
    st = blank()
    t = put(st, LHS, "allied_center")
    put(st, BR_INF, "allied_center")
    p = put(st, FR_INF, "french_center")
    ev = move(st, p, "allied_center")
    assert t.ctrl == 0 and p.occ == t.pid and event(ev, "captured")["by"] == "french"


def test_11_5_terrain_captured_when_defenders_rout():
    st = blank(active="allied", phase="morale")
    t = put(st, LHS, "allied_center")
    put(st, BR_INF, "allied_center", occ=t.pid, hits=1)
    put(st, BR_INF, "allied_center")
    f = put(st, FR_INF, "allied_center")
    do(st, {"type": "roll_morale", "side": "allied"}, [6])
    assert t.ctrl == 0 and f.occ == t.pid


def test_11_5_cavalry_do_not_capture():
    st = blank()
    t = put(st, LHS, "allied_center")
    put(st, BR_INF, "allied_center")
    c = put(st, FR_CAV, "french_center")
    move(st, c, "allied_center")
    assert t.ctrl == 1


def test_6_0_terrain_supports_morale_of_its_defenders():
    st = blank(active="allied", phase="morale")
    t = put(st, LHS, "allied_center")
    put(st, BR_INF, "allied_center", occ=t.pid, hits=1)
    put(st, FR_FOOT, "french_center")
    ev = do(st, {"type": "roll_morale", "side": "allied"}, [4])
    assert event(ev, "morale")["value"] == 4
