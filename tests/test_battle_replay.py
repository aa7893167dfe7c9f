"""Replays of finished battles (issue 12): the replay page steps through every action from
either side's view or with all cards, and checks every die against the revealed seed; the
export replays offline with the pure ``battles.engine.replay_file`` (no Django). Before the
end there is no replay and no export: the seed and the face-down cards are still secret."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.test import Client

from battles import replays, services
from battles.engine import from_json, legal_actions, to_json
from battles.engine.replay_file import ReplayMismatch, replay_export
from battles.models import Battle, Status
from cards.catalogue.file import catalogue_records

from .kinds import battle_tasks as tasks

RECORDS = catalogue_records()
ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.django_db


def play(b: Battle, user, rng: random.Random, *, undos: int = 2, until_seq: int | None = None
         ) -> Battle:
    """Play against the computer (a seeded random human), taking back the first ``undos``
    actions that may be; to the end, or until ``until_seq``."""
    side = services.side_of(b, user)
    guard = 0
    while b.status == Status.ACTIVE and (until_seq is None or b.seq < until_seq):
        guard += 1
        assert guard < 3000
        if services.priority(b) == side:
            if undos and services.battle_view(b, user)["can_undo"]:
                services.undo(b.pk, user, b.seq)
                undos -= 1
            else:
                state = from_json(b.state, cards=RECORDS)
                services.act(b.pk, user, b.seq, rng.choice(legal_actions(state, side)))
        else:
            tasks.bot_move(b.pk, b.seq)
        b.refresh_from_db()
    return b


@pytest.fixture
def finished(user, sent, monkeypatch) -> Battle:
    monkeypatch.setattr(services, "new_seed", lambda: 1815061818150618171)
    b = services.create_battle(user, "quatre-bras", "french", bot="greedy",
                               settings={"turn_cap": 6})
    b = play(b, user, random.Random("replay"))  # 58 actions, 19 dice, 2 undos
    assert b.status == Status.FINISHED
    # (actions are stored packed: read whole, not queried inside; play.fields)
    assert [a["type"] for a in b.actions.values_list("action", flat=True)].count("undo") == 2
    return b


@pytest.fixture
def stranger(db):
    from django.contrib.auth.models import User

    c = Client()
    c.force_login(User.objects.create_user("carol", "carol@example.com", "s3cret-pass-1815"))
    return c


def page(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def dice_of(b: Battle) -> int:
    from battles.engine.replay_file import effective_actions

    return sum(len(e.get("dice") or ()) for r in effective_actions(list(b.actions.all()))
               for e in r.events)


def test_the_replay_page_checks_the_dice_and_steps_through_every_action(finished, user):
    b = finished
    c = page(user)
    r = c.get(f"/battles/{b.pk}/replay/")
    html = r.content.decode()
    assert r.status_code == 200
    n = dice_of(b)
    assert n > 5
    assert (f"All {n} dice rolls re-derived from the revealed seed {b.seed}: they match"
            in html)
    last = b.seq - 2 * 2  # the undos and the actions they took back are skipped
    # it opens at the start, where "Next" leads on (issue 28)
    assert 'data-testid="step">0<' in html and "2 actions taken back" in html
    assert f"of {last}" in html
    assert 'data-testid="viewpoint">French view' in html  # a player's own side by default
    r = c.get(f"/battles/{b.pk}/replay/?step=0&as=french")
    html = r.content.decode()
    assert 'data-testid="step">0<' in html and "the position before the first action" in html
    assert 'href="?step=1&amp;as=french" data-testid="next"' in html
    assert f'href="?step={last}&amp;as=french" data-testid="last"' in html
    # The turn select: each turn's first step.
    options = re.findall(r'<option value="(\d+)"[^>]*>([^<]+)</option>', html)
    assert options[0] == ("0", "Deployment") and options[1][1] == "Turn 1"
    assert [int(v) for v, _ in options] == sorted(int(v) for v, _ in options)
    r = c.get(f"/battles/{b.pk}/replay/?step={options[1][0]}&as=french")
    assert r.status_code == 200 and "Turn 1" in r.content.decode()
    # Out of range is the last step; garbage is a 400 that says why.
    assert f'data-testid="step">{last}<' in c.get(
        f"/battles/{b.pk}/replay/?step=99999").content.decode()
    r = c.get(f"/battles/{b.pk}/replay/?step=-1")
    assert r.status_code == 400
    assert "Step must be a whole number: 0 is the position" in r.content.decode()
    r = c.get(f"/battles/{b.pk}/replay/?as=nobody")
    assert r.status_code == 400 and "As must be french, allied or all" in r.content.decode()


def test_viewpoints_each_side_sees_its_own_all_shows_every_card(finished, user):
    b = finished
    book = replays.replay_book(b)
    mid = len(book.steps) // 2
    french, allied, every = (book.view(mid, v) for v in ("french", "allied", "all"))
    face_down = [p for p in every["pieces"] if p["face_down"]]
    assert face_down and all("card" in p and p["face_up"] for p in every["pieces"])
    assert any("card" not in p for p in french["pieces"] + allied["pieces"])
    assert every["reserves"]["french"].get("cards") is not None
    assert every["reserves"]["allied"].get("cards") is not None
    # The last step is the live position; the page draws the boards.
    assert json.loads(json.dumps(to_json(book.steps[-1].state))) == b.state
    c = page(user)
    for viewpoint in ("french", "allied", "all"):
        r = c.get(f"/battles/{b.pk}/replay/?step={mid}&as={viewpoint}")
        assert r.status_code == 200 and "<svg" in r.content.decode()


def test_the_page_names_the_first_die_that_does_not_match(finished, user):
    b = finished
    row = next(r for r in b.actions.order_by("seq") if any("dice" in e and e["dice"]
                                                           for e in r.events))
    for e in row.events:
        if e.get("dice"):
            e["dice"] = [7 - d for d in e["dice"]]
            break
    row.save()
    html = page(user).get(f"/battles/{b.pk}/replay/").content.decode()
    assert f"The dice do not match: action {row.seq} replays differently" in html
    assert "they match" not in html


def test_one_replay_per_request(finished, user, monkeypatch):
    calls = []
    real = replays.replay_book
    monkeypatch.setattr(replays, "replay_book",
                        lambda b, keep=None: calls.append(b.pk) or real(b, keep))
    started = time.perf_counter()
    assert page(user).get(f"/battles/{finished.pk}/replay/?step=3&as=all").status_code == 200
    assert calls == [finished.pk] and time.perf_counter() - started < 5


def test_who_may_replay(finished, user, stranger, client):
    b = finished
    assert stranger.get(f"/battles/{b.pk}/replay/").status_code == 200  # public: anyone
    assert client.get(f"/battles/{b.pk}/replay/?as=all").status_code == 200  # logged out too
    assert stranger.get(f"/api/battles/{b.pk}/export/").status_code == 200
    Battle.objects.filter(pk=b.pk).update(public=False)
    assert stranger.get(f"/battles/{b.pk}/replay/").status_code == 404
    assert stranger.get(f"/api/battles/{b.pk}/export/").status_code == 404
    assert client.get(f"/api/battles/{b.pk}/export/").status_code == 404
    assert page(user).get(f"/battles/{b.pk}/replay/").status_code == 200
    assert stranger.get("/battles/999999/replay/").status_code == 404


def test_no_replay_or_export_before_the_end(user, sent, stranger):
    b = services.create_battle(user, "quatre-bras", "allied", bot="random")
    b = play(b, user, random.Random("early"), undos=0, until_seq=3)
    assert b.status == Status.ACTIVE
    c = page(user)
    r = c.get(f"/battles/{b.pk}/replay/?as=all")
    assert r.status_code == 409 and "the seed stays secret until the battle ends" in \
        r.content.decode()
    assert str(b.seed) not in r.content.decode()
    r = c.get(f"/api/battles/{b.pk}/export/")
    assert r.status_code == 409 and r.json()["code"] == "battle_not_over"
    assert str(b.seed) not in r.content.decode()
    Battle.objects.filter(pk=b.pk).update(public=False)
    assert stranger.get(f"/battles/{b.pk}/replay/").status_code == 404
    assert stranger.get(f"/api/battles/{b.pk}/export/").status_code == 404
    # A battle never played (waiting for an opponent) has nothing to replay.
    w = services.create_battle(user, "quatre-bras", "allied", opponent="open")
    assert c.get(f"/api/battles/{w.pk}/export/").status_code == 404


def test_export_replays_offline_without_django(finished, user, tmp_path):
    b = finished
    r = page(user).get(f"/api/battles/{b.pk}/export/")
    assert r.status_code == 200
    doc = r.json()
    assert doc["format"] == "eagles-battle/1" and doc["seed"] == str(b.seed)
    assert {"battle", "settings", "scale", "deck_kinds", "decks", "card_records", "seed",
            "actions", "outcome"} <= set(doc)
    assert [a["seq"] for a in doc["actions"]] == list(range(1, b.seq + 1))
    assert doc["outcome"] == b.outcome
    result = replay_export(doc)  # in process
    assert json.loads(json.dumps(to_json(result.state))) == b.state
    assert result.actions == b.seq - 4 and result.undone == 2 and result.dice == dice_of(b)
    path = tmp_path / "export.json"
    path.write_text(json.dumps(doc))
    env = {"PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "battles.engine.replay_file", str(path)],
                         cwd=ROOT, capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert f"replayed {b.seq - 4} actions (2 taken back), dice verified" in out.stdout
    winner = b.outcome["winner"]
    assert (f"{winner} win" if winner else "a draw") in out.stdout
    code = ("import json, sys\n"
            "from battles.engine.replay_file import replay_export\n"
            f"r = replay_export(json.load(open({str(path)!r})))\n"
            "print(r.actions, sorted(m for m in sys.modules if m.split('.')[0] in "
            "('django', 'rest_framework', 'celery')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, env=env, check=True)
    assert out.stdout.split() == [str(b.seq - 4), "[]"]
    # A changed die is caught offline too.
    row = next(a for a in doc["actions"] if any(e.get("dice") for e in a.get("events", ())))
    next(e for e in row["events"] if e.get("dice"))["dice"][0] ^= 7
    with pytest.raises(ReplayMismatch, match=f"action {row['seq']} replays differently"):
        replay_export(doc)
    path.write_text(json.dumps(doc))
    out = subprocess.run([sys.executable, "-m", "battles.engine.replay_file", str(path)],
                         cwd=ROOT, capture_output=True, text=True, env=env)
    assert out.returncode == 1 and "replays differently" in out.stderr
