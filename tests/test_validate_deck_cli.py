"""``manage.py validate_deck``: exit 0 valid, 1 invalid (or unreadable lines), 2 usage/IO."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cards.collection.services import add_copies
from decks.catalogue import cards_by_number

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def waterloo_french(size=36):
    """Cards of BP 8 or less first: a hand-picked (custom, 15.0) deck within BP 380."""
    return [n for n, c in sorted(cards_by_number().items(), key=lambda i: (i[1]["bp"] > 8, i[0]))
            if c["army"] == "french"
            and "waterloo" in c["battles"]
            and (c["type"] != "terrain" or c["terrain_battle"] == "waterloo")][:size]


@pytest.fixture
def deck_file(tmp_path, catalogue):
    path = tmp_path / "deck.txt"
    path.write_text("// Waterloo French\n" + "".join(f"1 #{n}\n" for n in waterloo_french()),
                    encoding="utf-8")
    return path


def run(*args) -> tuple[int, str]:
    from io import StringIO

    out = StringIO()
    try:
        call_command("validate_deck", *map(str, args), stdout=out, stderr=StringIO())
    except CommandError as exc:
        return exc.returncode, out.getvalue()
    return 0, out.getvalue()


def test_valid_deck_exits_0(deck_file):
    code, out = run(deck_file, "--battle", "waterloo", "--army", "french")
    assert code == 0 and "VALID" in out and "36 cards" in out and "BP" in out


def test_valid_deck_json(deck_file):
    code, out = run(deck_file, "--battle", "waterloo", "--army", "french", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["valid"] is True and answer["problems"] == []
    assert (answer["size"], answer["bp_limit"], answer["muster"],
            answer["reinforcement_rate"]) == (36, 380, 18, 2)


def test_invalid_deck_exits_1_with_every_problem(deck_file):
    code, out = run(deck_file, "--battle", "waterloo", "--army", "british", "--json")
    answer = json.loads(out)
    assert code == 1 and answer["valid"] is False
    wrong = [p for p in answer["problems"] if p["code"] == "wrong_army"]
    assert len(wrong) == 36 and wrong[0]["cards"] == [min(waterloo_french())]
    assert {"code", "message", "cards"} <= set(wrong[0])
    assert answer["size"] == 36 and answer["bp_limit"] == 360


def test_scaled_custom_and_historical_options(deck_file):
    code, out = run(deck_file, "--battle", "waterloo", "--army", "french", "--custom",
                    "--scale", "1/2", "--json")
    answer = json.loads(out)
    assert answer["bp_limit"] == 190 and answer["muster"] == 18
    assert code == 1 and {p["code"] for p in answer["problems"]} == {"bp_exceeded"}
    code, _ = run(deck_file, "--battle", "waterloo", "--army", "french", "--historical")
    assert code == 0


def test_parse_errors_exit_1_with_line_numbers(tmp_path, catalogue):
    path = tmp_path / "deck.txt"
    path.write_bytes(b"1 #1\n1 Napoleom\n\xff\xfe garbage\n")
    code, out = run(path, "--battle", "waterloo", "--army", "french", "--json")
    answer = json.loads(out)
    assert code == 1 and [e["line"] for e in answer["parse_errors"]] == [3]
    unknown = answer["problems"][0]  # a name of no card: an unknown_card problem, its line
    assert (unknown["code"], unknown["line"]) == ("unknown_card", 2)


def test_user_collection_makes_warnings_not_errors(deck_file, user):
    code, out = run(deck_file, "--battle", "waterloo", "--army", "french", "--user", "alice",
                    "--json")
    answer = json.loads(out)
    assert code == 0 and answer["playable_from_collection"] is False
    assert {p["code"] for p in answer["problems"]} == {"not_owned"}
    for number in waterloo_french():
        add_copies(user, number, "bronze", 1)
    code, out = run(deck_file, "--battle", "waterloo", "--army", "french", "--user", "alice",
                    "--json")
    assert code == 0 and json.loads(out)["playable_from_collection"] is True


@pytest.mark.parametrize("args", [
    ("--battle", "waterloo", "--army", "french", "--user", "nobody"),
    ("--battle", "waterloo", "--army", "french", "--scale", "banana"),
])
def test_usage_errors_exit_2(deck_file, args):
    assert run(deck_file, *args)[0] == 2


def test_unreadable_file_exits_2(tmp_path, catalogue):
    assert run(tmp_path / "missing.txt", "--battle", "waterloo", "--army", "french")[0] == 2
    assert run(tmp_path, "--battle", "waterloo", "--army", "french")[0] == 2


def test_usage_exit_codes_from_the_command_line(tmp_path):
    """A real process: argparse errors and unreadable files exit 2 before any database use."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
           "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}"}
    manage = [sys.executable, str(ROOT / "manage.py"), "validate_deck"]
    path = tmp_path / "deck.txt"
    path.write_text("1 #1\n", encoding="utf-8")

    def run_cli(*args):
        return subprocess.run([*manage, *args], env=env, cwd=ROOT, capture_output=True,
                              text=True, timeout=60)

    assert run_cli(str(path), "--battle", "austerlitz", "--army", "french").returncode == 2
    missing = run_cli(str(tmp_path / "nope"), "--battle", "waterloo", "--army", "french")
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    help_text = run_cli("--help").stdout
    assert "Exit status" in help_text and "--historical" in help_text


