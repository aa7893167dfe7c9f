# Over 500 lines on purpose: one idea, the checks of the committed card data.
"""Tests of the committed card data (cards/data/catalogue.json): plain pytest, no database."""

import copy
import hashlib
import json
import re
from collections import Counter
from pathlib import Path

import pytest

from cards.catalogue.rules import (
    ALL_KEYS,
    BATTLE_DECK,
    EFFECT_KINDS,
    RESTRICTIONS,
    TIMINGS,
    bp_formula,
    cv_from_strength,
)
from cards.catalogue.validation import validate_catalogue
from cards.data import corrections, militia
from cards.data.pools import BATTLES, bad_guns, battery_guns, fought, pool, pool_counts

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
    assert data["version"] == "1.3.0+2026-11-27"
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


# --- issue 9: the catalogue against the order of battle (version 1.1.0) --------------------

PREVIOUS = "1.0.0+2026-11-22"
# sha256 of the committed 1.0.0 file (git show 9e08861:cards/data/catalogue.json).
PREVIOUS_SHA256 = "707900ba89abf9bccdc3d9e4524cfad7c710bbcb606181b4003c582843f583d5"
README = DATA_FILE.parent / "README.md"
# Reference §3 (J2): the Quatre Bras sample game's historical decks.
SAMPLE_QB = {
    "french": {"general": 3, "infantry": 6, "artillery": 4, "horse": 2, "cavalry": 4,
               "terrain": 3, "special": 6, "total": 26},
    "british": {"general": 8, "infantry": 10, "artillery": 4, "horse": 1, "cavalry": 2,
                "terrain": 3, "special": 6, "total": 33},
}


@pytest.fixture(scope="module")
def v1_2(data) -> dict:
    return corrections.undo(data, "1.3.0", "1.2.0+2026-11-27")


@pytest.fixture(scope="module")
def v1_1(v1_2) -> dict:
    return corrections.undo(v1_2, "1.2.0", "1.1.0+2026-11-24")


@pytest.fixture(scope="module")
def v1_0(v1_1) -> dict:
    return corrections.undo(v1_1, "1.1.0", PREVIOUS)


def test_corrections_table_rebuilds_1_0_0_byte_for_byte(v1_0):
    """The README table lists every change of 1.1.0: undoing it gives back the 1.0.0 file."""
    text = corrections.dumps(v1_0)
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == PREVIOUS_SHA256
    assert validate_catalogue(v1_0) == []


def test_corrections_never_renumber_rearmy_or_remove(data, v1_0):
    assert [(c["number"], c["army"]) for c in data["cards"]] == [
        (c["number"], c["army"]) for c in v1_0["cards"]]
    fields = {row["field"] for row in corrections.rows("1.1.0")}
    assert fields <= {"name", "ob_brigade", "battles", "guns", "cv", "bp", "source"}


@pytest.mark.parametrize("version", ["1.1.0", "1.2.0", "1.3.0"])
def test_every_correction_names_a_source(version):
    for row in corrections.rows(version):
        assert row["source"], row


def test_issue9_netherlands_foot_battery_fought_at_quatre_bras(data, v1_0):
    card = by_name(data, "Netherlands Foot Artillery (Stevenart & Lux)")
    assert (card["number"], card["artillery_kind"]) == (169, "foot")
    assert card["battles"] == ["quatre-bras", "waterloo"]
    assert "quatre-bras" not in v1_0["cards"][168]["battles"]


def _brigadier(card: dict) -> str:
    # "Jamin de Bermuy" and "Jamin" are one man; "C. Halkett" and "H. Halkett" are two.
    return card["ob_brigade"].split(" de ")[0]


def _brigadiers_in_two_divisions(data: dict) -> list[str]:
    seen: dict[str, set] = {}
    for c in data["cards"]:
        if c["type"] == "infantry" and c["army"] != "prussian":
            seen.setdefault(_brigadier(c), set()).add((c["army"], c["ob_corps"], c["ob_division"]))
    return sorted(name for name, divisions in seen.items() if len(divisions) > 1)


