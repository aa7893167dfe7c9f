"""``manage.py campaign`` and ``simulate_campaign``, like tests/test_engine_cli.py."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command


def run(capsys, *args):
    call_command(*args)
    return capsys.readouterr()


def test_campaign_new_legal_apply_view(tmp_path, capsys):
    doc = run(capsys, "campaign", "new", "--seed", "3").out
    path = tmp_path / "c.json"
    path.write_text(doc)
    legal = json.loads(run(capsys, "campaign", "legal", str(path), "--side", "french").out)
    assert legal[0]["type"] == "split"
    out = json.loads(run(capsys, "campaign", "apply", str(path), "--action",
                         json.dumps(legal[0])).out)
    assert set(out["campaign"]["boards"]) == {"quatre-bras", "ligny"}
    path.write_text(json.dumps(out["campaign"]))
    seen = json.loads(run(capsys, "campaign", "view", str(path), "--side", "allied").out)
    assert "cards" not in seen["pools"]["french"] and seen["to_move"]["board"] == "quatre-bras"


def test_campaign_errors_exit_2(tmp_path, capsys):
    path = tmp_path / "c.json"
    path.write_text(run(capsys, "campaign", "new").out)
    with pytest.raises(CommandError, match="must split") as err:
        call_command("campaign", "apply", str(path), "--action",
                     '{"type": "retreat", "side": "french", "board": "ligny"}')
    assert err.value.returncode == 2
    path.write_text("[1]")
    with pytest.raises(CommandError, match="not an eagles-campaign"):
        call_command("campaign", "view", str(path), "--side", "french")


def test_simulate_campaign_json(capsys):
    out = run(capsys, "simulate_campaign", "--games", "1", "--seed", "2", "--turn-cap", "3",
              "--french", "greedy", "--allied", "random", "--json")
    doc = json.loads(out.out)
    assert doc["games"] == 1 and sum(doc["wins"].values()) == 1
    assert sum(doc["branches"].values()) == 1 and "1/1" in out.err
