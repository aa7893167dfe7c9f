"""matchups/stats.py: pure statistics of a matchup's games."""

import pytest

from matchups import stats


def test_wilson_known_values():
    # Textbook values (Wilson 1927; e.g. Newcombe 1998, table I): 81/263 -> 0.2553..0.3662.
    low, high = stats.wilson(81, 263)
    assert low == pytest.approx(0.2553, abs=1e-4) and high == pytest.approx(0.3662, abs=1e-4)
    low, high = stats.wilson(15, 148)
    assert low == pytest.approx(0.0624, abs=1e-4) and high == pytest.approx(0.1605, abs=1e-4)
    assert stats.wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    assert stats.wilson(10, 10) == (pytest.approx(0.7225, abs=1e-4), 1.0)
    assert stats.wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        stats.wilson(3, 2)


def _g(i, winner, turns=5, cards=(1, 2), side="french"):
    return {"game": i, "seed": f"1:{i}", "a_side": side, "winner": winner, "reason": "morale",
            "turns": turns, "cards_a": list(cards)}


def test_cumulative_series_and_summary():
    games = [_g(0, "a"), _g(1, "b", 7, (2, 3)), _g(2, "a", 6, (1, 3)), _g(3, None, 10)]
    series = stats.cumulative(games)
    assert [row[:2] for row in series] == [[1, 1.0], [2, 0.5], [3, 0.6667], [4, 0.5]]
    assert all(row[2] <= row[1] <= row[3] for row in series)
    out = stats.summarize(list(reversed(games)), {1: "Ney", 2: "Grouchy"})
    assert out["games"] == 4 and out["wins"] == {"a": 2, "b": 1, "draw": 1}
    assert out["win_rate"]["a"] == 0.5 and out["average_turns"] == 7.0
    assert out["series"] == series  # order by game number, whatever the input order
    assert out["by_side"] == {"french": {"games": 4, "a": 2, "b": 1, "draw": 1}}
    wins = out["cards"]["wins"]
    assert wins[0] == {"number": 1, "name": "Ney", "games": 2, "present": 3}
    assert [r["number"] for r in out["cards"]["losses"]] == [2, 3]
    assert out["cards"]["losses"][1]["name"] == "#3"
    assert out["digest"] == stats.summarize(games)["digest"]
    assert out["digest"] != stats.summarize(games[:3])["digest"]


def test_no_games():
    out = stats.summarize([])
    assert out["games"] == 0 and out["series"] == [] and out["ci95"]["a"] == [0.0, 1.0]


def test_differences_show_the_cards_that_go_with_wins_or_losses():
    # card 1 in both wins only, card 3 in the loss and the draw only, card 2 everywhere
    games = [_g(0, "a", cards=(1, 2)), _g(1, "b", cards=(2, 3)), _g(2, "a", cards=(1, 2)),
             _g(3, None, cards=(2, 3))]
    out = stats.differences(games, {1: "Ney"})
    assert [r["number"] for r in out["better"]] == [1]
    assert out["better"][0] == {"number": 1, "name": "Ney", "with": 1.0, "without": 0.0,
                                "games_with": 2, "games_without": 2, "gap": 1.0}
    assert [r["number"] for r in out["worse"]] == [3]
    assert out["worse"][0]["with"] == 0.0 and out["worse"][0]["without"] == 1.0
    assert not out["same_cards"]  # card 2, in every game, is in neither list
    assert all(r["number"] != 2 for r in out["better"] + out["worse"])


def test_a_custom_deck_holds_the_same_cards_so_nothing_differs():
    games = [_g(0, "a"), _g(1, "b"), _g(2, "a")]
    out = stats.differences(games)
    assert out == {"same_cards": True, "better": [], "worse": []}
    assert stats.summarize(games)["differences"]["same_cards"]
