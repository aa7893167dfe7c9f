"""001 §14 'Create your own battlefield' (RULINGS R43): the printed tiles laid where the
players agree and armies of other sizes, Expert setup options agreed before set-up; one test
per clause, each refusal with its message; the default game unchanged."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from stratego.bots import GreedyBot, RandomBot
from stratego.engine import IllegalAction, apply, legal_actions, new_game, view
from stratego.engine.rules import check_placement, random_placement, start_turn
from stratego.engine.terrain import building_at, fortified, may_enter
from stratego.module import GAME
from stratego.search import determinize
from stratego.simulate import play

from .helpers import TABLE, find

COLS = 12
FRENCH = [s.id for s in TABLE.army("french")]
ALLIED = [s.id for s in TABLE.army("allied")]
PRUSSIAN = [s.id for s in TABLE.army("prussian")]
NAPOLEON = find("french", "commander_in_chief")
WELLINGTON = find("allied", "commander_in_chief")
FLC = find("french", "light_cavalry")
FA = find("french", "artillery")


def game(battlefield: dict[str, Any], seed: int = 1, **options: Any):
    return new_game(seed, TABLE, "expert", options={"battlefield": battlefield, **options})


def refused(battlefield: dict[str, Any], match: str, **options: Any) -> None:
    with pytest.raises(ValueError, match=match):
        game(battlefield, **options)


def squares_of(st, name: str) -> list[list[int]]:
    return next(t["squares"] for t in view(st, None)["terrain"] if t["name"] == name)


# --- where each printed tile lies ---------------------------------------------------------

def test_the_players_lay_the_printed_tiles_before_set_up():
    st = game({"tiles": {"la_haye_sainte": [5, 4], "mont_st_jean": [2, 6]}})
    assert squares_of(st, "la_haye_sainte") == [[5, 4], [6, 4], [5, 5], [6, 5]]
    assert squares_of(st, "mont_st_jean") == [[2, 6], [3, 6], [2, 7], [3, 7]]
    # a tile not named stays where R6 / R33 put it
    assert squares_of(st, "hougoumont") == [[1, 4], [2, 4], [1, 5], [2, 5]]
    assert squares_of(st, "plancenoit") == [[9, 2], [10, 2], [9, 3], [10, 3]]
    assert st.options["tiles"] == {"la_haye_sainte": [5, 4], "mont_st_jean": [2, 6]}


def test_a_laid_tile_keeps_its_rules_where_it_lies():
    st = game({"tiles": {"la_haye_sainte": [5, 4]}})
    cav = st.pieces[FLC]
    assert building_at(st, 4 * COLS + 5) == "la_haye_sainte"
    assert not may_enter(st, cav, 4 * COLS + 5)  # 001 §10: cavalry may not enter it
    assert may_enter(st, cav, 4 * COLS + 8)  # its printed place is open ground now
    line = [s.id for s in TABLE.army("french") if s.type == "line_infantry"]
    for pid, (c, r) in zip(line, ((5, 4), (6, 4), (5, 5), (6, 5)), strict=False):
        st.put(st.pieces[pid], r * COLS + c)
    assert fortified(st, st.pieces[line[0]])  # held whole: fortified (R23)


def test_a_tile_must_be_one_of_the_games_tiles():
    refused({"tiles": {"windmill": [4, 4]}}, "no tile 'windmill' in this game")


def test_a_tile_must_lie_on_the_board():
    refused({"tiles": {"hougoumont": [11, 4]}}, "hougoumont at \\[11, 4\\] runs off the board")
    refused({"tiles": {"hougoumont": [3, 12]}}, "off the board")


def test_tiles_may_not_overlap():
    refused({"tiles": {"la_haye_sainte": [2, 5]}}, "overlap at \\[2, 5\\]")
    refused({"tiles": {"la_haye_sainte": [4, 4], "hougoumont": [5, 5]}}, "overlap at")


def test_no_tile_over_the_prussian_flag():
    refused({"tiles": {"mont_st_jean": [10, 4]}}, "over the Prussian flag \\(R5\\)")


def test_hougoumont_lies_off_the_french_set_up_rows():
    refused({"tiles": {"hougoumont": [4, 3]}}, "French set-up rows.*garrison")
    game({"tiles": {"hougoumont": [3, 6]}})  # in the Allies' own rows: their garrison


def test_mud_is_laid_against_the_tiles_where_they_lie():
    game({"tiles": {"hougoumont": [3, 6]}, "mud": [[1, 4]]})  # Hougoumont's old place
    refused({"tiles": {"hougoumont": [3, 6]}, "mud": [[4, 6]]}, "lies over another tile")


def test_the_battlefield_is_agreed_in_the_expert_game_only():
    with pytest.raises(ValueError, match="Expert game"):
        new_game(1, TABLE, "standard", options={"battlefield": {"tiles": {}}})


def test_the_battlefield_has_tiles_mud_and_armies_only():
    refused({"rivers": []}, "nothing else")


def test_no_cavalry_or_gun_is_set_up_in_a_laid_building():
    st = game({"tiles": {"la_haye_sainte": [5, 2]}})
    apply(st, {"type": "deploy", "side": "allied", "random": True}, GAME.dice(1, 0))
    legal = random_placement(st, "french", GAME.dice(1, 1))
    assert check_placement(st, "french", pairs(legal)) == legal
    for pid in (FLC, FA):
        moved = dict(legal)
        into = 2 * COLS + 5
        other = next((q for q, s in moved.items() if s == into), None)
        if other is not None:
            moved[other] = moved[pid]
        moved[pid] = into
        with pytest.raises(IllegalAction, match="may not stand in la_haye_sainte"):
            check_placement(st, "french", pairs(moved))


def pairs(placement: dict[str, int]) -> dict[str, list[int]]:
    return {pid: [s % COLS, s // COLS] for pid, s in placement.items()}


@pytest.mark.parametrize("seed", range(6))
def test_the_random_set_up_keeps_cavalry_and_guns_out_of_a_laid_building(seed):
    st = game({"tiles": {"la_haye_sainte": [5, 2], "hougoumont": [3, 7]}}, seed)
    for side in ("allied", "french"):
        apply(st, {"type": "deploy", "side": side, "random": True}, GAME.dice(seed, 0))
    for p in st.pieces.values():
        if p.square is not None and building_at(st, p.square) in ("la_haye_sainte",
                                                                  "hougoumont"):
            assert p.type in ("light_infantry", "line_infantry"), (p.id, p.square)


@pytest.mark.parametrize("seed", range(4))
def test_the_garrison_holds_hougoumont_where_it_lies(seed):
    """R35: two Allied infantry, and only they, hold Hougoumont at the start, wherever it
    lies: the random set-up and the computer's own."""
    for deploy in ("random", "plan"):
        st = game({"tiles": {"hougoumont": [3, 6]}}, seed)
        if deploy == "random":
            apply(st, {"type": "deploy", "side": "allied", "random": True}, GAME.dice(seed, 0))
        else:
            a = GreedyBot(TABLE).choose(view(st, "allied"), legal_actions(st, "allied"),
                                        random.Random(seed))
            apply(st, a, iter(()))
        inside = [p for p in st.pieces.values() if p.square is not None
                  and building_at(st, p.square) == "hougoumont"]
        assert len(inside) == 2 and all(p.type in ("light_infantry", "line_infantry")
                                        for p in inside)


