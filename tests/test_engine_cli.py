"""`manage.py engine new|legal|apply|view`."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from battles.engine import load_cards
from cards.catalogue.file import catalogue_records

RECORDS = catalogue_records()  # the card records the engine is given

def _call(*args, stdin: str | None = None, monkeypatch=None):
    out = io.StringIO()
    if stdin is not None:
        class _In:
            buffer = io.BytesIO(stdin.encode())
        monkeypatch.setattr("sys.stdin", _In)
    call_command("engine", *args, stdout=out)
    return json.loads(out.getvalue())


@pytest.fixture
def position(tmp_path):
    doc = _call("new", "--battle", "quatre-bras", "--seed", "1")
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(doc))
    return path


def test_new_prints_a_position(position):
    doc = json.loads(position.read_text())
    assert doc["format"] == "eagles-position" and doc["battle"] == "quatre-bras"
    assert doc["phase"] == "deploy"


def test_legal_lists_actions_only_for_the_side_to_play(position):
    acts = _call("legal", str(position), "--side", "allied")
    assert acts and all(a["side"] == "allied" for a in acts)
    assert _call("legal", str(position), "--side", "french") == []


def test_apply_prints_new_position_and_events(position, tmp_path):
    act = _call("legal", str(position), "--side", "allied")[0]
    out = _call("apply", str(position), "--action", json.dumps(act))
    assert {"position", "events"} <= set(out)
    assert out["events"] and out["events"][0]["type"] == "deploy"
    assert len(out["position"]["pieces"]) == 1


def test_view_hides_enemy_cards_and_reads_stdin(position, monkeypatch):

    cards = load_cards(RECORDS)
    act = next(a for a in _call("legal", str(position), "--side", "allied")
               if a["type"] == "deploy" and cards[a["card"]].troop)
    after = _call("apply", str(position), "--action", json.dumps(act))["position"]
    v = _call("view", "-", "--side", "french", stdin=json.dumps(after), monkeypatch=monkeypatch)
    assert v["viewer"] == "french"
    assert [p for p in v["pieces"] if p["side"] == "allied" and not p["face_up"]]
    assert all("card" not in p for p in v["pieces"] if p["side"] == "allied")
    assert "cards" not in v["reserves"]["allied"]


def _fire_position(tmp_path):
    """Play greedy until a fire action is legal; return (path, action)."""
    import random

    from battles.bots import GreedyBot
    from battles.engine import SIDES, SeededDice, apply, legal_actions, new_battle, to_json, view

    st = new_battle("waterloo", 2, cards=RECORDS)
    dice, bot, rng = SeededDice(2), GreedyBot(RECORDS), random.Random(0)
    while True:
        side = SIDES[st.priority]
        legal = legal_actions(st, side)
        fire = [a for a in legal if a["type"] == "fire"]
        if fire and st.reserve[1 - st.priority]:
            path = tmp_path / "fire.json"
            path.write_text(json.dumps(to_json(st)))
            return path, fire[0]
        apply(st, bot.choose(view(st, side), legal, rng), dice, check=False)


def test_apply_with_forced_dice_and_missing_dice(tmp_path):
    path, fire = _fire_position(tmp_path)
    out = _call("apply", str(path), "--action", json.dumps(fire), "--dice", "6,6,6,6,6,6")
    # the defender may answer first (RULINGS 13.0-b); passing then rolls the dice
    doc_after = out["position"]
    assert doc_after["step"] == "response"
    path2 = tmp_path / "resp.json"
    path2.write_text(json.dumps(doc_after))
    passing = {"type": "pass", "side": doc_after["priority"]}
    with pytest.raises(CommandError, match="not enough dice") as exc:
        _call("apply", str(path2), "--action", json.dumps(passing))
    assert exc.value.returncode == 2
    res = _call("apply", str(path2), "--action", json.dumps(passing), "--dice",
                ",".join(["4"] * 12))
    assert any(e["type"] == "fire" for e in res["events"])


@pytest.mark.parametrize("args,message", [
    (("apply", "POS", "--action", "{bad"), "not JSON"),
    (("apply", "POS", "--action", '{"type": "fire", "side": "french"}'), "illegal"),
    (("apply", "POS", "--action", "[1]"), "not an action"),
    (("apply", "POS", "--action", "{}", "--dice", "7"), "not a die"),
    (("legal", "MISSING", "--side", "french"), "cannot read"),
])
def test_errors_exit_2(position, tmp_path, args, message):
    args = tuple(str(position) if a == "POS" else str(tmp_path / "nope.json")
                 if a == "MISSING" else a for a in args)
    with pytest.raises(CommandError, match=message) as exc:
        _call(*args)
    assert exc.value.returncode == 2


def test_bad_position_file_exit_2(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    with pytest.raises(CommandError, match="not JSON"):
        _call("view", str(bad), "--side", "french")
    bad.write_text('{"format": "something else"}')
    with pytest.raises(CommandError, match="eagles-position"):
        _call("view", str(bad), "--side", "french")
    bad.write_text('{"format": "eagles-position", "version": 1}')
    with pytest.raises(CommandError, match="not a valid position"):
        _call("view", str(bad), "--side", "french")


def _french_list(tmp_path, n=20):
    """A 20-card French list of Quatre Bras cards (more than the chart's D14)."""
    cards = load_cards(RECORDS)
    nums = sorted(c.num for c in cards.values() if c.army == "french" and
                  "quatre-bras" in c.battles and c.kind != "terrain")[:n]
    path = tmp_path / "fr.txt"
    path.write_text("".join(f"1 #{x}\n" for x in nums))
    return path, nums


def test_new_reads_a_deck_list_as_validate_deck_does_a_custom_deck(tmp_path):
    # issue 29: validate_deck checks a list as a custom deck unless --pool (15.0: "Musters
    # should equal 50% (round down) of the custom Battle deck size"); engine new mustered the
    # same list by the chart (a dealt deck: 14 of 20)
    from battles.engine import from_json
    from decks.management.commands.validate_deck import Command
    from game import deck_figures

    parser = Command().create_parser("manage.py", "validate_deck")
    assert not parser.parse_args(["x.txt"]).pool  # a list is custom by default
    path, nums = _french_list(tmp_path)
    assert deck_figures("quatre-bras", "french", "custom", 1, size=20).muster == 10
    st = from_json(_call("new", "--battle", "quatre-bras", "--seed", "1", "--french-deck",
                         str(path)), RECORDS)
    assert len(st.reserve[0]) == 10 and len(st.reserve[0]) + len(st.decks["french"]) == 20
    dealt = from_json(_call("new", "--battle", "quatre-bras", "--seed", "1", "--french-deck",
                            str(path), "--deck-kind", "dealt"), RECORDS)
    deck = dealt.reserve[0] + dealt.decks["french"]
    assert len(deck) == 14 and set(deck) <= set(nums)  # D14 dealt from the list, M10
    assert len(dealt.reserve[0]) == 10
    small, _ = _french_list(tmp_path, 5)
    with pytest.raises(CommandError, match="a deal needs 14"):
        _call("new", "--battle", "quatre-bras", "--french-deck", str(small), "--deck-kind",
              "dealt")
