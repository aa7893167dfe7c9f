"""FIDE's last-round relaxation of the side limits (C.04.3 A.7), adapted: in the event's
final round a topscorer (more than half the maximum possible score) may break the hard side
rules; the broken rule counts as an unmet strong preference."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from tournaments.pairing import Player, pair_swiss
from tournaments.pairing.io import pair_round_json

F, A = "french", "allied"


def P(pid, points, opponents, sides):
    return Player(id=pid, points=Fraction(points), opponents=list(opponents), sides=list(sides))


def field():
    """After two rounds: a and b lead with 2/2, both played Allied twice (forced French).
    R1: x1(F)-a(A) 0-1, y1(F)-b(A) 0-1, c(F)-x2(A) 0-1, d(F)-y2(A) 0-1;
    R2: x2(F)-a(A) 0-1, y2(F)-b(A) 0-1, c(F)-x1(A) 0-1, y1(F)-d(A) 1-0."""
    return [
        P("a", 2, ["x1", "x2"], [A, A]),
        P("b", 2, ["y1", "y2"], [A, A]),
        P("x1", 1, ["a", "c"], [F, A]),
        P("x2", 1, ["c", "a"], [A, F]),
        P("y1", 1, ["b", "d"], [F, F]),
        P("y2", 1, ["d", "b"], [A, F]),
        P("c", 0, ["x2", "x1"], [F, F]),
        P("d", 0, ["y2", "y1"], [F, A]),
    ]


def pair_of(res, pid):
    for f, a in res.pairings:
        if pid in (f, a):
            return {f, a}
    return None


def test_before_the_last_round_the_leaders_cannot_meet():
    res = pair_swiss(field())
    assert pair_of(res, "a") != {"a", "b"}
    assert {f for f, _ in res.pairings} >= {"a", "b"}  # both play French, as forced
    assert res.optimal and res.objective[0] == 2  # two floats of one point


def test_in_the_last_round_the_leaders_meet_and_one_breaks_the_limit():
    res = pair_swiss(field(), last_round=True)
    assert pair_of(res, "a") == {"a", "b"}
    assert res.optimal
    assert res.objective[0] == 0  # nobody floats any more
    assert res.objective[2] >= 1  # the broken side limit counts as unmet strong


def test_non_topscorers_keep_the_hard_rules_in_the_last_round():
    # y1 and c (1 and 0 points of 2: not more than half) played French twice
    res = pair_swiss(field(), last_round=True)
    assert {a for _, a in res.pairings} >= {"y1", "c"}


def _json(rules, rnd=3):
    players = [
        {"id": p.id, "points": int(p.points), "opponents": p.opponents, "sides": p.sides}
        for p in field()
    ]
    return {"round": rnd, "rules": rules, "players": players}


def test_json_rounds_marks_the_last_round():
    out = pair_round_json(_json({"system": "swiss", "rounds": 3}))
    assert {"a", "b"} in [{p["french"], p["allied"]} for p in out["pairings"]]
    assert out["optimal"] is True and out["lower_bound"]["score_sq_sum"] == 0
    out = pair_round_json(_json({"system": "swiss", "rounds": 4}))
    assert {"a", "b"} not in [{p["french"], p["allied"]} for p in out["pairings"]]
    out = pair_round_json(_json({"system": "swiss", "last_round": True}))
    assert {"a", "b"} in [{p["french"], p["allied"]} for p in out["pairings"]]


@pytest.mark.parametrize("rules, message", [
    ({"last_round": "yes"}, '"last_round" must be true or false'),
    ({"rounds": 0}, '"rounds" must be a positive integer'),
])
def test_json_bad_last_round_keys_exit_2(tmp_path, rules, message):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(_json({"system": "swiss", **rules})))
    proc = subprocess.run([sys.executable, "-m", "tournaments.pairing", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert message in proc.stderr
