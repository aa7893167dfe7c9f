"""Stratego: Waterloo on the game service through the games API (/api/games/stratego/...):
two people create, join, set up (at random and by a placement of their own), act, undo and
resign; a game against the computer played by the worker's task; the export and replay once
over. Every answer is checked against the true state: no unrevealed identity of the
opponent's pieces reaches a player, none of either side's a spectator."""

from __future__ import annotations

import random

import pytest

from online.stratego import selectors, services
from online.stratego.kind import KIND, state_of
from online.stratego.models import StrategoMatch
from play import opening, replays
from stratego import setup_policy
from stratego.module import GAME

from ..kinds import KindTasks
from .helpers import assert_no_identity, assert_view_hides, choose, client_for, hidden_from

pytestmark = pytest.mark.django_db
tasks = KindTasks("stratego")
BASE = "/api/games/stratego/"


@pytest.fixture
def asked(monkeypatch):
    calls: list[tuple[int, int]] = []
    tasks.patch(monkeypatch, "send_bot_move", lambda *args: calls.append(args))
    monkeypatch.setattr(opening, "new_seed", lambda: 1815061818150618276)
    return calls


def my_placement(view: dict, side: str) -> dict:
    """Every piece of ``side``'s reserve on its home rows, in order (one square left)."""
    rows = (0, 1, 2, 3) if side == "french" else (9, 8, 7, 6)
    squares = [[c, r] for r in rows for c in range(12)]
    ids = [p["id"] for p in view["sides"][side]["reserve"] if p["army"] != "prussian"]
    return dict(zip(ids, squares, strict=False))


def check_everyone(m: StrategoMatch, clients: dict, where: str) -> None:
    for side, client in clients.items():
        r = client.get(f"{BASE}{m.pk}/")
        assert r.status_code == 200, r.json()
        body = r.json()
        viewer = side if side in ("french", "allied") else None
        assert body["my_side"] == viewer
        assert_view_hides(body["view"], m, viewer, f"{where}: API view of {side}")
        assert_no_identity(r.content.decode(), hidden_from(m, viewer),
                           f"{where}: API answer (log, legal actions) of {side}")


