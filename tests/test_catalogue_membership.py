"""Battle membership checked card by card (cards/data/membership.py, README "Battle membership,
every card"): plain pytest, no database."""

import copy
import json
from pathlib import Path

import pytest

from cards.data import membership
from cards.data.membership import (
    ABSENT,
    B1,
    B2,
    BATTLES,
    ENGAGED,
    OUR,
    POOL,
    PRESENT,
    S1,
    TERRAIN,
    Verdict,
)

DATA_FILE = Path(__file__).resolve().parents[1] / "cards" / "data" / "catalogue.json"
README = DATA_FILE.parent / "README.md"


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads(DATA_FILE.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def rows() -> list[membership.Row]:
    return membership.rows()


def test_every_card_has_one_verdict_for_every_battle(data, rows):
    seen = [(r.card, r.battle) for r in rows]
    assert len(seen) == len(set(seen)), "a card and battle with two verdicts"
    assert set(seen) == {(c["number"], b) for c in data["cards"] for b in BATTLES}


def test_every_verdict_is_of_the_vocabulary_and_names_a_source(rows):
    for r in rows:
        assert r.verdict in (ENGAGED, PRESENT, ABSENT, POOL), r
        assert r.basis in (B1, B2, OUR, S1, TERRAIN), r
        assert r.sources and all(r.sources), r
        assert r.unit, r


def test_units_are_troops_and_generals_pools_are_specials_and_terrain(data, rows):
    """Rule B1 speaks of units; specials follow S1 and terrain its battle (README)."""
    kind = {c["number"]: c["type"] for c in data["cards"]}
    for r in rows:
        if kind[r.card] == "special":
            assert r.basis == S1 and r.verdict in (POOL, ABSENT), r
        elif kind[r.card] == "terrain":
            assert r.basis == TERRAIN and r.verdict in (POOL, ABSENT), r
        else:
            assert r.basis in (B1, B2, OUR) and r.verdict != POOL, r


def test_every_listed_battle_is_backed_by_engaged_b2_or_our_reading(data, rows):
    verdicts = {(r.card, r.battle): r for r in rows}
    for card in data["cards"]:
        for battle in card["battles"]:
            r = verdicts[(card["number"], battle)]
            assert (r.verdict in (ENGAGED, POOL) or r.basis in (B2, OUR)), r
            assert r.verdict != ABSENT, r


def test_catalogue_battles_agree_with_the_table(data):
    assert membership.disagreements(data) == []


def test_table_catches_a_card_listed_where_its_unit_was_absent(data):
    broken = copy.deepcopy(data)
    broken["cards"][29]["battles"] = ["ligny", "waterloo"]  # Piat's brigade (Girard's, Ligny only)
    assert membership.disagreements(broken) == [(30, ["ligny", "waterloo"], ["ligny"])]


def test_lists_keeps_engaged_pool_b2_and_our_reading_only():
    assert membership.lists(Verdict(ENGAGED, B1, ("x",)))
    assert membership.lists(Verdict(ENGAGED, OUR, ("x",)))
    assert membership.lists(Verdict(POOL, S1, ("x",)))
    assert membership.lists(Verdict(PRESENT, B2, ("x",)))
    assert membership.lists(Verdict(PRESENT, OUR, ("x",)))
    assert not membership.lists(Verdict(PRESENT, B1, ("x",)))
    assert not membership.lists(Verdict(ABSENT, B1, ("x",)))


def test_rule_b2_is_used_only_for_the_quatre_bras_sample_cards(rows):
    b2 = {(r.card, r.battle) for r in rows if r.basis == B2}
    assert b2 == {(64, "quatre-bras"), (67, "quatre-bras"), (112, "quatre-bras")}


def test_terrain_rows_follow_the_card_terrain_battle(data, rows):
    terrain = {c["number"]: c["terrain_battle"] for c in data["cards"] if c["type"] == "terrain"}
    for r in rows:
        if r.card in terrain:
            assert (r.verdict == POOL) == (r.battle == terrain[r.card]), r


def test_every_source_key_is_named_in_the_readme_or_the_reference(rows):
    text = README.read_text(encoding="utf-8")
    reference = (Path(__file__).resolve().parents[1] / ".." / "shared" / "reference" /
                 "order-of-battle.md")
    ref = reference.read_text(encoding="utf-8") if reference.exists() else ""
    keys = {k for r in rows for k in r.sources} - {"§3", "§4", "README", "bk"}
    for key in sorted(keys):
        assert f"| {key} |" in text or f"| {key} |" in ref or f"{key}," in text, key


def test_ompteda_absent_at_quatre_bras_by_houssaye_and_schwertfeger(rows):
    r = next(r for r in rows if (r.card, r.battle) == (130, "quatre-bras"))
    assert (r.verdict, r.basis, r.sources) == (ABSENT, B1, ("HOU", "SCH"))


def test_kuhlmann_battery_engaged_at_quatre_bras(rows):
    r = next(r for r in rows if (r.card, r.battle) == (164, "quatre-bras"))
    assert (r.verdict, r.basis, r.sources) == (ENGAGED, B1, ("SCH", "NO"))


def test_zieten_2nd_to_4th_brigades_kept_at_waterloo_as_our_reading(rows):
    """Sources disagree (CT-P and LWH name only Steinmetz's brigade; QN has 13,000 of Zieten's
    men break in), so the eight regiments keep Waterloo as our reading."""
    for number in range(210, 218):
        r = next(r for r in rows if (r.card, r.battle) == (number, "waterloo"))
        assert (r.verdict, r.basis) == (PRESENT, OUR), number
        assert {"CT-P", "LWH", "QN"} <= set(r.sources)


def test_durutte_present_not_engaged_at_ligny(data, rows):
    for number in (21, 22, 55):
        r = next(r for r in rows if (r.card, r.battle) == (number, "ligny"))
        assert (r.verdict, r.basis) == (PRESENT, B1), number
        assert "ligny" not in data["cards"][number - 1]["battles"]