def test_issue9_no_brigade_carries_another_divisions_brigadier(data, v1_0):
    assert _brigadiers_in_two_divisions(data) == []
    assert _brigadiers_in_two_divisions(v1_0) == ["Jamin"]  # the 1.0.0 error, now caught
    card = data["cards"][43]
    assert (card["name"], card["ob_corps"], card["ob_division"], card["ob_brigade"]) == (
        "Brigade Thévenet", "VI", "19", "Thévenet")
    assert data["cards"][27]["ob_brigade"] == "Jamin" and data["cards"][27]["ob_division"] == "9"


@pytest.mark.parametrize(("army", "nationality", "kind", "guns"), [
    ("french", None, "foot", 8), ("french", None, "horse", 6),
    ("british", "british", "foot", 6), ("british", "british", "horse", 6),
    ("british", "kgl", "foot", 6), ("british", "hanoverian", "foot", 6),
    ("british", "netherlands", "foot", 8), ("british", "netherlands", "horse", 8),
    ("british", "brunswick", "foot", 8),
    ("prussian", None, "foot", 8), ("prussian", None, "horse", 8),
])
def test_rule_a1_battery_sizes(army, nationality, kind, guns):
    card = {"army": army, "nationality": nationality, "artillery_kind": kind}
    assert battery_guns(card) == guns


def test_rule_a1_every_artillery_card_holds_whole_batteries(data, v1_0):
    assert bad_guns(data) == []
    assert bad_guns(v1_0) == [72, 74, 75, 76]
    for card in data["cards"]:
        if card["type"] == "artillery":
            assert 1 <= card["guns"] // battery_guns(card) <= 4, card["number"]


def test_issue9_pire_horse_battery_has_6_guns_and_17_1_cv(data, v1_0):
    card = by_name(data, "II Corps Horse Artillery (Piré)")
    assert (card["guns"], card["cv"], card["bp"]) == (6, 1, bp_formula(card))
    assert v1_0["cards"][72]["guns"] == 12


@pytest.mark.parametrize(("number", "guns", "cv"), [
    (72, 8, 1), (73, 6, 1), (74, 32, 5), (75, 32, 5), (76, 24, 3), (71, 24, 3)])
def test_17_1_french_artillery_cv_from_corrected_guns(data, number, guns, cv):
    card = data["cards"][number - 1]
    assert (card["guns"], card["cv"]) == (guns, cv)


def test_hal_units_fought_in_no_battle(data):
    hal = {"Prince Frederick", "Colville", "Johnstone's Brigade (35th Foot)",
           "Lyon's Brigade (Hanoverian Landwehr)", "Hauw's Brigade (Netherlands Militia)"}
    assert {c["name"] for c in data["cards"] if not c["battles"]} == hal


