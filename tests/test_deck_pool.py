"""Dealt decks (2.0) and their pools; custom decks (15.0) on the real catalogue. Pure, no Django."""

import json
from pathlib import Path

from decks.rules import Deck, DeckEntry, dealable, validate, validate_pool

CATALOGUE = json.loads((Path(__file__).parents[1] / "cards/data/catalogue.json").read_text())
CARDS = {card["number"]: card for card in CATALOGUE["cards"]}


def army_cards(battle, army, historical=False):
    return sorted(n for n, c in CARDS.items() if dealable(c, battle, army, historical))


def test_2_0_whole_set_pool_can_deal_every_army_of_every_battle():
    for battle, army in (("quatre-bras", "french"), ("waterloo", "prussian"), ("ligny", "french")):
        for historical in (False, True):
            result = validate_pool(Deck(battle, army, "dealt", 1, historical=historical,
                                        pool="set"), CARDS)
            assert result.valid, result.problems
            assert result.pool_size >= result.required_size
            assert result.pool_size == len(army_cards(battle, army, historical))


def test_2_0_collection_pool_too_small_names_what_it_has_and_needs():
    owned = {n: 3 for n in army_cards("quatre-bras", "french")[:10]}  # copies count once
    result = validate_pool(Deck("quatre-bras", "french", "dealt", 1), CARDS, owned)
    assert not result.valid
    assert [p.code for p in result.problems] == ["pool_too_small"]
    assert "has 10 distinct" in result.problems[0].message
    assert "needs 14 (4 more)" in result.problems[0].message
    assert (result.pool_size, result.required_size, result.muster) == (10, 14, 10)


def test_2_0_collection_pool_scaled_needs_d_times_scale():
    owned = {n: 1 for n in army_cards("quatre-bras", "french")[:7]}
    assert validate_pool(Deck("quatre-bras", "french", "dealt", "1/2"), CARDS, owned).valid
    assert not validate_pool(Deck("quatre-bras", "french", "dealt", 1), CARDS, owned).valid


def test_2_0_collection_pool_ignores_other_armies_and_other_battles_terrain():
    british = [n for n, c in CARDS.items() if c["army"] == "british"]
    other_terrain = [n for n, c in CARDS.items() if c["army"] == "french"
                     and c["type"] == "terrain" and c.get("terrain_battle") != "quatre-bras"]
    assert other_terrain
    owned = {n: 1 for n in british + other_terrain}
    result = validate_pool(Deck("quatre-bras", "french", "dealt", 1), CARDS, owned)
    assert result.pool_size == 0
    assert [p.code for p in result.problems] == ["pool_too_small"]  # silently left out


def test_2_0_historical_pool_counts_only_cards_that_fought():
    absent = [n for n in army_cards("quatre-bras", "french")
              if "quatre-bras" not in CARDS[n]["battles"]]
    owned = {n: 1 for n in absent}
    deck = Deck("quatre-bras", "french", "dealt", 1, historical=True)
    assert validate_pool(deck, CARDS, owned).pool_size == 0


def test_2_0_listed_pool_reports_cards_never_dealt_as_warnings():
    terrain = next(n for n, c in CARDS.items() if c["army"] == "french"
                   and c["type"] == "terrain" and c.get("terrain_battle") == "ligny")
    listed = {n: 2 for n in army_cards("quatre-bras", "french")[:14]} | {terrain: 1}
    result = validate_pool(Deck("quatre-bras", "french", "dealt", 1), CARDS, listed,
                           listed=True)
    assert result.valid
    assert [(p.code, p.severity) for p in result.problems] == [("never_dealt", "warning")]
    assert "never dealt at Quatre Bras" in result.problems[0].message


def test_2_0_listed_pool_of_another_army_or_unknown_card_is_an_error():
    british = next(n for n, c in CARDS.items() if c["army"] == "british")
    listed = {n: 1 for n in army_cards("quatre-bras", "french")[:14]} | {british: 1, 9999: 1}
    result = validate_pool(Deck("quatre-bras", "french", "dealt", 1), CARDS, listed,
                           listed=True)
    assert {p.code for p in result.problems} == {"wrong_army", "unknown_card"}
    assert not result.valid


def test_2_0_pool_request_problems_and_unknown_pool():
    result = validate_pool(Deck("ligny", "british", "dealt", 1, pool="friends"), CARDS)
    assert {"army_not_in_battle", "unknown_kind"} <= {p.code for p in result.problems}
    bad = validate_pool(Deck("waterloo", "french", "dealt", "1/5", pool="set"), CARDS)
    assert [p.code for p in bad.problems] == ["bad_scale"]


# --- 15.0 custom decks, on the real catalogue ------------------------------------------------

def _hand_picked_quatre_bras_french():
    """The 14 dearest French cards that Quatre Bras can deal: far over BP 130."""
    pool = army_cards("quatre-bras", "french")
    generals = [n for n in pool if CARDS[n]["type"] == "general"][:1]
    rest = sorted((n for n in pool if CARDS[n]["type"] not in ("general", "terrain")),
                  key=lambda n: -(CARDS[n]["bp"] or 0))[:13]
    return [DeckEntry(n) for n in generals + rest]


def test_15_0_hand_picked_quatre_bras_french_over_130_bp_is_bp_exceeded():
    deck = Deck("quatre-bras", "french", "custom", 1, _hand_picked_quatre_bras_french())
    result = validate(deck, CARDS)
    assert result.bp_limit == 130 and result.bp_total > 130
    assert [p.code for p in result.problems] == ["bp_exceeded"]
    assert f"total {result.bp_total} BP" in result.problems[0].message


def test_15_0_bp_limit_scales_and_rounds_down():
    deck = Deck("quatre-bras", "british", "custom", "1/3", [])
    assert validate(deck, CARDS).bp_limit == 53  # 160 / 3 = 53.3


def test_15_0_copies_across_printings_generals_and_terrain():
    pool = army_cards("waterloo", "french")
    general = next(n for n in pool if CARDS[n]["type"] == "general")
    terrain = next(n for n in pool if CARDS[n]["type"] == "terrain")
    troop = next(n for n in pool if CARDS[n]["type"] == "infantry")
    deck = Deck("waterloo", "french", "custom", 4, [
        DeckEntry(troop, 2, "gold"), DeckEntry(troop, 2, "bronze"),
        DeckEntry(general, 1, "gold"), DeckEntry(general, 1, "silver"), DeckEntry(terrain, 2)])
    assert {p.code for p in validate(deck, CARDS).problems} == {
        "too_many_copies", "duplicate_general", "duplicate_terrain"}
    three = Deck("waterloo", "french", "custom", 4, [DeckEntry(troop, 3)])
    assert validate(three, CARDS).valid
