"""Random campaigns (small collections, a turn cap): every card in one place at every step,
no hidden card in the other side's view, save/restore changes nothing, every campaign ends."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles.campaign import (
    apply,
    from_json,
    legal_actions,
    new_campaign,
    places,
    to_json,
    to_move,
    view,
)
from battles.engine import SeededDice

from .helpers import TABLE, small_pools

PROP = settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))


def step(c, rng, i, seed):
    tm = to_move(c)
    legal = legal_actions(c, tm["side"])
    a = legal[rng.randrange(len(legal))]
    apply(c, a, SeededDice(f"{seed}:{i}"))
    return tm["side"]


def no_leak(c):
    for side, other in (("french", "allied"), ("allied", "french")):
        v = view(c, side)
        assert "cards" not in v["pools"][other] and "cards" not in v["set_aside"][other]
        for b in v["boards"].values():
            assert "cards" not in b["reserves"][other]
            assert all("card" not in p for p in b["pieces"] if p["side"] == other
                       and not p["face_up"])
        assert all("decks" not in h for h in v["history"]
                   if h["type"] == "split" and h["side"] == other)
        if v["decision"] and v["decision"]["side"] == other:
            assert "cards" not in v["decision"]


@PROP
@given(st.integers(0, 10_000))
def test_random_campaigns_keep_cards_in_one_place_hide_and_end(seed):
    c = new_campaign(seed, TABLE, small_pools(), {"turn_cap": 3})
    total = len(places(c))
    rng = random.Random(seed)
    for i in range(3000):
        if to_move(c) is None:
            break
        step(c, rng, i, seed)
        assert len(places(c)) == total
        if i % 7 == 0:
            no_leak(c)
    assert c.winner in ("french", "allied")


@PROP
@given(st.integers(0, 10_000), st.integers(5, 200))
def test_save_and_restore_mid_campaign_changes_nothing(seed, cut):
    a = new_campaign(seed, TABLE, small_pools(), {"turn_cap": 3})
    rng = random.Random(seed)
    i = 0
    while to_move(a) is not None and i < cut:
        step(a, rng, i, seed)
        i += 1
    b = from_json(json.loads(json.dumps(to_json(a))), TABLE)
    rng_b = random.Random()
    rng_b.setstate(rng.getstate())
    j = i
    while to_move(a) is not None:
        step(a, rng, i, seed)
        i += 1
    while to_move(b) is not None:
        step(b, rng_b, j, seed)
        j += 1
    assert json.dumps(to_json(a), sort_keys=True) == json.dumps(to_json(b), sort_keys=True)


def test_replays_are_byte_identical():
    docs = []
    for _ in range(2):
        c = new_campaign(5, TABLE, small_pools(), {"turn_cap": 3})
        rng = random.Random(5)
        i = 0
        while to_move(c) is not None:
            step(c, rng, i, 5)
            i += 1
        docs.append(json.dumps(to_json(c), sort_keys=True))
    assert docs[0] == docs[1]


def test_to_json_matches_the_schema():
    from pathlib import Path

    import jsonschema

    schema = json.loads((Path(__file__).resolve().parents[2] / "battles" / "campaign" /
                         "campaign.schema.json").read_text())
    c = new_campaign(2, TABLE, small_pools(), {"turn_cap": 3})
    rng = random.Random(2)
    for i in range(60):
        jsonschema.validate(json.loads(json.dumps(to_json(c))), schema)
        if to_move(c) is None:
            break
        step(c, rng, i, 2)