QB, LI, WA, WT = "quatre-bras", "ligny", "wavre", "waterloo"
# Reference §4 battle columns: (army, corps) or (army, corps, division) -> battles.
BATTLES_BY_FORMATION = {
    ("french", "I"): [WT], ("french", "II"): [QB, WT], ("french", "II", "7"): [LI],
    ("french", "III"): [LI, WA], ("french", "III", "3C"): [LI, WT], ("french", "IV"): [LI, WA],
    ("french", "VI"): [WT], ("french", "VI", "21"): [WA],
    ("french", "I Cav"): [LI, WA], ("french", "I Cav", "5"): [LI, WT],
    ("french", "II Cav"): [LI, WA], ("french", "III Cav"): [QB, WT], ("french", "IV Cav"): [LI, WT],
    ("british", "I"): [QB, WT], ("british", "I", "3 NL"): [WT], ("british", "I", "NL Cav"): [WT],
    ("british", "II"): [WT], ("british", "II", "1 NL"): [], ("british", "Cavalry"): [WT],
    ("british", "Reserve", "6"): [WT], ("british", "Reserve", "RHA"): [WT],
    ("british", "Reserve", "Nassau"): [WT],
    ("british", "Reserve", "5"): [QB, WT], ("british", "Reserve", "Brunswick"): [QB, WT],
    ("prussian", "I"): [LI, WT], ("prussian", "II"): [LI, WT],
    ("prussian", "III"): [LI, WA], ("prussian", "IV"): [WT],
}
# Brigade-level exceptions within a division (§4), and the artillery pairs that span two
# formations (README: Corrections in version 1.1.0).
BATTLES_BY_CARD = {
    140: [], 141: [],  # Johnstone and Lyon at Hal; Mitchell (139) at Waterloo
    146: [WT], 147: [QB, WT],  # Lambert's own brigade at Waterloo only; Best at both
    130: [WT],  # 1.3.0, rule B1: Ompteda's brigade rejoined Alten only on the 17th (HOU)
    169: [QB, WT],  # Stevenart (2 NL, QB) & Lux (3 NL)
    170: [QB, WT],  # Bijleveld (2 NL, QB) & Petter
    164: [QB, WT],  # 1.3.0, rule B1: Kuhlmann's battery fought at Quatre Bras (SCH, NO)
    67: [QB, WT], 68: [LI, WT], 49: [LI, WT], 50: [LI, WT], 51: [LI, WT], 52: [LI, WT],
    53: [LI, WT], 54: [LI, WT], 77: [LI, WT], 78: [LI, WT], 79: [LI, WT],  # the Guard
    70: [WT],  # Grande Batterie
    162: [QB, WT],  # van Merlen engaged at Quatre Bras
    # 1.2.0, rule B1 (the unit that fought): Brause's 7th Brigade detached to Maransart on the
    # 18th (VU-II); the 8th (Leib) marched off from Wavre with Borcke (CW, DP).
    224: [LI], 225: [LI], 226: [LI], 230: [LI],
}


def test_every_troop_card_fought_where_its_formation_did(data):
    for card in data["cards"]:
        if card["type"] not in ("infantry", "cavalry", "artillery"):
            continue
        army, corps, division = card["army"], card["ob_corps"], card["ob_division"]
        want = BATTLES_BY_CARD.get(card["number"]) if card["number"] in BATTLES_BY_CARD else (
            BATTLES_BY_FORMATION.get((army, corps, division),
                                     BATTLES_BY_FORMATION.get((army, corps))))
        assert want is not None, f"#{card['number']} {army} {corps}/{division}: no rule"
        assert card["battles"] == want, card["number"]


def test_formation_rule_catches_the_1_0_0_battery(v1_0):
    old = copy.deepcopy(v1_0)
    old["cards"][129]["battles"] = ["waterloo"]  # Ompteda (#130) and #164 (1.3.0) would fail
    old["cards"][163]["battles"] = ["quatre-bras", "waterloo"]  # first otherwise
    with pytest.raises(AssertionError, match="169"):
        test_every_troop_card_fought_where_its_formation_did(old)
    with pytest.raises(AssertionError, match="130"):
        test_every_troop_card_fought_where_its_formation_did(v1_0)


def _readme_pool_table() -> dict[tuple[str, str], dict[str, int]]:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Historical pools and the Quatre Bras sample game")
    table = {}
    for line in text[start:text.index("\n## ", start + 1)].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 10 and cells[2].isdigit():
            army, battle = cells[0].lower(), cells[1].lower().replace(" ", "-")
            art, horse = cells[4].replace(")", "").split(" (")
            table[(army, battle)] = {
                "general": int(cells[2]), "infantry": int(cells[3]), "artillery": int(art),
                "horse": int(horse), "cavalry": int(cells[5]), "terrain": int(cells[6]),
                "special": int(cells[7]), "total": int(cells[8])}
    return table


def test_historical_pools_are_what_the_readme_says(data):
    table = _readme_pool_table()
    assert set(table) == set(fought(data))
    for (army, battle), counts in table.items():
        assert pool_counts(data, army, battle) == counts, (army, battle)


