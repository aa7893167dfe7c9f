"""``manage.py belle_alliance new|legal|apply|view|simulate`` (issue 27, "CLI"): a game made,
an action applied with forced dice and looked at from the command line, a second data file
taken with ``--data``; errors exit with status 2. Run in-process (``call_command``); the
first test also runs it once as a process."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "fixture-v1.json"


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("belle_alliance", *args, stdout=out)
    return out.getvalue()


def test_new_legal_apply_view_and_simulate_from_the_command_line(tmp_path):
    made = subprocess.run([sys.executable, "manage.py", "belle_alliance", "new"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    position = tmp_path / "new.json"
    position.write_text(made.stdout)
    doc = json.loads(made.stdout)
    assert doc["edition"] == "house-v2" and doc["phase"] == "french"
    assert doc["morale"] == {"french": 10, "allied": 10}
    assert json.loads(run("legal", str(position), "--side", "allied")) == []
    legal = json.loads(run("legal", str(position), "--side", "french"))
    act = next(a for a in legal if a["card"] == "I" and a["action"] == "assault")
    # d'Erlon's assault on a forced 6: the house table's row 6, the Allies' turn next
    applied = json.loads(run("apply", str(position), "--action", json.dumps(act),
                             "--dice", "6"))
    roll = next(e for e in applied["events"] if e["type"] == "roll")
    assert roll["dice"] == [6] and roll["result"] == 6
    assert applied["position"]["phase"] == "allied"
    after = tmp_path / "after.json"
    after.write_text(json.dumps(applied["position"]))
    seen = json.loads(run("view", str(after), "--side", "spectator"))
    assert seen["position"] == applied["position"] and seen["legal"] == []
    assert json.loads(run("view", str(after), "--side", "allied"))["legal"]
    sim = json.loads(run("simulate", "--games", "3", "--french", "random", "--allied",
                         "greedy"))
    assert sim["games"] == 3 and sum(sim["wins"].values()) == 3 and sim["wins"]["none"] == 0
    other = json.loads(run("new", "--data", str(FIXTURE)))
    assert other["edition"] != "house-v2"


def test_errors_exit_with_status_2(tmp_path):
    position = tmp_path / "new.json"
    position.write_text(run("new"))
    with pytest.raises(SystemExit) as bad:
        call_command("belle_alliance", "apply", str(position), "--action", '{"type": "fly"}',
                     stderr=io.StringIO())
    assert bad.value.code == 2
    act = json.loads(run("legal", str(position), "--side", "french"))[0]
    with pytest.raises(SystemExit) as bad:  # a die that is no d6 face
        call_command("belle_alliance", "apply", str(position), "--action", json.dumps(act),
                     "--dice", "9", stderr=io.StringIO())
    assert bad.value.code == 2
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(SystemExit) as bad:
        call_command("belle_alliance", "legal", str(broken), "--side", "allied",
                     stderr=io.StringIO())
    assert bad.value.code == 2
