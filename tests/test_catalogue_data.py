"""Tests of the committed card data (cards/data/catalogue.json): plain pytest, no database."""

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from cards.catalogue_rules import (
    ALL_KEYS,
    BATTLE_DECK,
    EFFECT_KINDS,
    RESTRICTIONS,
    TIMINGS,
    bp_formula,
    cv_from_strength,
    validate_catalogue,
)

DATA_FILE = Path(__file__).resolve().parents[1] / "cards" / "data" / "catalogue.json"


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


@pytest.fixture
def broken(data) -> dict:
    return copy.deepcopy(data)


def by_name(data: dict, name: str) -> dict:
    return next(card for card in data["cards"] if card["name"] == name)


def historical(data: dict, army: str, battle: str) -> list[dict]:
    return [c for c in data["cards"]
            if c["army"] == army and battle in c["battles"] and c["type"] != "terrain"]


# --- the committed file ------------------------------------------------------------------------


def test_committed_catalogue_is_valid(data):
    assert validate_catalogue(data) == []


def test_version_and_shape(data):
    assert data["version"] == "1.0.0+2026-11-22"
    assert set(data) == {"version", "cards"}
    for card in data["cards"]:
        assert list(card) == list(ALL_KEYS), card["number"]


def test_army_counts(data):
    assert Counter(c["army"] for c in data["cards"]) == {
        "french": 110, "british": 90, "prussian": 100}


def test_numbers_unique_contiguous_and_in_army_ranges(data):
    numbers = [c["number"] for c in data["cards"]]
    assert numbers == list(range(1, 301))
    for card in data["cards"]:
        n = card["number"]
        expected = "french" if n <= 110 else "british" if n <= 200 else "prussian"
        assert card["army"] == expected, n


def test_names_unique(data):
    names = Counter(c["name"] for c in data["cards"])
    assert [n for n, k in names.items() if k > 1] == []


def test_every_army_has_every_type(data):
    for army in ("french", "british", "prussian"):
        kinds = {(c["type"], c["artillery_kind"]) for c in data["cards"] if c["army"] == army}
        for kind in ("general", "infantry", "cavalry", "terrain", "special"):
            assert (kind, None) in kinds, (army, kind)
        assert ("artillery", "foot") in kinds and ("artillery", "horse") in kinds, army


@pytest.mark.parametrize(("battle", "army", "minimum"), [
    ("waterloo", "french", 36), ("waterloo", "british", 36), ("waterloo", "prussian", 24),
    ("ligny", "french", 36), ("ligny", "prussian", 40),
    ("quatre-bras", "french", 14), ("quatre-bras", "british", 18),
    ("wavre", "french", 16), ("wavre", "prussian", 12),
])
def test_battle_minimums(data, battle, army, minimum):
    assert BATTLE_DECK[battle][army] == minimum
    assert len(historical(data, army, battle)) >= minimum


def test_armies_only_in_battles_they_fought(data):
    for card in data["cards"]:
        for battle in card["battles"]:
            assert card["army"] in BATTLE_DECK[battle], card["number"]


@pytest.mark.parametrize(("name", "army", "battle", "position", "terrain_class"), [
    ("Hougoumont", "british", "waterloo", "r", "building"),
    ("La Haye Sainte", "british", "waterloo", "c", "building"),
    ("Papelotte", "british", "waterloo", "l", "building"),
    ("Mont-Saint-Jean Ridge", "british", "waterloo", "c", "hill"),
    ("Plancenoit", "french", "waterloo", "r", "building"),
    ("La Belle Alliance Ridge", "french", "waterloo", "c", "hill"),
    ("Quatre Bras Crossroads", "british", "quatre-bras", "c", "building"),
    ("Bossu Wood", "french", "quatre-bras", "l", "woods"),
    ("Gemioncourt", "french", "quatre-bras", "c", "building"),
    ("Ligny Village", "prussian", "ligny", "c", "building"),
    ("St-Amand", "prussian", "ligny", "r", "building"),
    ("Ligne Brook", "prussian", "ligny", "c", "river"),
    ("River Dyle", "prussian", "wavre", "c", "river"),
    ("Bierges Mill", "prussian", "wavre", "r", "river"),
    ("Limale Bridge", "french", "wavre", "l", "river"),
])
def test_named_terrain(data, name, army, battle, position, terrain_class):
    card = by_name(data, name)
    assert card["type"] == "terrain"
    assert (card["army"], card["terrain_battle"], card["terrain_position"],
            card["terrain_class"]) == (army, battle, position, terrain_class)
    assert card["battles"] == [battle]
    assert (card["move_limit"] in (1, 2)) == (terrain_class == "river")