def _s1(data: dict, army: str, battle: str) -> int:
    n = sum(1 for c in pool(data, army, battle) if c["type"] != "special")
    return int(n / 4 + 0.5)


def test_rule_s1_specials_per_pool(data, v1_0):
    for army, battle in fought(data):
        assert pool_counts(data, army, battle)["special"] == _s1(data, army, battle), (
            army, battle)
    assert pool_counts(v1_0, "french", "quatre-bras")["special"] == 12  # the 1.0.0 excess


def test_rule_s1_specials_share_within_the_sample_band(data, v1_0):
    """18-23 % specials, as in the Quatre Bras sample game (6/33 and 6/26, reference §3)."""
    low, high = 6 / 33, 6 / 26
    for army, battle in fought(data):
        counts = pool_counts(data, army, battle)
        assert low - 0.005 <= counts["special"] / counts["total"] <= high + 0.005, (army, battle)
    old = pool_counts(v1_0, "prussian", "wavre")
    assert old["special"] / old["total"] > high


def test_every_special_keeps_a_battle_and_13_0_at_waterloo(data):
    for card in data["cards"]:
        if card["type"] == "special":
            assert card["battles"], card["number"]
            if card["army"] == "prussian" and "waterloo" in card["battles"]:
                assert {"prussians_arrived", "own_nationals_only"} <= set(
                    card["special_restrictions"]), card["number"]


def test_quatre_bras_pools_against_the_sample_game(data):
    """Reference §3: the French non-special cards match the sample exactly; the British
    generals, cavalry, horse artillery and terrain match, and the README explains the rest
    (14 brigades fought there, Stevenart's battery, rule S1)."""
    french = pool_counts(data, "french", "quatre-bras")
    for key in ("general", "infantry", "artillery", "horse", "cavalry", "terrain"):
        assert french[key] == SAMPLE_QB["french"][key], key
    british = pool_counts(data, "british", "quatre-bras")
    for key in ("general", "horse", "cavalry", "terrain"):
        assert british[key] == SAMPLE_QB["british"][key], key
    assert (british["infantry"], british["artillery"], british["special"]) == (13, 6, 8)
    assert all(b in BATTLES for c in data["cards"] for b in c["battles"])


# --- issue 29: the catalogue against better sources (version 1.2.0) ------------------------

# sha256 of the committed 1.1.0 file (git show 5556b25:cards/data/catalogue.json).
V1_1_SHA256 = "c7f84010dd44ac3a8faededaa9e10d25d7165b3ecbc6bcaaddf9f782791ce65e"


def test_corrections_table_rebuilds_1_1_0_byte_for_byte(v1_1):
    """The README's 1.2.0 table lists every change: undoing it gives back the 1.1.0 file."""
    text = corrections.dumps(v1_1)
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == V1_1_SHA256
    assert validate_catalogue(v1_1) == []


def test_rebuild_walks_back_through_every_version(data, v1_2, v1_1, v1_0):
    assert corrections.rebuild(data, "1.2.0+2026-11-27") == v1_2
    assert corrections.rebuild(data, "1.1.0+2026-11-24") == v1_1
    assert corrections.rebuild(data, PREVIOUS) == v1_0
    assert corrections.rebuild(data, data["version"]) is data
    with pytest.raises(ValueError, match="newer"):
        corrections.rebuild(v1_0, "1.1.0+2026-11-24")


def test_1_2_0_never_renumbers_and_recomputes_bp(v1_2, v1_1):
    assert [(c["number"], c["army"], c["type"]) for c in v1_2["cards"]] == [
        (c["number"], c["army"], c["type"]) for c in v1_1["cards"]]
    changed = {row["card"] for row in corrections.rows("1.2.0")}
    for card in v1_2["cards"]:
        assert card["bp"] == bp_formula(card), card["number"]
        if card["number"] not in changed:
            assert card == v1_1["cards"][card["number"] - 1], card["number"]