# --- which pieces each army fields --------------------------------------------------------

SMALL = {"french": FRENCH[:10] + [NAPOLEON], "allied": ALLIED[:12] + [WELLINGTON],
         "prussian": PRUSSIAN[:3]}


def test_each_army_fields_the_pieces_agreed():
    st = game({"armies": SMALL})
    assert sorted(st.pieces) == sorted(SMALL["french"] + SMALL["allied"] + SMALL["prussian"])
    assert len(st.prussian_pool) == 3
    v = view(st, "french")
    assert v["sides"]["french"]["reserve_count"] == 11 and v["prussians_to_come"] == 3
    apply(st, {"type": "deploy", "side": "allied", "random": True}, GAME.dice(1, 0))
    apply(st, {"type": "deploy", "side": "french", "random": True}, GAME.dice(1, 1))
    assert sum(1 for p in st.pieces.values() if p.where == "board") == 11 + 13


def test_an_army_not_named_fields_all_its_pieces():
    st = game({"armies": {"prussian": PRUSSIAN[:2]}})
    assert len([p for p in st.pieces if p.startswith("F")]) == len(FRENCH)
    assert len([p for p in st.pieces if p.startswith("A")]) == len(ALLIED)


def test_each_army_fields_its_commander_in_chief():
    refused({"armies": {"french": FRENCH[:10]}}, "french army fields its commander-in-chief")
    refused({"armies": {"allied": ALLIED[:10]}}, "allied army fields its commander-in-chief")


