"""manage.py pair_round: prints the pairing JSON; exit 2 with a clear message on a malformed
file (nothing else happens)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

ROOT = Path(settings.BASE_DIR)


def run(path):
    return subprocess.run([sys.executable, "manage.py", "pair_round", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def players(n):
    return [{"id": f"p{k}", "rating": 1500 - k, "points": 0, "opponents": [], "sides": []}
            for k in range(1, n + 1)]


def test_prints_the_pairing(tmp_path):
    path = tmp_path / "round.json"
    path.write_text(json.dumps({"round": 1, "rules": {"system": "swiss"}, "players": players(5)}))
    proc = run(path)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert len(out["pairings"]) == 2 and out["bye"] == "p5"
    assert {x for p in out["pairings"] for x in (p["french"], p["allied"])} == {
        "p1", "p2", "p3", "p4"}


@pytest.mark.parametrize("content, message", [
    ("{not json", "is not valid JSON"),
    (json.dumps({"players": [{"id": "p1", "points": 0, "opponents": ["zz"], "sides": [None]}]}),
     'unknown opponent "zz" in round 1'),
    (json.dumps({"players": [{"id": "p1", "points": 0, "opponents": [], "sides": []},
                             {"id": "p1", "points": 0, "opponents": [], "sides": []}]}),
     'duplicate player id "p1"'),
    (json.dumps({"round": 1}), 'missing key "players"'),
])
def test_malformed_file_exits_2_with_a_clear_message(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(SystemExit) as exc:
        call_command("pair_round", str(path))
    assert exc.value.code == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert message in out.err and out.err.startswith("error:")


def test_missing_file_exits_2(tmp_path):
    proc = run(tmp_path / "nope.json")
    assert proc.returncode == 2 and "cannot read" in proc.stderr