def test_militia_rule_grades_every_netherlands_and_hanoverian_brigade(data):
    """README "Militia grades by battalion": every Netherlands (and Nassau, in a Netherlands
    division) and Hanoverian infantry brigade card is listed by battalion, and its morale is
    what the rule gives, except where the sources disagree (kept as our reading)."""
    brigades = {c["number"] for c in data["cards"] if c["type"] == "infantry"
                and c["nationality"] in ("netherlands", "hanoverian")}
    brigades |= {c["number"] for c in data["cards"] if c["type"] == "infantry"
                 and "NL" in (c["ob_division"] or "")}
    assert brigades == set(militia.BATTALIONS)
    for number in brigades:
        card = data["cards"][number - 1]
        want = militia.KEPT_AS_OUR_READING.get(number, militia.militia_grade(number))
        assert card["morale"] == want, (number, card["name"])
        if number in militia.KEPT_AS_OUR_READING:
            assert "our reading" in card["source"], number


@pytest.mark.parametrize(("number", "share", "grade"), [
    (131, (0, 6), "c"), (132, (3, 5), "d"), (133, (0, 5), "c"), (134, (4, 6), "d"),
    (135, (2, 6), "c"), (138, (4, 4), "d"), (141, (3, 5), "d"), (142, (3, 6), "d"),
    (145, (4, 4), "d"), (147, (4, 4), "d")])
def test_militia_rule_share_per_brigade(number, share, grade):
    assert militia.militia_share(number) == share
    assert militia.militia_grade(number) == grade


def test_detmers_brigade_is_militia_heavy(data, v1_1):
    """#134: four of six battalions militia (SR-M, SR-J, JF): D, and its BP follow (15.0)."""
    card = by_name(data, "Detmers' Brigade (35th Jägers)")
    assert card["number"] == 134
    assert (card["morale"], card["bp"]) == ("d", 10) == (card["morale"], bp_formula(card))
    assert "M-NL-MILITIA" in card["source"]
    assert (v1_1["cards"][133]["morale"], v1_1["cards"][133]["bp"]) == ("c", 11)
    assert validate_catalogue(data) == []


def test_bijlandt_brigade_three_of_five_militia(data, v1_1):
    """#132 stays D (3 of 5 is militia-heavy), but its source no longer says four of five."""
    card = by_name(data, "Bijlandt's Brigade (7th Line)")
    assert card["morale"] == "d" and militia.militia_share(132) == (3, 5)
    assert "three of five" in card["source"]
    assert "four of five" in v1_1["cards"][131]["source"]


def test_daubreme_brigade_kept_d_as_our_reading(data):
    """#135: the rule would give C on our line battalions, but a source disagrees on them."""
    card = by_name(data, "d'Aubremé's Brigade (36th Jägers)")
    assert militia.militia_grade(135) == "c" and card["morale"] == "d"
    assert "our reading" in card["source"]


def test_hauw_brigade_half_militia_is_d(data):
    card = by_name(data, "Hauw's Brigade (Netherlands Militia)")
    assert militia.militia_share(142) == (3, 6) and card["morale"] == "d"


def _artillery_table() -> dict[int, list[str]]:
    text = README.read_text(encoding="utf-8")
    start = text.index("## Artillery batteries against two sources")
    out = {}
    for line in text[start:text.index("\n## ", start + 1)].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0].isdigit():
            out[int(cells[0])] = cells
    return out