def test_two_people_create_join_set_up_act_undo_and_resign(user, other_user, asked,
                                                           django_user_model):
    carol = django_user_model.objects.create_user("carol", "", "pw")
    alice, bob, anyone = client_for(user), client_for(other_user), client_for(None)
    r = alice.post(BASE, {"side": "allied", "opponent": "open"}, format="json")
    assert r.status_code == 201, r.json()
    pk = r.json()["id"]
    assert r.json()["status"] == "waiting" and r.json()["view"] is None
    assert [g["id"] for g in bob.get(f"{BASE}open/").json()["results"]] == [pk]
    assert alice.post(f"{BASE}{pk}/join/", {}, format="json").status_code == 409
    r = bob.post(f"{BASE}{pk}/join/", {}, format="json")
    assert r.status_code == 200 and r.json()["my_side"] == "french"
    assert r.json()["waiting_for"] == "opponent"  # the Allies set up first
    assert asked == []
    # the Allies set up at random (the listed action), the French by a placement of their own
    v = alice.get(f"{BASE}{pk}/").json()
    assert v["legal_actions"] == [{"type": "deploy", "side": "allied", "random": True}]
    r = alice.post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": v["legal_actions"][0]},
                   format="json")
    assert r.status_code == 200, r.json()
    v = bob.get(f"{BASE}{pk}/").json()
    assert v["waiting_for"] == "you" and v["phase"] == "setup"
    bad = {"type": "deploy", "placement": {"F01": [0, 7]}}
    r = bob.post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": bad}, format="json")
    assert r.status_code == 400 and r.json()["code"] == "illegal_action"
    placement = my_placement(v["view"], "french")
    r = bob.post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": {
        "type": "deploy", "placement": placement}}, format="json")
    assert r.status_code == 200, r.json()
    m = StrategoMatch.objects.get(pk=pk)
    assert m.phase == "play" and m.to_move == "allied" and m.turn == 1
    for pid, sq in placement.items():
        assert state_of(m).pieces[pid].square == sq[1] * 12 + sq[0]
    clients = {"allied": alice, "french": bob, "spectator": client_for(carol)}
    check_everyone(m, clients, "after the set-up")
    # a stale seq, another's move
    r = bob.post(f"{BASE}{pk}/act/", {"seq": m.seq, "action": {"type": "end_turn"}},
                 format="json")
    assert r.status_code == 409
    # a move, taken back (undo), then played again
    v = alice.get(f"{BASE}{pk}/").json()
    move = next(a for a in v["legal_actions"] if a["type"] == "move")
    r = alice.post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": move}, format="json")
    assert r.status_code == 200 and r.json()["can_undo"] is True
    seq = r.json()["seq"]
    r = alice.post(f"{BASE}{pk}/undo/", {"seq": seq}, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["seq"] == seq + 1 and r.json()["view"]["actions_left"] == 3
    assert any(e["type"] == "undone" for e in r.json()["log"])
    # then both play, every answer checked
    rng = random.Random(26)
    for n in range(80):
        m = StrategoMatch.objects.get(pk=pk)
        if m.status != "active":
            break
        me = clients[m.to_move]
        v = me.get(f"{BASE}{pk}/").json()
        r = me.post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": choose(
            v["legal_actions"], rng)}, format="json")
        assert r.status_code == 200, r.json()
        if n % 10 == 0:
            check_everyone(StrategoMatch.objects.get(pk=pk), clients, f"action {n}")
    m = StrategoMatch.objects.get(pk=pk)
    assert m.status == "active" and any(p.revealed for p in state_of(m).pieces.values())
    check_everyone(m, clients, "mid-game")
    # the export waits for the end
    r = anyone.get(f"{BASE}{pk}/export/")
    assert r.status_code == 409 and r.json()["code"] == "game_not_over"
    r = bob.post(f"{BASE}{pk}/resign/", format="json")
    assert r.status_code == 200 and r.json()["status"] == "finished"
    assert r.json()["outcome"]["winner"] == "allied"
    assert r.json()["outcome"]["reason"] == "resigned" and r.json()["seed"]
    assert [g["id"] for g in alice.get(BASE).json()["results"]] == [pk]
    # the export rebuilds the game: the same position, the same dice
    r = anyone.get(f"{BASE}{pk}/export/")
    assert r.status_code == 200
    doc = r.json()
    assert doc["format"] == "stratego-waterloo/1" and doc["variant"] == "basic"
    assert doc["pieces"] == "pieces-v1.json" and doc["seed"] == str(m.seed) or \
        doc["seed"] == m.seed
    m = StrategoMatch.objects.get(pk=pk)
    assert GAME.to_json(services.replay(m)) == m.state
    book = replays.replay_book(KIND, m, log=True)
    assert book.check.ok and len(book.steps) == m.seq + 1


def test_cancel_and_invitations(user, other_user, asked):
    alice, bob = client_for(user), client_for(other_user)
    r = alice.post(BASE, {"side": "french", "opponent": "bob", "variant": "standard"},
                   format="json")
    assert r.status_code == 201 and r.json()["variant"] == "standard"
    pk = r.json()["id"]
    assert bob.get(f"{BASE}{pk}/").status_code == 200
    assert bob.post(f"{BASE}{pk}/cancel/").json()["status"] == "declined"
    r = alice.post(BASE, {"side": "french", "variant": "no-such"}, format="json")
    assert r.status_code == 400
    r = alice.post(BASE, {"side": "french", "opponent": "open"}, format="json")
    assert alice.post(f"{BASE}{r.json()['id']}/cancel/").json()["status"] == "cancelled"


