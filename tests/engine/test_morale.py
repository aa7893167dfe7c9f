"""6.0 morale, 9.3 squares, 12.x generals, with forced dice."""

from battles.engine import load_cards
from battles.engine.morale import passes
from cards.catalogue.file import catalogue_records

from .helpers import (
    BLUCHER,
    BR_INF,
    BR_INF_D,
    COOKE,
    DERLON,
    FR_CAV,
    FR_GUARD,
    FR_INF,
    FR_INF_II,
    GNEISENAU,
    NAPOLEON,
    NEY,
    PR_INF,
    REILLE,
    SOULT,
    UXBRIDGE,
    WELLINGTON,
    ZIETEN,
    blank,
    do,
    event,
    legal,
    put,
)

RECORDS = catalogue_records()  # the card records the engine is given

def _morale_state(num=FR_INF, place="french_center", hits=1, **kw):
    st = blank(phase="morale")
    p = put(st, num, place, hits=hits, **kw)
    return st, p


def _roll(st, dice):
    return do(st, {"type": "roll_morale", "side": "french"}, dice)


def test_6_0_morale_values_a_to_d():

    c = load_cards(RECORDS)
    assert (c[FR_GUARD].morale, c[BR_INF].morale, c[FR_INF].morale, c[BR_INF_D].morale) == \
        (4, 3, 2, 1)


def test_6_0_equal_or_less_passes():
    st, p = _morale_state()  # C = 2
    _roll(st, [2])
    assert p.pid in st.pieces and p.hits == 0


def test_6_0_exceeding_routs():
    st, p = _morale_state()
    ev = _roll(st, [3])
    assert p.pid not in st.pieces and FR_INF in st.elim[0]
    assert event(ev, "eliminated")["reason"] == "routed"


def test_6_0_one_roll_per_hit():
    st, p = _morale_state(hits=3)
    ev = _roll(st, [1, 2, 2])
    assert event(ev, "morale")["dice"] == [1, 2, 2] and p.pid in st.pieces


def test_6_0_rolls_stop_at_first_rout():
    st, p = _morale_state(hits=3)
    dice = iter([5, 1, 1])
    from battles.engine import apply

    apply(st, {"type": "roll_morale", "side": "french"}, dice)
    assert list(dice) == [1, 1]


def test_6_0_natural_six_always_routs():
    st, p = _morale_state(FR_GUARD, "allied_center")
    put(st, NAPOLEON, "allied_center")  # A4 + offense 3 = 7
    _roll(st, [6])
    assert p.pid not in st.pieces


def test_6_0_natural_one_always_passes():
    assert passes(1, 0) and passes(1, -3) and not passes(6, 9)


def test_6_0_morale_phase_only_for_cards_hit_last_enemy_turn():
    from battles.engine.phases import start_turn

    st = blank(active="allied")
    put(st, FR_INF, "french_center", hits=1)
    start_turn(st, 0, [])
    assert st.phase == "morale"
    st2 = blank(active="allied")
    put(st2, FR_INF, "french_center")
    start_turn(st2, 0, [])
    assert st2.phase == "combat"


def test_9_3_square_plus_one_morale():
    st, p = _morale_state(form="square")
    _roll(st, [3])
    assert p.pid in st.pieces


def test_12_1_defense_rating_when_defending():
    st, p = _morale_state(FR_INF_II, "french_center")  # C2, II corps
    put(st, REILLE, "french_center")  # II, 1/2
    ev = _roll(st, [4])
    assert event(ev, "morale")["value"] == 4 and p.pid in st.pieces


def test_12_1_offense_rating_when_attacking():
    st, p = _morale_state(FR_INF_II, "allied_center")
    put(st, REILLE, "allied_center")
    put(st, BR_INF, "allied_center")
    ev = _roll(st, [4])
    assert event(ev, "morale")["value"] == 3 and p.pid not in st.pieces


def test_12_2_corps_integrity():
    st, p = _morale_state(FR_INF, "french_center")  # I Corps
    put(st, REILLE, "french_center")  # II Corps: no help
    ev = _roll(st, [3])
    assert event(ev, "morale")["value"] == 2


def test_12_2_army_commander_supports_any_corps():
    st, p = _morale_state(FR_INF, "french_center")
    put(st, NEY, "french_center")  # corps A, defense 1
    assert event(_roll(st, [3]), "morale")["value"] == 3


def test_12_2_prussian_general_never_assists_british():
    st = blank(active="allied", phase="morale")
    put(st, BR_INF, "allied_left", hits=1)
    put(st, BLUCHER, "allied_left")
    ev = do(st, {"type": "roll_morale", "side": "allied"}, [2])
    assert event(ev, "morale")["value"] == 3


def test_12_2_british_commander_never_assists_prussians():
    st = blank(active="allied", phase="morale")
    put(st, PR_INF, "allied_left", hits=1)
    put(st, WELLINGTON, "allied_left")
    assert event(do(st, {"type": "roll_morale", "side": "allied"}, [2]), "morale")["value"] == 3