def test_every_artillery_card_checked_against_two_sources_or_kept_as_our_reading(data):
    """README "Artillery batteries against two sources": every artillery card has a row whose
    guns and batteries are the card's; a row with fewer than two sources keeps the value as
    our reading, and only the two fixed cards differ from 1.1.0."""
    table = _artillery_table()
    artillery = {c["number"]: c for c in data["cards"] if c["type"] == "artillery"}
    assert set(table) == set(artillery)
    verdicts = Counter()
    for number, (_n, name, guns, first, second, verdict) in table.items():
        card = artillery[number]
        assert name == card["name"], number
        assert guns.startswith(f"{card['guns']} ({card['guns'] // battery_guns(card)})"), number
        assert first and verdict, number
        kind = ("fixed" if verdict.startswith("**fixed**") else
                "agree" if verdict.startswith("agree") else
                "ours" if verdict.startswith("our reading") else None)
        assert kind, (number, verdict)
        if second == "—":
            assert kind == "ours", number
        verdicts[kind] += 1
    assert verdicts == {"agree": 18, "fixed": 2, "ours": 17}  # 1.3.0: #264 agrees (EW-P)
    fixed = {n for n, row in table.items() if row[5].startswith("**fixed**")}
    assert fixed == {76, 269}
    rows = {r["card"] for r in corrections.rows("1.2.0") if r["field"] == "guns"}
    assert rows == fixed


def test_vi_corps_foot_artillery_three_batteries_at_waterloo(data, v1_1):
    """#76: RF counts four foot batteries in VI Corps with Teste's, and WV puts Teste's
    division and battery with Grouchy: 3 × 8 guns at Waterloo, cv 3 (17.1), bp by 15.0."""
    card = by_name(data, "VI Corps Foot Artillery (Lobau)")
    assert card["number"] == 76 and card["battles"] == ["waterloo"]
    assert (card["guns"], card["cv"], card["bp"]) == (24, 3, 10)
    assert (card["cv"], card["bp"]) == (cv_from_strength(card), bp_formula(card))
    assert v1_1["cards"][75]["guns"] == 32


def test_iii_corps_horse_artillery_holds_the_sixth_battery(data, v1_1):
    """#269: Thielmann's corps had 48 guns (WW), six 8-gun batteries (NS-P); 1.1.0 held 40."""
    card = by_name(data, "III Corps Horse Artillery (Thielmann)")
    assert card["number"] == 269 and card["artillery_kind"] == "horse"
    assert (card["guns"], card["cv"], card["bp"]) == (24, 3, 10) == (
        card["guns"], cv_from_strength(card), bp_formula(card))
    corps = [c for c in data["cards"] if c["type"] == "artillery" and c["army"] == "prussian"
             and c["ob_corps"] == "III"]
    assert sum(c["guns"] for c in corps) == 48
    assert sum(c["guns"] for c in v1_1["cards"] if c["type"] == "artillery"
               and c["army"] == "prussian" and c["ob_corps"] == "III") == 40


def test_brause_7th_brigade_detached_to_maransart_not_at_waterloo(data, v1_1):
    """Rule B1: the II Corps report (VU-II) detached the 7th Brigade to Maransart to cover the
    flank; its three regiments were at Ligny only."""
    for number in (224, 225, 226):
        card = data["cards"][number - 1]
        assert (card["ob_corps"], card["ob_division"]) == ("II", "7"), number
        assert card["battles"] == ["ligny"], number
        assert v1_1["cards"][number - 1]["battles"] == ["ligny", "waterloo"], number
    for number in range(218, 224):  # the 5th and 6th Brigades stay (B1; 6th: our reading)
        assert data["cards"][number - 1]["battles"] == ["ligny", "waterloo"], number


def test_leib_regiment_marched_off_from_wavre_and_borckes_two_battalions_stay(data, v1_1):
    """Rule B1 at Wavre: Borcke's 9th Brigade marched off (CW) but left the 3rd battalions of
    the 30th and the 1st Kurmark Landwehr in the town (DP): a battalion fought, so they stay."""
    leib = by_name(data, "8th (Leib) Infantry Regiment")
    assert (leib["number"], leib["battles"]) == (230, ["ligny"])
    assert v1_1["cards"][229]["battles"] == ["ligny", "wavre"]
    for name in ("30th Infantry Regiment", "1st Kurmark Landwehr"):
        assert by_name(data, name)["battles"] == ["ligny", "wavre"], name


