"""Double elimination through the JSON format / ``manage.py pair_round``: the next round's
matches from the games played so far."""

import json

import pytest
from django.core.management import call_command

from tournaments.pairing import PairingError, pair_round_json
from tournaments.pairing.double_bracket import Game, double_elimination_round


def players(n):
    return [{"id": f"p{k}", "seed": k} for k in range(1, n + 1)]


def doc(n, games, **extra):
    return {"rules": {"system": "double_elimination"}, "players": players(n), "games": games,
            **extra}


def test_round_1_with_byes_to_the_top_seeds():
    out = pair_round_json(doc(6, []))
    assert out["round"] == 1 and out["byes"] == ["p1", "p2"] and out["bye"] is None
    assert all(p["bracket"] == "W1" for p in out["pairings"])
    assert {x for p in out["pairings"] for x in (p["french"], p["allied"])} == {
        "p3", "p4", "p5", "p6"}
    assert out["bracket"]  # the whole bracket is still there


def test_each_round_from_the_results_matches_the_core_to_the_end():
    """Play 8 players to the end through JSON (the lower seed number wins, except the grand
    final: the losers' champion wins it, so the reset GF2 is played)."""
    seeds = [f"p{k}" for k in range(1, 9)]
    games, k = [], 1
    while True:
        out = pair_round_json(doc(8, games))
        core = double_elimination_round(seeds, [Game(**g) for g in games], k)
        assert out["round"] == k
        assert [(p["french"], p["allied"], p["bracket"]) for p in out["pairings"]] == [
            (p.french, p.allied, p.label) for p in core.pairings]
        if out["finished"]:
            break
        for p in out["pairings"]:
            if p["bracket"] == "GF":
                winner = p["allied"] if out["losses"][p["allied"]] else p["french"]
            else:
                winner = min(p["french"], p["allied"], key=lambda x: int(x[1:]))
            games.append({"round": k, "french": p["french"], "allied": p["allied"],
                          "winner": winner})
        k += 1
    assert out["pairings"] == [] and out["champion"]
    last = pair_round_json(doc(8, games[:-1]))  # the last game was the reset
    assert [p["bracket"] for p in last["pairings"]] == ["GF2"]


def test_drops_and_double_losses():
    r1 = pair_round_json(doc(4, []))["pairings"]
    games = [{"round": 1, "french": p["french"], "allied": p["allied"], "winner": None
              if k == 0 else p["french"]} for k, p in enumerate(r1)]
    out = pair_round_json(doc(4, games))
    both_out = {r1[0]["french"], r1[0]["allied"]}
    assert both_out <= set(out["out"])
    assert not {x for p in out["pairings"] for x in (p["french"], p["allied"])} & both_out


def test_call_command_prints_the_next_round(tmp_path, capsys):
    r1 = pair_round_json(doc(4, []))["pairings"]
    games = [{"round": 1, "french": p["french"], "allied": p["allied"],
              "winner": p["french"], "bracket": "W1"} for p in r1]
    path = tmp_path / "de.json"
    path.write_text(json.dumps(doc(4, games)))
    call_command("pair_round", str(path))
    out = json.loads(capsys.readouterr().out)
    assert out["round"] == 2 and out["bye"] is None
    assert sorted(p["bracket"] for p in out["pairings"]) == ["L1", "W2"]
    assert set(out["pairings"][0]) >= {"french", "allied", "bracket"}


@pytest.mark.parametrize("data, message", [
    ({"rules": {"system": "double_elimination"}}, 'missing key "players"'),
    (doc(1, []), "at least 2 players"),
    (doc(4, [{"round": 1, "french": "p1", "allied": "zz", "winner": "p1"}]),
     'unknown player "zz"'),
    (doc(4, [{"round": 1, "french": "p1", "allied": "p4", "winner": "p2"}]),
     '"winner" must be "p1", "p4" or null'),
    (doc(4, [{"round": 1, "french": "p1", "allied": "p2", "winner": "p1"}]),
     "is not an open match"),
    (doc(4, [{"round": 1, "french": "p1", "allied": "p4"}]), 'missing key "winner"'),
    (doc(4, [{"round": 1, "french": "p1", "allied": "p4", "winner": "p1"}]),
     "round 1: no result for bracket match W1"),
    (doc(4, [], round=2), "round 1: no result for bracket match W1"),
    (doc(4, [{"round": 1, "french": "p1", "allied": "p4", "winner": "p1", "bracket": "L1"},
             {"round": 1, "french": "p2", "allied": "p3", "winner": "p2"}]),
     "is bracket match W1, not L1"),
    (doc(4, [{"round": "1", "french": "p1", "allied": "p4", "winner": "p1"}]),
     '"round" must be an integer'),
    (doc(4, "nope"), '"games" must be a list'),
    ({"rules": {"system": "double_elimination"},
      "players": [{"id": "p1", "seed": 1}, {"id": "p2"}]}, 'give every player a "seed"'),
])
def test_malformed_input(tmp_path, capsys, data, message):
    with pytest.raises(PairingError, match=None) as exc:
        pair_round_json(data)
    assert message in str(exc.value)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(SystemExit) as exit_:
        call_command("pair_round", str(path))
    assert exit_.value.code == 2
    err = capsys.readouterr()
    assert err.out == "" and err.err.startswith("error:") and message in err.err