# --- 2.0 dealt, 15.0 custom: a hand-picked list is custom unless --pool ----------------------

def _quatre_bras_french():
    from decks.rules import dealable

    cards = cards_by_number()
    return sorted(n for n, c in cards.items() if dealable(c, "quatre-bras", "french", False))


@pytest.fixture
def dear_qb_file(tmp_path, catalogue):
    """A hand-picked Quatre Bras French list of 14 cards, far over the chart's BP 130."""
    cards = cards_by_number()
    troops = sorted((n for n in _quatre_bras_french()
                     if cards[n]["type"] not in ("general", "terrain")),
                    key=lambda n: -cards[n]["bp"])[:14]
    assert sum(cards[n]["bp"] for n in troops) > 130
    path = tmp_path / "qb.txt"
    path.write_text("// Quatre Bras, French\n" + "".join(f"1 #{n}\n" for n in troops),
                    encoding="utf-8")
    return path


def test_15_0_hand_picked_quatre_bras_french_over_130_bp_exits_1(dear_qb_file):
    code, out = run(dear_qb_file, "--battle", "quatre-bras", "--army", "french")
    assert code == 1 and "bp_exceeded" in out and "(limit 130)" in out
    code, out = run(dear_qb_file, "--json")  # battle and army from the first line
    answer = json.loads(out)
    assert code == 1 and [p["code"] for p in answer["problems"]] == ["bp_exceeded"]


def test_2_0_pool_that_can_deal_14_cards_exits_0(dear_qb_file):
    code, out = run(dear_qb_file, "--battle", "quatre-bras", "--army", "french", "--pool")
    assert code == 0 and "14 distinct cards can be dealt" in out and "VALID" in out


def test_2_0_pool_too_small_exits_1_counts_ignored(tmp_path, catalogue):
    path = tmp_path / "pool.txt"
    path.write_text("".join(f"3 #{n}\n" for n in _quatre_bras_french()[:13]), "utf-8")
    code, out = run(path, "--battle", "quatre-bras", "--army", "french", "--pool", "--json")
    answer = json.loads(out)
    assert code == 1 and [p["code"] for p in answer["problems"]] == ["pool_too_small"]
    assert answer["pool_size"] == 13 and answer["required_size"] == 14


def test_2_0_pool_lists_another_battles_terrain_as_never_dealt(tmp_path, catalogue):
    cards = cards_by_number()
    ligny = next(n for n, c in cards.items() if c["army"] == "french"
                 and c["type"] == "terrain" and c["terrain_battle"] == "ligny")
    path = tmp_path / "pool.txt"
    path.write_text("".join(f"1 #{n}\n" for n in [*_quatre_bras_french()[:14], ligny]),
                    "utf-8")
    code, out = run(path, "--battle", "quatre-bras", "--army", "french", "--pool")
    assert code == 0 and "warning never_dealt" in out


def test_unknown_card_text_and_json_agree(tmp_path, catalogue):
    path = tmp_path / "deck.txt"
    path.write_text(f"1 #{waterloo_french()[0]}\n1 #999\n", "utf-8")
    code, out = run(path, "--battle", "waterloo", "--army", "french")
    assert code == 1 and "error unknown_card: 1.0: line 2: there is no card #999" in out
    assert "NOT VALID (1 problem)" in out
    code, out = run(path, "--battle", "waterloo", "--army", "french", "--json")
    answer = json.loads(out)
    assert code == 1 and answer["parse_errors"] == []
    assert [(p["code"], p["line"], p["cards"]) for p in answer["problems"]] == [
        ("unknown_card", 2, [999])]


def test_battle_and_army_needed_without_a_header(tmp_path, catalogue):
    path = tmp_path / "deck.txt"
    path.write_text("1 #1\n", "utf-8")
    assert run(path, "--army", "french")[0] == 2
