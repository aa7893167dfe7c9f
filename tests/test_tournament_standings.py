"""Standings and tiebreakers (pure): match points, MW%/GW% with the 1/3 floor, OMW%, OGW%,
French/Allied records, chosen order, and each figure's computation."""

import pytest

from tournaments.standings import MatchRecord, compute

P = [{"id": x, "name": x.upper(), "seed": k} for k, x in enumerate("abcd", start=1)]


def rows_by_id(rows):
    return {r["player"]: r for r in rows}


def test_match_points_win_three_draw_one_bye_a_win():
    rows = rows_by_id(compute(P, [MatchRecord(1, "a", "b", 1, 0, 0),
                                  MatchRecord(1, "c", "d", 0, 0, 1),
                                  MatchRecord(2, "a", None, 1, 0, 0)], ["omw"]))
    assert rows["a"]["match_points"] == 6 and rows["a"]["record"]["byes"] == 1
    assert rows["b"]["match_points"] == 0 and rows["c"]["match_points"] == 1


def test_opponents_match_win_uses_the_one_third_floor_and_ignores_byes():
    # a beat b (b: 0 wins -> MW 0, floored to 1/3); a also had a bye (not an opponent)
    rows = rows_by_id(compute(P, [MatchRecord(1, "a", "b", 1, 0, 0),
                                  MatchRecord(2, "a", None, 1, 0, 0)], ["omw", "ogw"]))
    a = rows["a"]
    assert a["tiebreaks"]["omw"] == pytest.approx(1 / 3, abs=1e-4)
    assert a["how"]["omw"]["terms"] == [{"round": 1, "opponent": "b", "value": 0.3333}]
    assert a["tiebreaks"]["ogw"] == pytest.approx(1 / 3, abs=1e-4)
    # b's opponent a won everything: 1.0
    assert rows["b"]["tiebreaks"]["omw"] == 1.0


def test_game_win_percentage_counts_game_points():
    rows = rows_by_id(compute(P[:2], [MatchRecord(1, "a", "b", 1, 0, 1),
                                      MatchRecord(2, "b", "a", 1, 1, 0)], ["gw"], 2))
    a = rows["a"]
    # a: games won 1 + 1, drawn 1, lost 1 -> (3+3+1) / (3*4)
    assert a["how"]["gw"]["terms"] == {"game_points": 7, "games": 4}
    assert a["tiebreaks"]["gw"] == pytest.approx(7 / 12, abs=1e-4)


def test_order_of_tiebreakers_is_the_organisers():
    # everyone 3 points; c won as Allied, the others as French
    matches = [MatchRecord(1, "a", "b", 1, 0, 0), MatchRecord(1, "d", "c", 0, 1, 0),
               MatchRecord(2, "b", "c", 1, 0, 0), MatchRecord(2, "d", "a", 1, 0, 0)]
    assert {r["match_points"] for r in compute(P, matches, [])} == {3}
    by_allied = [r["player"] for r in compute(P, matches, ["allied"])]
    by_french = [r["player"] for r in compute(P, matches, ["french", "allied"])]
    assert by_allied[0] == "c" and by_french[-1] == "c"


def test_french_and_allied_records():
    rows = rows_by_id(compute(P, [MatchRecord(1, "a", "b", 1, 0, 0),
                                  MatchRecord(2, "b", "a", 1, 0, 0)], ["french", "allied"]))
    assert rows["a"]["french_record"] == {"won": 1, "drawn": 0, "lost": 0}
    assert rows["a"]["allied_record"] == {"won": 0, "drawn": 0, "lost": 1}
    assert rows["b"]["tiebreaks"] == {"french": 1, "allied": 0}


def test_double_loss_is_a_loss_for_both():
    rows = rows_by_id(compute(P[:2], [MatchRecord(1, "a", "b", 0, 0, 0, True)], []))
    assert rows["a"]["match_points"] == rows["b"]["match_points"] == 0
    assert rows["a"]["record"]["losses"] == 1


