"""001 §4-§5 and §14: the armies, as the piece table reconstructs them (data/README.md)."""

from collections import Counter

import pytest

from stratego.engine import PieceTable
from stratego.loader import load_pieces

T = load_pieces()


def army(name: str) -> list:
    return T.army(name)


def types(name: str) -> Counter:
    return Counter(s.type for s in army(name))


def test_french_47_allied_45_prussian_13_pieces():
    assert (len(army("french")), len(army("allied")), len(army("prussian"))) == (47, 45, 13)


def test_the_french_player_has_the_following_units():
    assert types("french") == {"light_infantry": 5, "line_infantry": 20, "light_cavalry": 6,
                               "heavy_cavalry": 6, "artillery": 8, "commander": 1,
                               "commander_in_chief": 1}
    guard = [s for s in army("french") if s.type == "line_infantry" and s.strength > 3]
    assert len(guard) == 5  # 'of which 5 pieces are Imperial Guard units'
    heavy_guard = [s for s in army("french") if s.type == "heavy_cavalry" and s.strength > 4]
    assert len(heavy_guard) == 3  # 'of which 3 pieces are Imperial Guard units'
    names = {s.name for s in army("french")}
    assert {"Marshal Ney", "Emperor Napoleon", "Empress Dragoons"} <= names


def test_the_allied_player_has_the_following_units():
    assert types("allied") == {"light_infantry": 5, "line_infantry": 21, "light_cavalry": 6,
                               "heavy_cavalry": 5, "artillery": 6, "commander": 1,
                               "commander_in_chief": 1}
    assert sum(1 for s in army("allied") if s.type == "line_infantry" and s.strength > 3) == 3
    assert sum(1 for s in army("allied") if s.type == "heavy_cavalry" and s.strength > 4) == 2
    assert sum(1 for s in army("allied") if s.name.startswith("British/KGL Foot")) == 18
    assert {"Lord Uxbridge", "Duke of Wellington"} <= {s.name for s in army("allied")}


def test_the_prussian_player_has_the_following_units():
    assert types("prussian") == {"light_infantry": 4, "line_infantry": 3, "light_cavalry": 4,
                                 "artillery": 1, "commander": 1}
    assert "Feldmarschall Von Bulow" in {s.name for s in army("prussian")}


@pytest.mark.parametrize("typ,allowed", [
    ("light_infantry", {1, 2}), ("line_infantry", {3, 4, 5, 6}), ("light_cavalry", {2}),
    ("heavy_cavalry", {4, 5, 6}), ("commander", {5}), ("commander_in_chief", {None}),
    ("artillery", {None})])
def test_strengths_are_within_the_printed_ranges(typ, allowed):
    assert {s.strength for s in T.specs.values() if s.type == typ} <= allowed


def test_infantry_of_5_middle_guard_of_6_old_guard_heavy_cavalry_of_6_empress_dragoons():
    by_name = {s.name: s.strength for s in army("french")}
    assert by_name["Middle Guard 1"] == by_name["Middle Guard 2"] == 5
    assert by_name["Old Guard"] == 6 and by_name["Empress Dragoons"] == 6
    # 001 §14's held-back pieces exist: 2 Heavy Cavalry of 4
    assert sum(1 for s in army("french") if s.type == "heavy_cavalry" and s.strength == 4) >= 2


def test_every_piece_names_the_sentence_it_rests_on():
    assert all(s.source for s in T.specs.values())
    assert len(T.specs) == 105


def test_a_broken_table_is_refused():
    with pytest.raises(ValueError):
        PieceTable.from_doc({"version": "x", "pieces": [
            {"id": "X", "army": "french", "name": "x", "type": "artillery", "strength": 3,
             "source": "-"}]})