def test_rule_b2_present_only_cards_kept_for_the_quatre_bras_sample(data):
    """Rule B2: Uxbridge, the Guard light cavalry and Roussel d'Hurbal were present at Quatre
    Bras but not engaged; they stay only because the sample game's deck counts them (J2)."""
    for number in (64, 67, 112):
        assert "quatre-bras" in data["cards"][number - 1]["battles"], number
    french = pool_counts(data, "french", "quatre-bras")
    british = pool_counts(data, "british", "quatre-bras")
    assert french["cavalry"] == SAMPLE_QB["french"]["cavalry"] == 4
    assert british["general"] == SAMPLE_QB["british"]["general"] == 8
    engaged = [c for c in pool(data, "french", "quatre-bras")
               if c["type"] == "cavalry" and c["number"] not in (64, 67)]
    assert len(engaged) == 2  # without B2 the pool would fall short of the sample


def test_rule_s1_moves_one_special_from_each_smaller_prussian_pool(data, v1_1):
    """The Prussian Waterloo and Wavre pools lose 3 and 1 regiments (B1), so rule S1 gives
    them 14 and 4 specials: Bildet Karree! keeps Ligny only, Uhlan Patrols leaves Wavre."""
    assert by_name(data, "Bildet Karree!")["battles"] == ["ligny"]
    assert by_name(data, "Uhlan Patrols")["battles"] == ["ligny", "waterloo"]
    for battle, before, after in (("waterloo", 74, 70), ("wavre", 23, 21)):
        assert pool_counts(v1_1, "prussian", battle)["total"] == before
        assert pool_counts(data, "prussian", battle)["total"] == after
        assert pool_counts(data, "prussian", battle)["special"] == _s1(data, "prussian", battle)
        hist = historical(data, "prussian", battle)
        assert len(hist) >= BATTLE_DECK[battle]["prussian"], battle


# --- issue 29: every card's battles against its unit's part (version 1.3.0) ----------------

# sha256 of the committed 1.2.0 file (git show d785959:cards/data/catalogue.json).
V1_2_SHA256 = "850934413c707048852594a64cb11f8f00460511fbe587594bc4a647938cba4a"


def test_corrections_table_rebuilds_1_2_0_byte_for_byte(v1_2):
    """The README's 1.3.0 table lists every change: undoing it gives back the 1.2.0 file."""
    text = corrections.dumps(v1_2)
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == V1_2_SHA256
    assert validate_catalogue(v1_2) == []


def test_1_3_0_changes_only_battles_and_never_renumbers(data, v1_2):
    changed = {row["card"] for row in corrections.rows("1.3.0")}
    assert {row["field"] for row in corrections.rows("1.3.0")} == {"battles"}
    for card, old in zip(data["cards"], v1_2["cards"], strict=True):
        assert (card["number"], card["army"], card["type"]) == (
            old["number"], old["army"], old["type"])
        if card["number"] not in changed:
            assert card == old, card["number"]


def test_ompteda_brigade_rejoined_on_the_17th_not_at_quatre_bras(data, v1_2):
    """Rule B1: Houssaye (HOU) has Ompteda's KGL brigade set out to rejoin Alten only on the
    morning of the 17th, with Clinton's and Colville's divisions: not engaged at Quatre Bras.
    Alten's other two brigades fought there and stay."""
    ompteda = by_name(data, "Ompteda's Brigade (2nd Light Bn KGL)")
    assert (ompteda["number"], ompteda["battles"]) == (130, ["waterloo"])
    assert v1_2["cards"][129]["battles"] == ["quatre-bras", "waterloo"]
    for number in (129, 131):  # C. Halkett, Kielmansegge
        assert data["cards"][number - 1]["battles"] == ["quatre-bras", "waterloo"], number
    before = pool_counts(v1_2, "british", "quatre-bras")
    after = pool_counts(data, "british", "quatre-bras")
    assert (before["infantry"], after["infantry"]) == (14, 13)


