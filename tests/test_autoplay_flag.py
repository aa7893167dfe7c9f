"""Auto-played actions are flagged (issue 12): a row auto-play made (battles/autoplay.py) has
``BattleAction.auto``; the API log opens it with an ``auto_played`` entry and marks its events
``"auto": true`` (for both players and spectators); the page's log says "You passed
automatically: you held no card that could answer"; the export and the replay book keep the
flag, and replays stay exact."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from battles import replays, services
from battles.engine import from_json, legal_actions, to_json
from battles.engine.replay_file import replay_export
from battles.models import Battle, Status
from battles.setup import engine_cards
from game import ENDING_ACTIONS

from .kinds import battle_tasks as tasks
from .test_autoplay import SEED

pytestmark = pytest.mark.django_db

NO_ANSWER = "automatically: {} held no card that could answer"


def _choose(b: Battle, legal: list[dict]) -> dict:
    rng = random.Random(f"click:{b.seq}")
    moves = [a for a in legal if a["type"] not in ENDING_ACTIONS]
    if moves and rng.random() < 0.75:
        return rng.choice(moves)
    ending = [a for a in legal if a["type"] in ENDING_ACTIONS]
    return ending[0] if ending else rng.choice(legal)


def _played(user, capture, monkeypatch) -> tuple[Battle, set[int]]:
    """Quatre Bras against the greedy computer until turn 3 (the seed of test_autoplay, which
    has auto-passes); returns the battle and the seqs the human clicked."""
    monkeypatch.setattr(services, "new_seed", lambda: SEED)
    b = services.create_battle(user, "quatre-bras", "french", bot="greedy")
    clicked: set[int] = set()
    for _ in range(2000):
        b.refresh_from_db()
        if b.status != Status.ACTIVE or (b.turn or 0) >= 3:
            break
        if services.priority(b) == "french":
            legal = legal_actions(from_json(b.state, engine_cards(b)), "french")
            clicked.add(b.seq + 1)
            with capture(execute=False):
                services.act(b.pk, user, b.seq, _choose(b, legal))
        else:
            assert tasks.bot_move(b.pk, b.seq) >= 1
    return b, clicked


@pytest.fixture
def played(user, sent, django_capture_on_commit_callbacks, monkeypatch):
    return _played(user, django_capture_on_commit_callbacks, monkeypatch)


def test_rows_are_flagged_exactly_when_auto_play_made_them(played):
    b, clicked = played
    rows = list(b.actions.order_by("seq"))
    auto = {r.seq for r in rows if r.auto}
    human = {r.seq for r in rows if r.side == "french"}
    assert auto == human - clicked  # every action the human did not click, and only those
    assert any(r.action["type"] == "pass" for r in rows if r.auto), "no auto-pass: seed?"
    assert not any(r.auto for r in rows if r.side == "allied")  # the computer: never


def test_the_api_log_marks_auto_played_actions(played, user):
    b, _ = played
    auto = {r.seq: r for r in b.actions.filter(auto=True)}
    c = Client()
    c.force_login(user)
    log = c.get(f"/api/battles/{b.pk}/").json()["log"]
    openers = [e for e in log if e["type"] == "auto_played"]
    assert {e["seq"] for e in openers} == set(auto)
    for e in openers:
        assert e == {"seq": e["seq"], "type": "auto_played", "side": "french",
                     "action": auto[e["seq"]].action["type"], "visibility": "all",
                     "auto": True}
    for e in log:  # every event of an auto action is marked, no other
        assert e.get("auto", False) is (e["seq"] in auto)
    # the spectator sees the same flags (public: the instant answer already told)
    watched = Client().get(f"/api/battles/{b.pk}/watch/").json()["log"]
    assert {e["seq"] for e in watched if e["type"] == "auto_played"} == set(auto)
    # ?since= keeps it
    last = max(auto)
    since = c.get(f"/api/battles/{b.pk}/?since={last - 1}").json()["log"]
    assert since[0]["type"] == "auto_played" and since[0]["seq"] == last


def test_the_page_log_says_played_automatically(played, user):
    b, _ = played
    c = Client()
    c.force_login(user)
    page = c.get(f"/battles/{b.pk}/").content.decode()
    assert "You passed " + NO_ANSWER.format("you") in page
    watch = Client().get(f"/battles/{b.pk}/watch/").content.decode()
    assert "The French passed " + NO_ANSWER.format("they") in watch


def test_export_and_replays_keep_the_flag_and_stay_exact(played, user):
    b, _ = played
    assert to_json(services.replay(b)) == b.state
    services.resign(b.pk, user)
    b.refresh_from_db()
    doc = replays.export(b)
    flags = {a["seq"]: a["auto"] for a in doc["actions"]}
    assert flags == {r.seq: r.auto for r in b.actions.all()} and any(flags.values())
    result = replay_export(doc)  # the offline replayer ignores the flag and stays exact
    assert result.actions == len(doc["actions"])
    book = replays.replay_book(b)
    assert book.check.ok
    assert {s.seq for s in book.steps if s.auto} == {s for s, f in flags.items() if f}
    # the replay page says it at an auto-pass step
    step = next(i for i, s in enumerate(book.steps)
                if s.auto and s.action and s.action["type"] == "pass")
    c = Client()
    c.force_login(user)
    page = c.get(f"/battles/{b.pk}/replay/?step={step}&as=french").content.decode()
    assert "You passed " + NO_ANSWER.format("you") in page
