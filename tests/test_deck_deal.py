"""Dealing a Battle Deck from a named pool (2.0), the pure core decks/rules/deal.py."""

import json
import random
from pathlib import Path

import pytest

from decks.rules.deal import deal, pool_cards

RECORDS = {c["number"]: c for c in json.loads(
    (Path(__file__).parent.parent / "cards/data/catalogue.json").read_text())["cards"]}


def test_2_0_deal_is_face_down_from_the_named_pool():
    owned = [n for n, c in RECORDS.items() if c["army"] == "french"][:30] + [2000, 2000]
    pool = pool_cards(RECORDS, "waterloo", "french", owned + [n for n in RECORDS
                                                               if RECORDS[n]["army"] != "french"])
    assert pool and set(pool) <= set(owned) and pool == sorted(set(pool))
    dealt = deal(pool, 18, random.Random("s"))
    assert len(dealt) == len(set(dealt)) == 18 and set(dealt) <= set(pool)  # 2.0 no duplicates
    whole = pool_cards(RECORDS, "waterloo", "french")
    assert set(pool) < set(whole) and all(RECORDS[n]["army"] == "french" for n in whole)
    with pytest.raises(ValueError, match="cannot deal 31 cards from a pool of 30"):
        deal(list(range(30)) * 2, 31, random.Random(1))


def test_2_0_terrain_always_historical_in_a_deal():
    for historical in (False, True):
        pool = pool_cards(RECORDS, "ligny", "prussian", historical=historical)
        terrain = [n for n in pool if RECORDS[n]["type"] == "terrain"]
        assert terrain and all(RECORDS[n]["terrain_battle"] == "ligny" for n in terrain)
    every = pool_cards(RECORDS, "ligny", "prussian")
    hist = pool_cards(RECORDS, "ligny", "prussian", historical=True)
    assert set(hist) < set(every)
    assert all("ligny" in RECORDS[n]["battles"] for n in hist if RECORDS[n]["type"] != "terrain")
    assert any("ligny" not in (RECORDS[n]["battles"] or ()) for n in every)


def test_2_0_deal_is_reproducible_from_the_seed():
    pool = pool_cards(RECORDS, "waterloo", "british")
    first = deal(pool, 36, random.Random("123:deal:british"))
    assert deal(reversed(pool), 36, random.Random("123:deal:british")) == first
    assert deal(pool, 36, random.Random("124:deal:british")) != first
    # Uniform: every card of the pool turns up in some deal of a few.
    seen = set()
    for i in range(60):
        seen |= set(deal(pool, 36, random.Random(i)))
    assert seen == set(pool)