def test_an_army_fields_only_its_own_pieces_each_once():
    refused({"armies": {"french": [NAPOLEON, ALLIED[0]]}}, "not a piece of the french army")
    refused({"armies": {"french": [NAPOLEON, "F99"]}}, "'F99' is not a piece")
    refused({"armies": {"french": [NAPOLEON, FRENCH[0], FRENCH[0]]}}, "listed twice")
    refused({"armies": {"french": "all"}}, "a list of piece ids")
    refused({"armies": {"russian": []}}, "battlefield armies")


def test_the_allies_field_two_infantry_for_hougoumont():
    cav = [s.id for s in TABLE.army("allied") if s.type == "light_cavalry"]
    refused({"armies": {"allied": [WELLINGTON, *cav, ALLIED[0]]}}, "two infantry")


def test_an_army_of_no_prussians_never_comes():
    st = game({"armies": {"prussian": []}})
    assert st.options["prussians"] is False and st.prussian_pool == []
    st.phase, st.turn, st.active = "play", 13, "allied"
    start_turn(st, [])
    assert st.actions_left == 3  # no fourth action: nobody to take it (001 §9)


def test_the_early_start_holds_back_only_pieces_fielded():
    st = game({"armies": SMALL}, early_start=True)
    held = [p.id for p in st.pieces.values() if p.where == "delayed"]
    assert held and set(held) <= set(SMALL["french"])


def test_the_battlefield_is_shown_in_every_view():
    bf = {"tiles": {"la_haye_sainte": [5, 4]}, "mud": [[0, 6]], "armies": SMALL}
    st = game(bf)
    for viewer in ("french", "allied", None):
        v = view(st, viewer)
        assert v["options"]["tiles"] == {"la_haye_sainte": [5, 4]}
        assert v["options"]["armies"]["french"] == SMALL["french"]
        assert v["options"]["mud"][0] == [0, 6]
        assert squares_of(st, "la_haye_sainte")[0] == [5, 4]


def test_the_bots_believe_only_the_pieces_fielded():
    st = game({"armies": SMALL})
    v = view(st, "allied")
    seen = GreedyBot(TABLE).unseen(v, "allied")
    assert {s.id for backs in seen.values() for s in backs} == set(SMALL["french"])
    apply(st, {"type": "deploy", "side": "allied", "random": True}, GAME.dice(1, 0))
    apply(st, {"type": "deploy", "side": "french", "random": True}, GAME.dice(1, 1))
    sample = determinize(view(st, "allied"), TABLE, random.Random(1))
    assert sorted(sample.pieces) == sorted(st.pieces)


def test_a_game_on_a_battlefield_of_ones_own_plays_to_the_end():
    bf = {"tiles": {"hougoumont": [3, 6], "la_haye_sainte": [6, 1], "mont_st_jean": [2, 2]},
          "mud": [[8, 6]], "armies": SMALL}
    bots = {"french": GAME.bot("greedy", TABLE), "allied": GAME.bot("greedy", TABLE)}
    out = play(3, bots, 30, TABLE, "expert", {"battlefield": bf})
    assert out["reason"]


# --- the default: today's game -------------------------------------------------------------

def test_without_the_option_the_games_are_as_before():
    """Seeded random games of each game, hashed: the same as before R43's options were built
    (the hashes were taken from the code before the change)."""
    got = []
    for variant, opts in (("basic", {}), ("standard", {}), ("expert", {}),
                          ("expert", {"early_start": True, "grouchy": True}),
                          ("expert", {"battlefield": {"mud": [[4, 4], [0, 2]]}})):
        st = GAME.setup(7, {"variant": variant, "turn_cap": 20, **opts}, TABLE)
        bot, seq = RandomBot(), 0
        while (side := GAME.to_move(st)) is not None:
            legal = GAME.legal_actions(st, side)
            GAME.apply(st, bot.choose(None, legal, GAME.bot_rng(7, seq)), GAME.dice(7, seq))
            seq += 1
        doc = json.dumps(GAME.to_json(st), sort_keys=True).encode()
        got.append(hashlib.sha256(doc).hexdigest()[:16])
    assert got == ["b79309d16513ddd8", "38aab704fa2e02c5", "8587a6059f404964",
                   "107d4fc89e6e4400", "03efbf650be9c6a0"]