def test_through_round_ignores_later_rounds_and_drops_keep_their_past():
    players = [*P[:3], {"id": "d", "name": "D", "dropped": True, "seed": 4}]
    matches = [MatchRecord(1, "d", "a", 1, 0, 0), MatchRecord(2, "a", "b", 1, 0, 0)]
    rows = rows_by_id(compute(players, matches, ["omw"], through_round=1))
    assert rows["d"]["match_points"] == 3 and rows["d"]["dropped"]
    assert rows["a"]["match_points"] == 0


def test_unknown_tiebreaker_is_refused():
    with pytest.raises(ValueError, match="unknown"):
        compute(P, [], ["luck"])


def test_module_imports_no_django():
    import ast
    from pathlib import Path

    import tournaments.standings as mod

    tree = ast.parse(Path(mod.__file__).read_text())
    names = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not any(name.startswith("django") for name in names)


# --- two-game matches: each game on the side it was played ----------------------------------

def sides(row):
    return row["french_record"], row["allied_record"]


def test_two_game_split_counts_each_game_on_the_side_it_was_won():
    # game 1: a (French) beats b (Allied); game 2, sides swapped: b (French) beats a (Allied)
    rows = rows_by_id(compute(P[:2], [MatchRecord(1, "a", "b", 1, 1, 0,
                                                  games=("french", "allied"))],
                              ["french", "allied"], 2))
    for pid in "ab":
        assert sides(rows[pid]) == ({"won": 1, "drawn": 0, "lost": 0},
                                    {"won": 0, "drawn": 0, "lost": 1})
        assert rows[pid]["tiebreaks"] == {"french": 1, "allied": 0}
        assert rows[pid]["how"]["french"]["value"] == 1
    # the other split: each won as Allied
    rows = rows_by_id(compute(P[:2], [MatchRecord(1, "a", "b", 1, 1, 0,
                                                  games=("allied", "french"))], [], 2))
    for pid in "ab":
        assert rows[pid]["french_record"]["won"] == 0 and rows[pid]["allied_record"]["won"] == 1


def test_two_game_win_and_draw_and_sweep():
    # game 1 drawn; game 2: a, now Allied, wins against b as French
    rows = rows_by_id(compute(P[:2], [MatchRecord(1, "a", "b", 1, 0, 1,
                                                  games=("draw", "french"))], [], 2))
    assert sides(rows["a"]) == ({"won": 0, "drawn": 1, "lost": 0},
                                {"won": 1, "drawn": 0, "lost": 0})
    assert sides(rows["b"]) == ({"won": 0, "drawn": 0, "lost": 1},
                                {"won": 0, "drawn": 1, "lost": 0})
    rows = rows_by_id(compute(P[:2], [MatchRecord(1, "a", "b", 0, 2, 0,
                                                  games=("allied", "allied"))], [], 2))
    assert rows["b"]["french_record"]["won"] == rows["b"]["allied_record"]["won"] == 1
    assert rows["a"]["french_record"]["lost"] == rows["a"]["allied_record"]["lost"] == 1


def test_two_game_double_loss_is_a_loss_on_both_sides():
    rows = rows_by_id(compute(P[:2], [MatchRecord(1, "a", "b", 0, 0, 0, True)], [], 2))
    for pid in "ab":
        assert sides(rows[pid]) == ({"won": 0, "drawn": 0, "lost": 1},
                                    {"won": 0, "drawn": 0, "lost": 1})


def test_old_two_game_totals_without_games():
    # stored as totals only (before per-game outcomes): a sweep still counts once per side,
    # a 1-1 split cannot say which side won and counts on neither
    rows = rows_by_id(compute(P, [MatchRecord(1, "a", "b", 2, 0, 0),
                                  MatchRecord(1, "c", "d", 1, 1, 0)], [], 2))
    assert rows["a"]["french_record"]["won"] == rows["a"]["allied_record"]["won"] == 1
    assert rows["c"]["french_record"] == rows["c"]["allied_record"] == {
        "won": 0, "drawn": 0, "lost": 0}


def test_game_outcomes_must_agree_with_the_totals():
    with pytest.raises(ValueError, match="contradict"):
        MatchRecord(1, "a", "b", 2, 0, 0, games=("french", "allied"))
    with pytest.raises(ValueError, match="french, allied or draw"):
        MatchRecord(1, "a", "b", 1, 1, 0, games=("french", "won"))
