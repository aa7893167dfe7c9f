"""view() redaction, events visibility, the JSON position format and replays."""

import json
from pathlib import Path

import jsonschema

from battles.engine import (
    SeededDice,
    apply,
    events_for,
    from_json,
    legal_actions,
    new_battle,
    play_random,
    to_json,
    view,
)
from cards.catalogue.file import catalogue_records

from .helpers import BR_INF, FR_INF, blank, do, put

RECORDS = catalogue_records()  # the card records the engine is given

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "battles" / "engine" /
                     "position.schema.json").read_text())


def test_view_face_down_enemy_cards_show_only_back_and_place():
    st = blank()
    put(st, BR_INF, "allied_center", up=False)
    put(st, FR_INF, "french_center", up=False)
    v = view(st, "french")
    enemy = [p for p in v["pieces"] if p["side"] == "allied"][0]
    mine = [p for p in v["pieces"] if p["side"] == "french"][0]
    assert "card" not in enemy and enemy["army"] == "british" and enemy["place"] == "allied_center"
    assert mine["card"] == FR_INF


def test_view_enemy_reserve_and_decks_only_counts():
    st = new_battle("quatre-bras", 3, cards=RECORDS)
    v = view(st, "french")
    assert "cards" not in v["reserves"]["allied"] and v["reserves"]["allied"]["count"] == 9
    assert v["reserves"]["french"]["cards"] == st.reserve[0]
    assert v["decks"] == {"french": 4, "british": 9}


def test_view_spectator_redacts_both_sides():
    st = new_battle("quatre-bras", 3, cards=RECORDS)
    v = view(st, None)
    assert all("cards" not in r for r in v["reserves"].values())
    text = json.dumps(v)
    for n in st.reserve[0] + st.reserve[1]:
        assert f'"card": {n}' not in text


def test_events_for_hides_private_events():
    st = new_battle("quatre-bras", 3, cards=RECORDS)
    a = [x for x in legal_actions(st, "allied") if x["type"] == "deploy"
         and st.cards[x["card"]].troop][0]
    ev = apply(st, a, [])
    assert [e for e in events_for(ev, "allied") if e.get("card") == a["card"]]
    assert not [e for e in events_for(ev, "french") if e.get("card") == a["card"]]
    assert not [e for e in events_for(ev, None) if e.get("card") == a["card"]]


def test_position_round_trip_is_exact_and_valid():
    game = play_random("waterloo", 11, record=True, cards=RECORDS)
    st = new_battle("waterloo", 11, cards=RECORDS)
    dice = SeededDice(11)
    for i, a in enumerate(game.actions):
        if i % 37 == 0:
            doc = to_json(st)
            jsonschema.validate(doc, SCHEMA)
            back = from_json(json.loads(json.dumps(doc)), cards=RECORDS)
            assert to_json(back) == doc
            assert legal_actions(back, "french") == legal_actions(st, "french")
            assert legal_actions(back, "allied") == legal_actions(st, "allied")
        apply(st, a, dice)
    jsonschema.validate(to_json(st), SCHEMA)


def test_replay_same_setup_seed_actions_same_events_to_the_byte():
    for battle in ("quatre-bras", "ligny", "wavre", "waterloo"):
        g1 = play_random(battle, 5, record=True, cards=RECORDS)
        g2 = play_random(battle, 5, record=True, cards=RECORDS)
        assert json.dumps(g1.events) == json.dumps(g2.events)
        st = new_battle(battle, 5, cards=RECORDS)
        dice = SeededDice(5)
        replayed = []
        for a in g1.actions:
            replayed.extend(apply(st, a, dice))
        assert json.dumps(replayed) == json.dumps(g1.events)


def test_every_event_has_a_visibility():
    g = play_random("ligny", 2, record=True, cards=RECORDS)
    assert all(e["visibility"] in ("all", "french", "allied") for e in g.events)


def test_actions_and_events_are_json():
    g = play_random("quatre-bras", 2, record=True, cards=RECORDS)
    assert json.loads(json.dumps(g.actions)) == g.actions
    assert json.loads(json.dumps(g.events)) == g.events


def test_apply_rejects_garbage():
    import pytest

    from battles.engine import IllegalAction

    st = blank()
    for bad in (None, {}, {"type": "fire"}, {"type": "warp", "side": "french"}):
        with pytest.raises(IllegalAction):
            do(st, bad)
