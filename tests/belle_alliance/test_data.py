"""The card data: the house edition says what it is, a second data file with other tables
plays with no code change, and a document that does not fit is refused."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from belle_alliance import engine as e
from belle_alliance.loader import DATA_DIR, HOUSE, edition, load_cards
from belle_alliance.module import GAME

from .helpers import FIXTURE, fixture


def test_house_edition_header_says_it_is_our_reconstruction_not_the_publishers() -> None:
    doc = json.loads((DATA_DIR / f"{HOUSE}.json").read_text(encoding="utf-8"))
    assert doc["edition"] == "house-v2" and doc["publisher"] is False
    assert "house edition" in doc["title"].lower()
    assert "NOT the publisher's" in doc["header"] and "reconstruction" in doc["header"]
    readme = (DATA_DIR / "README.md").read_text(encoding="utf-8")
    for card in edition().cards.values():
        assert f"`{card.id}`" in readme  # documented card by card


def test_house_v1_stays_loadable_for_the_replays_of_stored_games() -> None:
    """Issue 27 balance: house-v2 is the default; a position stored under house-v1 restores
    with house-v1's cards, and only with them (the edition is checked)."""
    v1, v2 = edition("house-v1"), edition()
    assert (v1.edition, v2.edition) == ("house-v1", "house-v2")
    doc = e.to_json(e.new_game(v1))
    assert e.to_json(e.from_json(doc, v1)) == doc
    with pytest.raises(ValueError, match="edition"):
        e.from_json(doc, v2)


def test_house_v2_changes_only_the_french_casualty_track() -> None:
    """The retuning (data/README.md, "house-v2"): two of the French RT+1/RT+2 boxes made
    plain RT boxes; every card, the other tracks and the places as in house-v1."""
    v1, v2 = (json.loads((DATA_DIR / f"house-v{n}.json").read_text(encoding="utf-8"))
              for n in (1, 2))
    assert v2["map"]["casualty_tracks"]["french"] == [
        "", "", "", "", "", "", "RT", "RT", "RT", "RT", "RT+1", "RT+2", "B"]
    assert v1["map"]["casualty_tracks"]["french"] == [
        "", "", "", "", "", "", "RT", "RT", "RT+1", "RT+1", "RT+2", "RT+2", "B"]
    for doc in (v1, v2):
        doc["map"]["casualty_tracks"].pop("french")
        for k in ("edition", "title"):
            doc.pop(k)
    assert v1 == v2


def test_second_data_file_plays_a_whole_game_with_no_code_change() -> None:
    cards = load_cards(FIXTURE)
    assert cards.edition == "test-fixture-v1" and cards.napoleon_roll == "modifier"
    assert cards.casualty_tracks != edition().casualty_tracks
    for seed in range(20):
        s = GAME.setup(seed, {}, cards)
        n = 0
        while GAME.to_move(s) is not None:
            side = GAME.to_move(s)
            assert side is not None
            legal = GAME.legal_actions(s, side)
            GAME.apply(s, random.Random(f"{seed}:{n}").choice(legal), GAME.dice(seed, n))
            n += 1
        out = GAME.outcome(s)
        assert out is not None and out["winner"] in e.SIDES


def test_the_same_dice_give_different_games_on_the_two_editions() -> None:
    a, b = e.new_game(edition()), e.new_game(fixture())
    e.apply(a, {"type": "act", "card": "I", "action": "assault", "target": "orange",
                "napoleon": False}, [1])
    e.apply(b, {"type": "act", "card": "I", "action": "attack", "target": "orange",
                "napoleon": False}, [1])
    assert (a.morale, a.tracks) != (b.morale, b.tracks)


def test_a_position_of_one_edition_is_refused_with_the_other() -> None:
    doc = e.to_json(e.new_game(edition()))
    with pytest.raises(ValueError):
        e.from_json(doc, fixture())


def _doc() -> dict[str, Any]:
    return copy.deepcopy(dict(fixture().doc))


@pytest.mark.parametrize("change", [
    lambda d: d.update(format="other"),
    lambda d: d.update(version=2),
    lambda d: d["cards"].pop(0),  # 7 French cards
    lambda d: d["cards"][0].update(markers=6),  # 19 French division markers
    lambda d: d["cards"][6].update(markers=2),  # the Grand Battery holds three
    lambda d: d["cards"][0]["actions"][0]["table"].pop("6"),
    lambda d: d["cards"][0]["actions"][0].update(targets=["II"]),  # its own side
    lambda d: d["cards"][0]["actions"][0]["table"]["1"].update(capture="waterloo"),
    lambda d: d["map"]["casualty_tracks"].update(french=["", "RT"]),  # no B box
    lambda d: d["map"]["casualty_tracks"].update(french=[""] * 18 + ["B"]),  # too long
    lambda d: d["map"].update(time_track=["Dawn"]),
], ids=["format", "version", "cards", "markers", "battery", "table", "target", "place",
        "no-b", "long", "time"])
def test_a_document_that_does_not_fit_is_refused(change: Any) -> None:
    d = _doc()
    change(d)
    with pytest.raises(e.CardDataError):
        e.parse_cards(d)


def test_the_engine_reads_no_file() -> None:
    import pathlib

    root = pathlib.Path(e.__file__).parent
    for f in root.glob("*.py"):
        text = f.read_text(encoding="utf-8")
        assert "open(" not in text and "read_text" not in text and "django" not in text