def test_the_computer_sets_up_with_its_own_plan_checked_as_any_deploy(
        user, asked, django_capture_on_commit_callbacks):
    """Online, the computer deploys its own set-up (``setup_policy.plan``, as offline), not
    the listed random one: the service has the engine check it as it checks a player's."""
    r = client_for(user).post(BASE, {"side": "french", "bot": "greedy"}, format="json")
    pk = r.json()["id"]
    m = StrategoMatch.objects.get(pk=pk)
    st = KIND.setup(m)
    planned = setup_policy.plan(GAME.view(st, "allied"), GAME.bot_rng(m.seed, 1))
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.bot_move(pk, 0) == 1
    m = StrategoMatch.objects.get(pk=pk)
    assert m.actions.get(seq=1).action == {"type": "deploy", "side": "allied",
                                           "placement": planned}
    st = state_of(m)
    assert {p.id: [p.square % 12, p.square // 12] for p in st.side_pieces("allied")
            if p.where == "board"} == planned
    assert GAME.to_json(services.replay(m)) == m.state


def test_a_computer_set_up_the_engine_refuses_is_never_played(user, asked, monkeypatch):
    """The bot's placement is checked as a player's: one on the enemy's rows is refused
    (an error, the game unchanged), not played nor turned into another set-up."""
    r = client_for(user).post(BASE, {"side": "french", "bot": "greedy"}, format="json")
    pk = r.json()["id"]
    real = setup_policy.plan

    def astray(view, rng):
        placement = real(view, rng)
        placement[next(iter(placement))] = [0, 0]  # a French home square
        return placement

    monkeypatch.setattr(setup_policy, "plan", astray)
    with pytest.raises(RuntimeError, match="illegal action"):
        tasks.bot_move(pk, 0)
    m = StrategoMatch.objects.get(pk=pk)
    assert m.seq == 0 and not m.actions.exists() and m.phase == "setup"


def test_a_game_against_the_computer_is_played_by_the_worker(
        user, asked, django_capture_on_commit_callbacks):
    alice = client_for(user)

    def post(url, body):
        with django_capture_on_commit_callbacks(execute=True):
            return alice.post(url, body, format="json")

    r = post(BASE, {"side": "french", "bot": "greedy"})
    assert r.status_code == 201, r.json()
    pk = r.json()["id"]
    assert r.json()["waiting_for"] == "computer"  # the Allies (the computer) set up first
    assert asked == [(pk, 0)]
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.bot_move(pk, 0) == 1
    v = alice.get(f"{BASE}{pk}/").json()
    assert v["waiting_for"] == "you" and v["phase"] == "setup"
    assert sum(1 for p in v["view"]["board"] if p["side"] == "allied") > 30
    r = post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": v["legal_actions"][0]})
    assert r.status_code == 200
    rng = random.Random(7)
    computer_turns = 0
    for _ in range(200):
        m = StrategoMatch.objects.get(pk=pk)
        if m.status != "active" or computer_turns >= 4:
            break
        if m.to_move == "allied":
            assert asked[-1] == (pk, m.seq)  # the service asked the worker
            with django_capture_on_commit_callbacks(execute=True):
                assert tasks.bot_move(pk, m.seq) >= 1
            assert tasks.bot_move(pk, m.seq) == 0  # idempotent: a repeated task does nothing
            computer_turns += 1
            continue
        v = alice.get(f"{BASE}{pk}/").json()
        assert_view_hides(v["view"], m, "french", "against the computer")
        r = post(f"{BASE}{pk}/act/", {"seq": v["seq"], "action": choose(
            v["legal_actions"], rng)})
        assert r.status_code == 200, r.json()
    m = StrategoMatch.objects.get(pk=pk)
    assert computer_turns >= 3 or m.status == "finished"
    assert m.actions.filter(side="allied").count() >= 3
    assert GAME.to_json(services.replay(m)) == m.state
    assert selectors.game_summary(m, user)["opponent"] == "computer (greedy)"