def test_kuhlmann_battery_fought_at_quatre_bras_so_1st_division_artillery_lists_it(data, v1_2):
    """Rule B1, one battery of a pair: Kuhlmann's KGL horse battery came up with the Guards and
    fired at Quatre Bras until dark (NO, after Siborne), one of the two Legion batteries there
    (SCH). 1.1.0 had kept #164 at Waterloo only for want of such a source."""
    card = data["cards"][163]
    assert (card["name"], card["battles"]) == (
        "1st Division Artillery (Sandham & Kuhlmann)", ["quatre-bras", "waterloo"])
    assert v1_2["cards"][163]["battles"] == ["waterloo"]
    before = pool_counts(v1_2, "british", "quatre-bras")
    after = pool_counts(data, "british", "quatre-bras")
    assert (before["artillery"], after["artillery"]) == (5, 6)
    assert after["horse"] == before["horse"] == SAMPLE_QB["british"]["horse"]  # a foot card


def test_1_3_0_british_quatre_bras_pool_keeps_rule_s1_and_its_deck_size(data, v1_2):
    """One card out (#130), one in (#164): 32 non-special cards before and after, so rule S1
    still gives 8 specials, and the historical deck still exceeds the Battle Deck size."""
    before = pool_counts(v1_2, "british", "quatre-bras")
    after = pool_counts(data, "british", "quatre-bras")
    assert before["total"] == after["total"] == 40
    assert after["special"] == before["special"] == _s1(data, "british", "quatre-bras") == 8
    assert len(historical(data, "british", "quatre-bras")) >= BATTLE_DECK["quatre-bras"]["british"]


def test_prussian_horse_batteries_against_ehmke_and_wagner(data):
    """Artillery, second sources (1.3.0): EW-P names three horse batteries for each of I, II
    and III Corps. #264 (24 = 3 x 8) and #269 agree; #267 holds two, so EW-P disagrees and,
    one source against the card not being two, the card keeps 16 as our reading."""
    table = _artillery_table()
    for number, guns in ((264, 24), (269, 24), (267, 16)):
        assert data["cards"][number - 1]["guns"] == guns, number
        assert "EW-P" in table[number][4] or "EW-P" in table[number][5], number
    assert table[264][5].startswith("agree")
    assert table[267][5].startswith("our reading") and "disagrees" in table[267][5]


def _last_artillery_pass() -> dict[int, str]:
    """README "Second sources sought after 1.3.0": card number -> its bullet's text."""
    text = README.read_text(encoding="utf-8")
    start = text.index("### Second sources sought after 1.3.0")
    section = text[start:text.index("\n## ", start)]
    bullets = re.split(r"\n- ", section.split("\n\n", 2)[2].split("\n\n|")[0])
    out: dict[int, str] = {}
    for bullet in (" ".join(b.split()) for b in bullets):
        head, _, _rest = bullet.partition(" — searched:")
        assert _rest, bullet[:60]
        for number in re.findall(r"#(\d+)", head):
            out[int(number)] = bullet
    return out


def test_last_artillery_pass_searched_every_card_kept_as_our_reading(data):
    """Issue 29, "name them": every artillery card still kept as our reading, #267 and
    d'Aubremé's brigade (#135) have a bullet giving the queries run and the result. None found
    a second source, so no card changed and the catalogue stays 1.3.0 (no 1.3.1 published)."""
    table = _artillery_table()
    ours = {n for n, row in table.items() if row[5].startswith("our reading")}
    log = _last_artillery_pass()
    assert set(log) == ours | {135}
    assert 267 in ours
    for number, bullet in log.items():
        assert "no second source in the stored pages" in bullet.lower(), number
    assert data["version"] == corrections.VERSIONS[-1] == "1.3.0+2026-11-27"


def test_daubreme_militia_rule_not_applied_without_a_second_battalion_list(data):
    """#135: SR-M's two militia battalions are the only list; no second source names the
    brigade whole, so the rule (C) is not applied and D stays our reading."""
    bullet = _last_artillery_pass()[135]
    assert "SR-M" in bullet and "D is kept as our reading" in bullet
    assert data["cards"][134]["morale"] == militia.KEPT_AS_OUR_READING[135] == "d"
    assert militia.militia_grade(135) == "c"