def test_river_dyle_move_limit(data):
    assert by_name(data, "River Dyle")["move_limit"] == 1


def test_terrain_per_army_and_battle(data):
    for battle, decks in BATTLE_DECK.items():
        for army in decks:
            terrain = [c for c in data["cards"] if c["type"] == "terrain"
                       and c["army"] == army and c["terrain_battle"] == battle]
            assert len(terrain) >= 2, (battle, army)


def test_every_bp_equals_formula(data):
    for card in data["cards"]:
        assert card["bp"] == bp_formula(card), card["number"]


def test_every_cv_follows_strength_rule(data):
    for card in data["cards"]:
        if card["type"] in ("infantry", "cavalry", "artillery"):
            assert card["cv"] == cv_from_strength(card), card["number"]


def test_key_generals(data):
    napoleon = by_name(data, "Napoléon")
    assert (napoleon["army"], napoleon["corps"]) == ("french", "A")
    assert by_name(data, "Ney")["corps"] == "A"
    chiefs = {c["name"] for c in data["cards"] if c["chief_of_staff"]}
    assert chiefs == {"Soult", "Gneisenau"}
    seconds = {c["name"] for c in data["cards"] if c["second_in_command"]}
    assert seconds == {"Uxbridge"}
    for name in ("Grouchy", "Wellington", "Prince of Orange", "Blücher"):
        assert by_name(data, name)["type"] == "general"


def test_rule_17_4_example_card(data):
    penne = by_name(data, "Brigade Penne")
    assert (penne["ob_corps"], penne["ob_division"], penne["ob_brigade"]) == ("VI", "21", "Penne")


def test_morale_and_firepower_policy(data):
    for card in data["cards"]:
        if card["type"] == "cavalry":
            assert card["firepower"] == 1, card["number"]  # 7.22
        if card["army"] == "french" and card["ob_corps"] == "Guard" and card["morale"]:
            assert card["morale"] == "a", card["number"]
    british_line = [c for c in data["cards"] if c["type"] == "infantry"
                    and c["nationality"] in ("british", "kgl")]
    assert all(c["firepower"] == 3 for c in british_line)
    french_line = [c for c in data["cards"] if c["type"] == "infantry" and c["army"] == "french"]
    assert all(c["firepower"] == 2 and c["shock"] >= 3 for c in french_line)


def test_specials_use_the_closed_vocabulary(data):
    specials = [c for c in data["cards"] if c["type"] == "special"]
    assert len({c["effect"]["kind"] for c in specials}) >= 10
    for card in specials:
        assert card["effect"]["kind"] in EFFECT_KINDS
        assert card["special_timing"] in TIMINGS
        assert set(card["special_restrictions"]) <= set(RESTRICTIONS)
        if card["army"] == "prussian" and "waterloo" in card["battles"]:
            assert "prussians_arrived" in card["special_restrictions"], card["number"]


# --- validate_catalogue catches broken copies ---------------------------------------------------


def test_catches_wrong_army_count(broken):
    card = next(c for c in broken["cards"] if c["number"] == 5)
    card["army"] = "british"
    problems = validate_catalogue(broken)
    assert "catalogue: french has 109 cards, expected 110 (18.0)" in problems
    assert "catalogue: british has 91 cards, expected 90 (18.0)" in problems
    assert "card #5: number 5 is outside the british range 111-200" in problems


