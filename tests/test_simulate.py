"""battles/simulate.py and `manage.py simulate`: seeded, reproducible bot-vs-bot runs."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from battles.simulate import deck_from_text, results_digest, run, wilson
from cards.catalogue.file import catalogue_records

RECORDS = catalogue_records()  # the card records the engine is given

def test_same_arguments_same_results_and_digest():
    a = run("quatre-bras", 6, "d", "greedy", "random")
    b = run("quatre-bras", 6, "d", "greedy", "random")
    assert [r.as_dict() for r in a.results] == [r.as_dict() for r in b.results]
    assert a.digest == b.digest == results_digest(b.results)
    assert len(a.digest) == 64


def test_different_seed_different_digest():
    assert run("wavre", 6, 1, "random", "random").digest != \
        run("wavre", 6, 2, "random", "random").digest


def test_summary_counts_and_keys():
    s = run("quatre-bras", 5, 9, "random", "greedy")
    doc = s.as_dict()
    assert doc["games"] == 5
    assert sum(doc["wins"].values()) == 5
    assert set(doc["wins"]) == {"french", "allied", "draw"}
    assert doc["average_turns"] > 0
    assert all(r.turns >= 1 and r.steps > 0 for r in s.results)


def test_wilson_interval():
    lo, hi = wilson(90, 100)
    assert 0.82 < lo < 0.83 and 0.94 < hi < 0.95
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_progress_callback_called_per_game():
    seen = []
    run("wavre", 3, 0, "random", "random", progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_deck_from_text_splits_armies_and_reports_problems():
    decks = deck_from_text("1 #113\n1 #250 // a prussian card\n", "allied")
    assert set(decks) <= {"british", "prussian"} and sum(map(len, decks.values())) == 2
    with pytest.raises(ValueError, match="not french"):
        deck_from_text("1 #113\n", "french")
    with pytest.raises(ValueError, match="no card"):
        deck_from_text("1 #9999\n", "french")


def _call(*args) -> str:
    out = io.StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


def test_command_json_keys_and_reproducible_digest():
    args = ("--battle", "quatre-bras", "--games", "4", "--seed", "7", "--french", "greedy",
            "--allied", "random", "--json")
    a = json.loads(_call(*args))
    b = json.loads(_call(*args))
    assert {"games", "wins", "digest", "ci95", "average_turns"} <= set(a)
    assert a["games"] == 4 and set(a["wins"]) == {"french", "allied", "draw"}
    assert a["digest"] == b["digest"]


def test_command_text_output_has_rates_ci_turns_digest():
    text = _call("--battle", "wavre", "--games", "3", "--seed", "1")
    assert "95% CI" in text and "average turns" in text and "digest" in text
    assert "\r" not in text  # no progress bar when stdout is not a terminal


def test_command_deck_files(tmp_path):
    from battles.engine import historical_deck

    fr = tmp_path / "fr.txt"
    al = tmp_path / "al.txt"
    for path, army in ((fr, "french"), (al, "british")):
        deck = historical_deck("quatre-bras", army, 1, cards=RECORDS)
        path.write_text("".join(f"1 #{n}\n" for n in deck))
    doc = json.loads(_call("--battle", "quatre-bras", "--games", "2", "--french-deck",
                           str(fr), "--allied-deck", str(al), "--json"))
    assert doc["games"] == 2
    bad = tmp_path / "bad.txt"
    bad.write_text("1 #113\n")
    with pytest.raises(CommandError, match="not french") as exc:
        _call("--battle", "quatre-bras", "--games", "1", "--french-deck", str(bad))
    assert exc.value.returncode == 2
    with pytest.raises(CommandError, match="cannot read"):
        _call("--battle", "quatre-bras", "--games", "1", "--french-deck",
              str(tmp_path / "missing.txt"))


def test_command_deck_files_are_custom_decks_unless_dealt(tmp_path, monkeypatch):
    # issue 29: as validate_deck reads a list (custom, 15.0 Muster 50 %) unless --deck-kind
    # dealt (the pool a 2.0 deck is dealt from, mustered by the chart)
    import battles.simulate as sim

    seen = []
    real = sim.play_game
    monkeypatch.setattr(sim, "play_game", lambda *a, **kw: seen.append(kw) or real(*a, **kw))
    nums = sorted(r["number"] for r in RECORDS if r["army"] == "french"
                  and "quatre-bras" in r["battles"] and r["type"] != "terrain")[:20]
    fr = tmp_path / "fr.txt"
    fr.write_text("".join(f"1 #{n}\n" for n in nums))
    _call("--battle", "quatre-bras", "--games", "1", "--french-deck", str(fr), "--json")
    assert seen[-1]["deck_kinds"] == {"french": {"kind": "custom"}}
    assert sorted(seen[-1]["decks"]["french"]) == nums
    _call("--battle", "quatre-bras", "--games", "1", "--french-deck", str(fr), "--deck-kind",
          "dealt", "--json")
    assert seen[-1]["deck_kinds"] == {"french": {"kind": "dealt", "scale": "1"}}
    assert len(seen[-1]["decks"]["french"]) == 14 and set(seen[-1]["decks"]["french"]) <= \
        set(nums)
    fr.write_text("1 #1\n")
    with pytest.raises(CommandError, match="a deal needs 14"):
        _call("--battle", "quatre-bras", "--games", "1", "--french-deck", str(fr),
              "--deck-kind", "dealt")
