"""JSON in/out of the pairing package and the ``python -m tournaments.pairing`` entry."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tournaments.pairing import PairingError, pair_round_json

ROOT = Path(__file__).resolve().parent.parent

GOOD = {
    "round": 3,
    "rules": {"system": "swiss"},
    "players": [
        {
            "id": "p1",
            "rating": 1500,
            "points": 2,
            "opponents": ["p2", "p3"],
            "sides": ["french", "allied"],
            "had_bye": False,
            "dropped": False,
        },
        {
            "id": "p2",
            "rating": 1400,
            "points": 1,
            "opponents": ["p1", "p4"],
            "sides": ["allied", "french"],
        },
        {
            "id": "p3",
            "rating": 1450,
            "points": 1,
            "opponents": ["p4", "p1"],
            "sides": ["allied", "french"],
        },
        {
            "id": "p4",
            "rating": 1300,
            "points": 0,
            "opponents": ["p3", "p2"],
            "sides": ["french", "allied"],
        },
        {
            "id": "p5",
            "rating": 1200,
            "points": 1,
            "opponents": [None],
            "sides": [None],
            "had_bye": True,
        },
    ],
}


def test_swiss_json_round_trip():
    out = pair_round_json(copy.deepcopy(GOOD))
    assert set(out) >= {"pairings", "bye"}
    assert all(set(p) == {"french", "allied"} for p in out["pairings"])
    assert out["bye"] in {"p2", "p3", "p4"}  # p5 already had a bye


def test_bye_null_when_even():
    data = copy.deepcopy(GOOD)
    data["players"][4]["dropped"] = True
    assert pair_round_json(data)["bye"] is None


def bad(mutate):
    data = copy.deepcopy(GOOD)
    mutate(data)
    return data


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.pop("players"), 'missing key "players"'),
        (lambda d: d["players"][0].pop("points"), 'players\\[0\\]: missing key "points"'),
        (lambda d: d["players"][0].update(points="2"), '"points" must be a number'),
        (
            lambda d: d["players"][0].update(sides=["french"]),
            '"opponents" has 2 entries but "sides" has 1',
        ),
        (
            lambda d: d["players"][0].update(opponents=["p2", "zz"]),
            'unknown opponent "zz" in round 2',
        ),
        (lambda d: d["players"][1].update(id="p1"), 'duplicate player id "p1"'),
        (lambda d: d["players"][0].update(sides=["white", "allied"]), "side in round 1 is 'white'"),
        (lambda d: d.update(round="6"), '"round" must be an integer'),
        (lambda d: d["rules"].update(system="dutch"), "unknown system 'dutch'"),
        (lambda d: d["players"][0].update(had_bye="yes"), '"had_bye" must be true or false'),
        (
            lambda d: d["players"][3].update(opponents=["p3", "p1"]),
            'lists "p4" as an opponent but "p4" does not',
        ),
        (lambda d: d["rules"].update(keep_apart=[["p1", "nobody"]]), 'unknown player "nobody"'),
    ],
)
def test_malformed_input_is_a_precise_error(mutate, message):
    with pytest.raises(PairingError, match=message):
        pair_round_json(bad(mutate))


def test_two_game_matches_and_keep_apart():
    players = [
        {"id": f"p{k}", "rating": 1600 - k, "points": 0, "opponents": [], "sides": []}
        for k in range(1, 5)
    ]
    rules = {"system": "swiss", "match_games": 2, "keep_apart": [["p1", "p3"]]}
    out = pair_round_json({"round": 1, "rules": rules, "players": players})
    assert out["games"] == 2
    assert {"p1", "p3"} not in [set(p.values()) for p in out["pairings"]]


def test_round_robin_and_elimination_json():
    players = [
        {"id": f"s{k}", "rating": 2000 - k, "points": 0, "opponents": [], "sides": []}
        for k in range(1, 7)
    ]
    rr = pair_round_json({"round": 1, "rules": {"system": "round_robin"}, "players": players})
    assert len(rr["pairings"]) == 3
    se = pair_round_json(
        {"round": 1, "rules": {"system": "single_elimination"}, "players": players}
    )
    assert se["byes"] == ["s1", "s2"] and len(se["pairings"]) == 2
    tc = pair_round_json({"round": 1, "rules": {"system": "top_cut", "cut": 4}, "players": players})
    assert tc["pairings"][0] == {"french": "s1", "allied": "s4"}


def run_cli(tmp_path, text):
    path = tmp_path / "round.json"
    path.write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "tournaments.pairing", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_prints_json(tmp_path):
    proc = run_cli(tmp_path, json.dumps(GOOD))
    assert proc.returncode == 0, proc.stderr
    assert "pairings" in json.loads(proc.stdout)


def test_cli_exits_2_on_malformed_file(tmp_path):
    proc = run_cli(tmp_path, "{not json")
    assert proc.returncode == 2 and "not valid JSON" in proc.stderr
    proc = run_cli(tmp_path, json.dumps({"players": [{"id": "a"}]}))
    assert proc.returncode == 2 and 'missing key "points"' in proc.stderr


def test_package_imports_no_django():
    code = (
        "import sys, tournaments.pairing, tournaments.pairing.__main__;"
        "print(any(m == 'django' or m.startswith('django.') for m in sys.modules))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.stdout.strip() == "False", proc.stderr