def test_catches_bad_morale(broken):
    card = next(c for c in broken["cards"] if c["type"] == "infantry")
    card["morale"] = "e"
    problems = validate_catalogue(broken)
    assert any(p.startswith(f"card #{card['number']}: morale must be one of") for p in problems)


def test_catches_morale_against_17_2(broken):
    guard = by_name(broken, "Old Guard Grenadiers (1st/2nd)")
    guard["morale"] = "c"
    guard["bp"] = bp_formula(guard)
    assert validate_catalogue(broken) == [
        f"card #{guard['number']}: morale 'c' breaks the 17.2 rule for french_guard troops"
        " (allowed: a)"]


def test_catches_unknown_effect_kind(broken):
    card = next(c for c in broken["cards"] if c["type"] == "special")
    card["effect"] = {"kind": "teleport", "count": 1}
    problems = validate_catalogue(broken)
    assert f"card #{card['number']}: effect.kind 'teleport' is not in EFFECT_KINDS" in problems


def test_catches_bad_effect_param(broken):
    card = next(c for c in broken["cards"] if c["type"] == "special"
                and c["effect"]["kind"] == "morale_modifier")
    card["effect"]["amount"] = 5
    problems = validate_catalogue(broken)
    assert f"card #{card['number']}: effect.amount must be an int 1-2, got 5" in problems


def test_catches_terrain_in_wrong_battle(broken):
    card = by_name(broken, "Hougoumont")
    card["terrain_battle"] = "ligny"
    problems = validate_catalogue(broken)
    n = card["number"]
    assert (f"card #{n}: battles must be exactly ['ligny'] for terrain (11.0), got ['waterloo']"
            in problems)
    assert (f"card #{n}: terrain_battle 'ligny' is a battle the british army did not fight"
            in problems)


def test_catches_missing_field(broken):
    card = next(c for c in broken["cards"] if c["number"] == 42)
    del card["shock"]
    assert "card #42: missing field 'shock'" in validate_catalogue(broken)


def test_catches_wrong_bp(broken):
    card = by_name(broken, "Napoléon")
    card["bp"] += 1
    assert validate_catalogue(broken) == [
        f"card #{card['number']}: bp {card['bp']} does not equal bp_formula ({card['bp'] - 1})"]


def test_catches_duplicate_number(broken):
    broken["cards"][1]["number"] = 1
    problems = validate_catalogue(broken)
    assert "card #1: number used 2 times" in problems
    assert "catalogue: card numbers missing: [2]" in problems


def test_catches_prussian_special_without_arrival_restriction(broken):
    card = next(c for c in broken["cards"] if c["army"] == "prussian"
                and c["type"] == "special" and "waterloo" in c["battles"])
    card["special_restrictions"].remove("prussians_arrived")
    problems = validate_catalogue(broken)
    assert (f"card #{card['number']}: special_restrictions must include 'prussians_arrived' for"
            " a Prussian special usable at Waterloo (13.0)") in problems


def test_catches_field_that_must_be_null(broken):
    card = by_name(broken, "Wellington")
    card["cv"] = 3
    problems = validate_catalogue(broken)
    assert f"card #{card['number']}: cv must be null for general cards, got 3" in problems


def test_not_a_document():
    assert validate_catalogue([]) != []
    problems = validate_catalogue({"version": "x", "cards": "no"})
    assert problems == ["catalogue: cards must be a list"]


@pytest.mark.parametrize("junk", [None, [], {}, 1.5, True, "x", ["waterloo"]])
def test_junk_values_are_reported_never_raised(data, junk):
    for number in (1, 15, 99, 190, 300):
        card = data["cards"][number - 1]
        for key in ALL_KEYS:
            cards = list(data["cards"])
            cards[number - 1] = {**card, key: junk}
            problems = validate_catalogue({"version": data["version"], "cards": cards})
            assert isinstance(problems, list)  # reported, never raised
        cards = list(data["cards"])
        cards[number - 1] = junk
        assert validate_catalogue({"version": data["version"], "cards": cards}) != []