def test_12_3_chief_of_staff_only_when_commander_absent():
    st, p = _morale_state(FR_INF, "french_center")
    put(st, SOULT, "french_center")
    assert event(_roll(st, [3]), "morale")["value"] == 4  # Napoléon absent: Soult 1/2 A
    st, p = _morale_state(FR_INF, "french_center")
    put(st, SOULT, "french_center")
    put(st, NAPOLEON, "french_left")
    assert event(_roll(st, [3]), "morale")["value"] == 2


def test_12_3_chief_of_staff_kept_in_reserve_while_commander_on_field():
    st = blank()
    put(st, NAPOLEON, "french_left")
    st.reserve[0] = [SOULT]
    assert not [x for x in legal(st, "french", "move") if x.get("card") == SOULT]
    st.pieces.clear()
    assert [x for x in legal(st, "french", "move") if x.get("card") == SOULT]


def test_12_3_gneisenau_like_soult():
    st = blank(active="allied")
    put(st, BLUCHER, "allied_left")
    st.reserve[1] = [GNEISENAU]
    assert not [x for x in legal(st, "allied", "move") if x.get("card") == GNEISENAU]


def test_12_3_uxbridge_commands_when_wellington_absent():
    st = blank(active="allied", phase="morale")
    put(st, BR_INF, "allied_center", hits=1)  # I corps; Uxbridge is Cavalry corps
    put(st, UXBRIDGE, "allied_center")  # defense 1
    assert event(do(st, {"type": "roll_morale", "side": "allied"}, [2]), "morale")["value"] == 4
    st = blank(active="allied", phase="morale")
    put(st, BR_INF, "allied_center", hits=1)
    put(st, UXBRIDGE, "allied_center")
    put(st, WELLINGTON, "allied_left")
    assert event(do(st, {"type": "roll_morale", "side": "allied"}, [2]), "morale")["value"] == 3


def test_12_4_general_takes_a_hit_for_each_one_rolled():
    st = blank()
    a = put(st, FR_INF, "allied_center")
    t = put(st, BR_INF, "allied_center")
    g = put(st, COOKE, "allied_center")
    do(st, {"type": "fire", "side": "french", "piece": a.pid, "target": t.pid}, [1, 1, 5])
    assert g.ghits == 2 and t.hits == 1


def test_12_4_general_hits_rolled_first_six_kills():
    st = blank(phase="morale")
    p = put(st, FR_INF, "french_center", hits=1)
    g = put(st, DERLON, "french_center", ghits=1)  # I corps 2/1
    ev = _roll(st, [6, 3])
    assert g.pid not in st.pieces and event(ev, "general_morale")["killed"]
    assert event(ev, "morale")["value"] == 2 and p.pid not in st.pieces


def test_12_4_general_survives_one_to_five():
    st = blank(phase="morale")
    g = put(st, DERLON, "french_center", ghits=2)
    put(st, FR_INF, "french_center")
    _roll(st, [5, 1])
    assert g.pid in st.pieces and g.ghits == 0


def test_12_4_lone_engaged_general_eliminated():
    st = blank()
    g = put(st, NEY, "french_center")
    c = put(st, FR_CAV, "french_left")
    put(st, BR_INF, "allied_center")
    ev = do(st, {"type": "move", "side": "french", "piece": g.pid, "to": "allied_center"})
    assert g.pid not in st.pieces and event(ev, "eliminated")["reason"] == "alone"
    assert c.pid in st.pieces


def test_12_4_general_left_alone_after_rout_eliminated():
    st = blank(phase="morale")
    put(st, FR_INF, "allied_center", hits=1)
    g = put(st, NEY, "allied_center")
    put(st, BR_INF, "allied_center")
    put(st, ZIETEN, "allied_left")
    put(st, FR_INF, "french_center")
    _roll(st, [6])
    assert g.pid not in st.pieces


def test_a_morale_roll_says_what_its_value_is_made_of():
    """Issue 28: the log shows a morale roll's modifiers (its general 12.1, a square 9.3)."""
    st, p = _morale_state(FR_INF_II, "french_center", form="square")  # C2, II corps
    put(st, REILLE, "french_center")  # II, defends +2
    roll = event(_roll(st, [4]), "morale")
    assert roll["value"] == 5 and roll["modifiers"] == [["general", 2], ["square", 1]]


def test_a_morale_roll_of_a_face_down_card_keeps_its_parts_hidden():
    st, p = _morale_state(FR_INF_II, "french_center")
    put(st, REILLE, "french_center", up=False)  # a face-down general does not command
    roll = event(_roll(st, [4]), "morale")
    assert roll["value"] == 2 and roll["modifiers"] == []
    st, p = _morale_state(FR_INF_II, "french_center", up=False)
    assert "modifiers" not in event(_roll(st, [1]), "morale")
