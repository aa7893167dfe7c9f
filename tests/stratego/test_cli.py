"""``manage.py stratego new|legal|apply|view|simulate`` (issue 26, "CLI"): a game made, set
up and looked at from the command line, the hidden pieces hidden in a side's view; errors
exit with status 2. Run in-process (``call_command``); the first test also runs it once as
a process."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("stratego", *args, stdout=out)
    return out.getvalue()


def test_new_legal_apply_view_and_simulate_from_the_command_line(tmp_path):
    made = subprocess.run([sys.executable, "manage.py", "stratego", "new", "--seed", "7"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    position = tmp_path / "new.json"
    position.write_text(made.stdout)
    legal = json.loads(run("legal", str(position), "--side", "allied"))
    assert {"type": "deploy", "random": True, "side": "allied"} in legal
    applied = json.loads(run("apply", str(position), "--action", json.dumps(legal[0]),
                             "--seed", "7"))
    after = tmp_path / "after.json"
    after.write_text(json.dumps(applied["position"]))
    seen = json.loads(run("view", str(after), "--side", "french"))
    allied = [p for p in seen["board"] if p["side"] == "allied"]
    assert allied and all("back" in p and "name" not in p and "strength" not in p
                          for p in allied)  # the French see the Allied backs only
    sim = json.loads(run("simulate", "--games", "2", "--first", "random", "--second",
                         "random", "--cap", "8"))
    assert sim["games"] == 2


def test_errors_exit_with_status_2(tmp_path, capsys):
    position = tmp_path / "new.json"
    position.write_text(run("new"))
    with pytest.raises(SystemExit) as bad:
        call_command("stratego", "apply", str(position), "--action", '{"type": "fly"}',
                     stderr=sys.stderr)
    assert bad.value.code == 2
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(SystemExit) as bad:
        call_command("stratego", "legal", str(broken), "--side", "allied")
    assert bad.value.code == 2
